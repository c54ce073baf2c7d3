//! Playing a move, as the MUD's verbs or as one notation string.

use super::{plans, Matches};
use crate::game::{parse_square_list, Move, MoveText, Square};
use crate::service::error::{refuse, Result};
use crate::service::events::Event;
use crate::service::flow::progress::{match_in_play, seat_of};
use crate::service::pictures::start_drawing;
use crate::service::pictures::{board_to_show, drawn_after_commit, next_battle_board};
use crate::service::refusal::Refusal;
use crate::service::{echo, names_in, Actor, Place};
use crate::service::{notices, Reply};
use crate::store::Settings;
use crate::store::{Conflict, ProposalAnswer, StoreError, StoredMatch, UserId};

/// The most characters a move's text may have.
const MAX_MOVE_TEXT: usize = 100;

/// The MUD's move verbs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verb {
    /// Any move; captures are named for a troll.
    Move,
    /// A dwarf hurled onto a troll.
    Hurl,
    /// A troll shoved along its line, capturing.
    Shove,
}

/// A move as a player asks for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveRequest {
    /// `dD4-G7xG7`, `TG7-F6xE5xF5`, …
    Notation(String),
    /// `move from:F1 to:F5`, `shove from:G7 to:G5 capture:F4,G4`.
    Verb {
        verb: Verb,
        from: String,
        to: String,
        /// Comma-separated squares; empty (or `none`) for no captures.
        captures: String,
    },
}

impl MoveRequest {
    /// The move text, or why it cannot be read.
    pub fn text(&self) -> Result<MoveText> {
        let inputs: Vec<&str> = match self {
            MoveRequest::Notation(s) => vec![s],
            MoveRequest::Verb {
                from, to, captures, ..
            } => vec![from, to, captures],
        };
        // The longest real move is a trample or a capture of eight squares; anything much
        // longer is not a move, and is not echoed back whole.
        if let Some(long) = inputs.iter().find(|s| s.chars().count() > MAX_MOVE_TEXT) {
            return refuse(Refusal::MoveTooLong { echo: echo(long) });
        }
        match self {
            MoveRequest::Notation(s) => match s.parse::<MoveText>() {
                Ok(t) => Ok(t),
                Err(e) => refuse(Refusal::UnreadableMove { why: e.to_string() }),
            },
            MoveRequest::Verb {
                from, to, captures, ..
            } => {
                let square = |what: &'static str, s: &str| -> Result<Square> {
                    s.parse::<Square>().or_else(|e| {
                        refuse(Refusal::UnreadableSquare {
                            which: what,
                            why: e.to_string(),
                        })
                    })
                };
                let from = square("from", from)?;
                let to = square("to", to)?;
                let captures = match captures.trim().to_ascii_lowercase().as_str() {
                    "" | "none" | "-" => Vec::new(),
                    _ => match parse_square_list(captures) {
                        Ok(list) => list,
                        Err(e) => {
                            return refuse(Refusal::UnreadableCaptures { why: e.to_string() })
                        }
                    },
                };
                Ok(MoveText::new(from, to, captures))
            }
        }
    }

    fn verb(&self) -> Option<Verb> {
        match self {
            MoveRequest::Notation(_) => None,
            MoveRequest::Verb { verb, .. } => Some(*verb),
        }
    }
}

/// Refuses a move that does not fit the verb used: the player meant something else.
fn check_verb(verb: Option<Verb>, mv: &Move) -> Result<()> {
    match (verb, mv) {
        (Some(Verb::Hurl), Move::Hurl { .. }) => Ok(()),
        (Some(Verb::Hurl), _) => refuse(Refusal::NotAHurl { mv: mv.to_string() }),
        (Some(Verb::Shove), Move::Troll { captures, .. }) if !captures.is_empty() => Ok(()),
        (Some(Verb::Shove), Move::Troll { .. }) => refuse(Refusal::ShoveWithoutCapture),
        (Some(Verb::Shove), _) => refuse(Refusal::NotAShove { mv: mv.to_string() }),
        _ => Ok(()),
    }
}

impl Matches {
    /// `actor` plays a move in this channel's match.
    pub async fn play(&self, place: Place, actor: &Actor, request: &MoveRequest) -> Result<Reply> {
        let text = request.text()?;
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        let mut m = match_in_play(&mut tx, place.channel).await?;
        let seat = seat_of(&m, actor)?;
        if m.game.seat_to_move() != Some(seat) {
            let other = m.player(seat.other());
            let names = names_in(&mut tx, &m).await?;
            return refuse(Refusal::NotYourTurn {
                to_move: names.of(other),
            });
        }
        let battle_row = m.current_battle().clone();
        let (mv, progress) = match m.game.play(seat, &text) {
            Ok(done) => done,
            Err(e) => {
                return refuse(Refusal::IllegalMove {
                    mv: text.to_string(),
                    why: e.to_string(),
                })
            }
        };
        check_verb(request.verb(), &mv)?;
        let ply = battle_row.stamps.len() as u32 + 1;
        // The other player's plan answers at once, in this transaction: the board drawn and
        // what is said are of both moves.
        let planned = plans::planned_answer(
            &mut tx,
            &mut m,
            (seat, &mv),
            &progress,
            (battle_row.id, ply),
            now,
        )
        .await?;
        let progress = planned.as_ref().map_or(progress, |p| p.progress.clone());
        tx.save_player(&actor.player(), now).await?;
        let names = names_in(&mut tx, &m).await?;
        // The picture depends only on the game after the move: draw it while the move is stored.
        let index = progress.battle as usize - 1;
        let mut drawings = vec![start_drawing(
            &self.renderer,
            board_to_show(&m, &names, index, &Settings::default()),
        )];
        drawings.extend(
            next_battle_board(&m, &names, &progress)
                .map(|board| start_drawing(&self.renderer, board)),
        );
        match tx.insert_move(battle_row.id, ply, &mv, actor.id, now).await {
            Ok(()) => {}
            Err(StoreError::Conflict(Conflict::TurnTaken)) => return refuse(Refusal::TurnTaken),
            Err(e) => return Err(e.into()),
        }
        let mut events = vec![moved(&m, index, actor.id, None, ply, &mv)];
        if let Some(answer) = &planned {
            tx.insert_move(battle_row.id, ply + 1, &answer.mv, answer.player, now)
                .await?;
            let answered = moved(&m, index, answer.player, None, ply + 1, &answer.mv);
            // Told as any move is; by direct message too when that is how the planner hears.
            let board = Some(notices::notify::current_board(&m));
            let both = [events[0].clone(), answered.clone()];
            notices::notify::tell(&mut tx, (m.guild, m.id), answer.player, &both, board, now)
                .await?;
            events.push(answered);
        }
        // A proposal stands only for the position it was made in: any move ends it, the
        // proposer's own included, so nobody agrees to a score they were not shown.
        if let Some(p) = m.proposal.take() {
            tx.answer_proposal(p.id, ProposalAnswer::Lapsed, now)
                .await?;
            events.push(Event::ProposalLapsed {
                proposer: p.proposer,
                mover: actor.id,
            });
        }
        let said = self
            .after_move(&mut tx, &m, &progress, battle_row.id, events)
            .await?;
        tx.commit().await?;
        self.wake_computer();
        self.outbox_signal.notify_waiters();
        Ok(said
            .told(names)
            .showing(drawn_after_commit(drawings).await)
            .worded())
    }
}

/// Move `mv`, ply `ply` of battle `index` (from 0) of `m`, played by `mover` (the computer
/// at `level`), with what it captured and the score after it.
pub(in crate::service) fn moved(
    m: &StoredMatch,
    index: usize,
    mover: UserId,
    level: Option<crate::computer::Level>,
    ply: u32,
    mv: &Move,
) -> Event {
    let battle = &m.game.battles()[index];
    let side = battle.start().side_to_move();
    let captured = mv.captured();
    Event::Moved {
        match_id: m.id,
        battle: index as u8 + 1,
        ply,
        mover,
        level: level.map(|l| l.number()),
        side: if ply % 2 == 1 { side } else { side.opposite() },
        notation: mv.to_string(),
        captured: if captured.is_empty() {
            String::new()
        } else {
            captured.to_string()
        },
        score: (!m.variant.wins_by_objective()).then(|| battle.score()),
    }
}
