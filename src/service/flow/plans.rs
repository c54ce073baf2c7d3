//! Conditional moves, as correspondence players know them: the player waiting for the
//! opponent's move queues lines of "if they play X, I answer Y" (a few pairs deep). A line is
//! made for the position as it stands; the opponent's move plays the answer at once when a
//! line names it and drops the plan when none does, and an end proposal drops it too.

use chrono::{DateTime, Utc};

use super::told::{News, Told};
use super::Matches;
use crate::game::{Match, Move, MoveText, Progress, Seat};
use crate::service::error::{refuse, Result};
use crate::service::flow::progress::{match_in_play, seat_of};
use crate::service::refusal::Refusal;
use crate::service::{echo, names_in, Actor, Place, Reply};
use crate::store::{PlanLine, StoredMatch, Tx, UserId};

/// The most moves a line holds: four of the opponent's, four answers.
pub const MOST_PLAN_MOVES: usize = 8;
/// The most lines a plan holds.
pub const MOST_PLAN_LINES: usize = 12;
/// The most characters a line may have: eight long moves and room between them.
const MOST_LINE_TEXT: usize = 400;

/// Words a player may write between the moves of a line: `if TG7-F6 then dF1-F5`.
const FILLER: [&str; 4] = ["if", "then", "->", "=>"];

impl Matches {
    /// `actor`, waiting for the opponent's move, adds `line` to their plan; to a plan of that
    /// line alone when `afresh`.
    pub async fn plan(
        &self,
        place: Place,
        actor: &Actor,
        line: &str,
        afresh: bool,
    ) -> Result<Reply> {
        if line.chars().count() > MOST_LINE_TEXT {
            return refuse(Refusal::MoveTooLong { echo: echo(line) });
        }
        let words = line_words(line);
        if words.len() < 2 || words.len() > MOST_PLAN_MOVES || words.len() % 2 == 1 {
            return refuse(Refusal::PlanShape {
                plies: words.len(),
                most: MOST_PLAN_MOVES,
            });
        }
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        let m = match_in_play(&mut tx, place.channel).await?;
        let seat = waiting_seat(&m, actor)?;
        let moves = checked_line(&m.game, seat, &words)?;
        let (battle_id, after_ply) = position_of(&m);
        let mut lines: Vec<Vec<String>> = match afresh {
            true => Vec::new(),
            false => standing_lines(&mut tx, &m, actor.id).await?,
        };
        if lines.iter().any(|l| l.starts_with(&moves)) {
            return refuse(Refusal::PlanHasLine);
        }
        for l in &lines {
            if let Some((theirs, answer)) = conflict(l, &moves) {
                return refuse(Refusal::PlanConflict { theirs, answer });
            }
        }
        // A line the new one carries on is part of it now.
        lines.retain(|l| !moves.starts_with(l));
        if lines.len() >= MOST_PLAN_LINES {
            return refuse(Refusal::PlanFull {
                most: MOST_PLAN_LINES,
            });
        }
        lines.push(moves);
        tx.drop_plan_of(m.id, actor.id).await?;
        for moves in &lines {
            let line = PlanLine {
                battle_id,
                after_ply,
                moves: moves.clone(),
            };
            tx.add_plan_line(m.id, actor.id, &line, now).await?;
        }
        tx.save_player(&actor.player(), now).await?;
        let names = names_in(&mut tx, &m).await?;
        tx.commit().await?;
        let opponent = m.player(seat.other());
        Ok(Told::new(News::Plan { lines, opponent }, names)
            .saved()
            .worded())
    }

    /// `actor`'s plan in this channel's match, shown to them alone.
    pub async fn show_plan(&self, place: Place, actor: &Actor) -> Result<Reply> {
        let mut tx = self.store.begin().await?;
        let m = match_in_play(&mut tx, place.channel).await?;
        let seat = seat_of(&m, actor)?;
        let lines = standing_lines(&mut tx, &m, actor.id).await?;
        let names = names_in(&mut tx, &m).await?;
        tx.rollback().await?;
        let opponent = m.player(seat.other());
        Ok(Told::new(News::Plan { lines, opponent }, names).worded())
    }

    /// `actor` drops their plan in this channel's match.
    pub async fn clear_plan(&self, place: Place, actor: &Actor) -> Result<Reply> {
        let mut tx = self.store.begin().await?;
        let m = match_in_play(&mut tx, place.channel).await?;
        seat_of(&m, actor)?;
        let lines = standing_lines(&mut tx, &m, actor.id).await?.len();
        tx.drop_plan_of(m.id, actor.id).await?;
        tx.commit().await?;
        let told = Told::new(News::PlanDropped { lines }, Default::default());
        Ok(if lines > 0 { told.saved() } else { told }.worded())
    }
}

/// A planned answer to the opponent's move, played.
pub(super) struct Planned {
    pub mv: Move,
    pub progress: Progress,
    pub player: UserId,
}

/// After `mover_seat` played `mv` in `m` (already in `m.game`, with `after` its progress) as
/// ply `ply` of battle `battle_id`: the answer the other player planned, played in `m.game`
/// and its lines that go on stored again, if a line names `mv`. Every other line is dropped.
pub(super) async fn planned_answer(
    tx: &mut Tx,
    m: &mut StoredMatch,
    (mover_seat, mv): (Seat, &Move),
    after: &Progress,
    (battle_id, ply): (i64, u32),
    now: DateTime<Utc>,
) -> Result<Option<Planned>> {
    let lines = tx.take_plans(m.id).await?;
    if lines.is_empty() || after.battle_result.is_some() {
        return Ok(None);
    }
    let planner_seat = mover_seat.other();
    let planner = m.player(planner_seat);
    let played = mv.to_string();
    let matching: Vec<PlanLine> = lines
        .into_iter()
        .filter(|(player, l)| {
            *player == planner
                && l.battle_id == battle_id
                && l.after_ply + 1 == ply
                && l.moves.first() == Some(&played)
        })
        .map(|(_, l)| l)
        .collect();
    let Some(answer) = matching.first().and_then(|l| l.moves.get(1)) else {
        return Ok(None);
    };
    // Checked when it was queued, in this very position; a line that no longer reads (the
    // notation changed between versions) is dropped like one that does not match.
    let Ok(text) = answer.parse::<MoveText>() else {
        return Ok(None);
    };
    let Ok((answer, progress)) = m.game.play(planner_seat, &text) else {
        return Ok(None);
    };
    if progress.battle_result.is_none() {
        for l in matching.iter().filter(|l| l.moves.len() > 2) {
            let rest = PlanLine {
                battle_id,
                after_ply: ply + 1,
                moves: l.moves[2..].to_vec(),
            };
            tx.add_plan_line(m.id, planner, &rest, now).await?;
        }
    }
    Ok(Some(Planned {
        mv: answer,
        progress,
        player: planner,
    }))
}

/// The moves of a typed line, the words between them left out.
fn line_words(line: &str) -> Vec<&str> {
    line.split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .filter(|w| !w.is_empty() && !FILLER.iter().any(|f| w.eq_ignore_ascii_case(f)))
        .collect()
}

/// The seat of `actor`, who may plan only while waiting for a person's move in a position
/// nobody is asked to end.
fn waiting_seat(m: &StoredMatch, actor: &Actor) -> Result<Seat> {
    let seat = seat_of(m, actor)?;
    if m.computer.is_some() {
        return refuse(Refusal::PlanAgainstComputer);
    }
    if m.game.seat_to_move() == Some(seat) {
        return refuse(Refusal::PlanOnYourTurn);
    }
    if m.proposal.is_some() {
        return refuse(Refusal::PlanWhileProposal);
    }
    Ok(seat)
}

/// The line's moves in their standard notation, each checked legal in turn from the position
/// of `game` (the opponent's first, then `seat`'s answer, …); only its last may end the battle.
fn checked_line(game: &Match, seat: Seat, words: &[&str]) -> Result<Vec<String>> {
    let mut game = game.clone();
    let mut moves = Vec::with_capacity(words.len());
    for (i, word) in words.iter().enumerate() {
        let ply = i + 1;
        let text = match word.parse::<MoveText>() {
            Ok(t) => t,
            Err(e) => {
                return refuse(Refusal::PlanUnreadable {
                    ply,
                    mv: echo(word),
                    why: e.to_string(),
                })
            }
        };
        let by = if i % 2 == 0 { seat.other() } else { seat };
        let (mv, progress) = match game.play(by, &text) {
            Ok(done) => done,
            Err(e) => {
                return refuse(Refusal::PlanIllegal {
                    ply,
                    mv: text.to_string(),
                    why: e.to_string(),
                })
            }
        };
        if progress.battle_result.is_some() && ply < words.len() {
            return refuse(Refusal::PlanPastBattleEnd {
                ply,
                mv: mv.to_string(),
            });
        }
        moves.push(mv.to_string());
    }
    Ok(moves)
}

/// Where `m` stands: its current battle and the moves played in it.
fn position_of(m: &StoredMatch) -> (i64, u32) {
    let battle = m.current_battle();
    (battle.id, battle.stamps.len() as u32)
}

/// The lines `player` queued for the position `m` stands in.
async fn standing_lines(tx: &mut Tx, m: &StoredMatch, player: UserId) -> Result<Vec<Vec<String>>> {
    let (battle_id, after_ply) = position_of(m);
    Ok(tx
        .plan_of(m.id, player)
        .await?
        .into_iter()
        .filter(|l| l.battle_id == battle_id && l.after_ply == after_ply)
        .map(|l| l.moves)
        .collect())
}

/// Where two lines answer the same move of the opponent differently: that move and the
/// answer `old` gives it.
fn conflict(old: &[String], new: &[String]) -> Option<(String, String)> {
    for (o, n) in old.chunks(2).zip(new.chunks(2)) {
        if o[0] != n[0] {
            return None;
        }
        if o.get(1) != n.get(1) {
            return Some((o[0].clone(), o.get(1).cloned().unwrap_or_default()));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(moves: &[&str]) -> Vec<String> {
        moves.iter().map(|m| m.to_string()).collect()
    }

    #[test]
    fn the_words_between_moves_are_left_out() {
        assert_eq!(
            line_words("if TG7-F6 then dF1-F5, TF6-F7 -> dF5-F6"),
            ["TG7-F6", "dF1-F5", "TF6-F7", "dF5-F6"]
        );
    }

    #[test]
    fn two_lines_conflict_only_where_they_answer_one_move_differently() {
        let old = line(&["TG7-F6", "dF1-F5", "TF6-F7", "dF5-F6"]);
        assert_eq!(
            conflict(&old, &line(&["TG7-F6", "dA5-B5"])),
            Some(("TG7-F6".into(), "dF1-F5".into()))
        );
        assert_eq!(
            conflict(&old, &line(&["TG7-F6", "dF1-F5", "TF6-E6", "dA5-B5"])),
            None
        );
        assert_eq!(
            conflict(&old, &line(&["TG7-F6", "dF1-F5", "TF6-F7", "dA5-B5"])),
            Some(("TF6-F7".into(), "dF5-F6".into()))
        );
        assert_eq!(conflict(&old, &line(&["TH9-H8", "dF1-F5"])), None);
    }
}
