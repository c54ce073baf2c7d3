//! What the bot says of a match's play: its opening, moves, proposals and agreements, the
//! end of a battle and of the match, and the ratings after it.

use crate::computer::{PROPOSAL_DEPTH, STALLED_PLIES};
use crate::game::{BattleEnd, BattleResult, MatchResult, Seat, Side, Variant};
use crate::render::Caption;
use crate::service::events::{Event, Occasion, ShownRating};
use crate::service::outcome::{Action, ButtonStyle, Reply};
use crate::service::text::Text;
use crate::service::Names;
use crate::store::{MatchId, MatchState, StoredMatch};

use super::{level_title, per_move, Reader};

/// The line saying `event`, for the events of play; `None` for the others (said in
/// [`super::line`]).
pub(super) fn line(event: &Event, names: &Names, reader: &Reader) -> Option<Text> {
    let dm = matches!(reader, Reader::Dm { .. });
    Some(match event {
        Event::MatchBegan {
            match_id,
            variant,
            trolls,
            rated,
            ..
        } if dm => Text::new()
            .strong(format!("Match #{match_id}"))
            .plain(" of ")
            .strong(variant.title())
            .plain(format!(
                " begins; you command the dwarfs in battle 1 against {}.",
                names.of(*trolls)
            ))
            .plain(if *rated { "" } else { " It is not rated." }),
        Event::MatchBegan {
            match_id,
            variant,
            dwarfs,
            trolls,
            rated,
            occasion,
        } => {
            let opening = Text::new()
                .strong(format!("Match #{match_id}"))
                .plain(" of ")
                .strong(variant.title())
                .plain(format!(
                    " begins: two battles, roles swapped after the first{}.",
                    if *rated { "" } else { "; not rated" }
                ))
                .line()
                .strong("Battle 1")
                .plain(": ")
                .strong(names.of(*dwarfs))
                .plain(" commands the dwarfs, ")
                .strong(names.of(*trolls))
                .plain(" the trolls. Dwarfs move first.");
            // A tournament game is seated by the clock: both players are named (and pinged,
            // which adds them to the game's thread), not only the first to move.
            let intro = match occasion {
                Occasion::Tournament { name, round } => Some(
                    Text::from(format!("{name}, round {round}: "))
                        .player(*dwarfs, names.of(*dwarfs))
                        .plain(" against ")
                        .player(*trolls, names.of(*trolls))
                        .plain(", this thread is your game."),
                ),
                other => occasion_line(other, names),
            };
            match intro {
                Some(intro) => intro.line().then(opening),
                None => opening,
            }
        }
        Event::Moved {
            mover,
            level,
            side,
            notation,
            captured,
            score,
            ..
        } => {
            // "alice (dwarfs)", and for the computer "thudbot (level 3, trolls)".
            let about = match level {
                Some(level) => format!("level {level}, {side}"),
                None => side.to_string(),
            };
            let mut said = Text::new()
                .strong(names.of(*mover))
                .plain(format!(" ({about}) plays "))
                .code(notation);
            if !captured.is_empty() {
                said.push_str(&format!(", capturing {captured}"));
            }
            said.push_str(".");
            if let Some(score) = score {
                said.push_str(&format!(
                    " Dwarfs {} · Trolls {}.",
                    score.dwarfs, score.trolls
                ));
            }
            said
        }
        Event::ProposalLapsed { proposer, mover } if proposer == mover => Text::from(format!(
            "{}'s proposal to end the battle is withdrawn: they moved, and a proposal stands only for the position it was made in.",
            names.of(*proposer)
        )),
        Event::ProposalLapsed { proposer, mover } => Text::from(format!(
            "{}'s proposal to end the battle lapses: {} moved instead.",
            names.of(*proposer),
            names.of(*mover)
        )),
        // What the computer judged, and no more: its look ahead is short (`computer::assess`).
        Event::EndProposed {
            battle,
            by,
            score,
            by_computer: true,
            ..
        } => Text::new()
            .strong(names.of(*by))
            .plain(match score {
                Some(_) => format!(
                    " proposes ending battle {battle} now: nothing has been captured in the last \
                     {STALLED_PLIES} moves, no capture is open to either side in the next two, and \
                     looking {PROPOSAL_DEPTH} moves ahead it finds no points either side can win. \
                     Agree with "
                ),
                None => format!(
                    " proposes ending battle {battle} now: no capture or Rock move is open to \
                     either side in the next two moves, and looking {} moves ahead it sees \
                     neither side winning. Agree with ",
                    PROPOSAL_DEPTH - 1
                ),
            })
            .code("/thud end action:agree")
            .plain(", or move to play on."),
        Event::EndProposed {
            battle,
            by,
            to,
            score,
            to_computer,
            ..
        } => {
            let mut text = match to_computer {
                true => Text::new(),
                false => Text::new().player(*to, names.of(*to)).plain(", "),
            }
            .strong(names.of(*by))
            .plain(format!(" proposes ending battle {battle} now."));
            match score {
                Some(score) => {
                    let standing = match score.leader() {
                        Some((side, by)) => format!("the {side} lead by {by}"),
                        None => "level".to_string(),
                    };
                    text.push_str(&format!(
                        " The score would stand: Dwarfs {} · Trolls {} ({standing}).",
                        score.dwarfs, score.trolls
                    ));
                }
                None => text.push_str(" An agreed Koom Valley battle is a draw."),
            }
            if !to_computer {
                text.push_str(" Moving instead lets the proposal lapse.");
            }
            text
        }
        Event::NoAnswerYet { player } => {
            Text::from(format!("{} has not answered yet.", names.of(*player)))
        }
        Event::EndDeclined { by, battle, reason } => {
            let mut text = Text::new()
                .strong(names.of(*by))
                .plain(format!(" wants to keep playing; battle {battle} goes on."));
            if let Some(reason) = reason {
                text.push_str(&format!(" “{reason}”"));
            }
            text
        }
        Event::EndAgreed {
            battle,
            by,
            with,
            score,
            crossed,
        } => {
            let at = match score {
                Some(score) => format!(" at Dwarfs {} · Trolls {}", score.dwarfs, score.trolls),
                None => String::new(),
            };
            let how = if *crossed {
                format!(
                    " proposed ending battle {battle} while {}'s proposal stood: that is agreeing, so battle {battle} ends{at}.",
                    names.of(*with)
                )
            } else {
                format!(" agrees with {} to end battle {battle}{at}.", names.of(*with))
            };
            Text::new().strong(names.of(*by)).plain(how)
        }
        Event::BattleOver {
            battle,
            variant,
            winner,
            result,
        } => battle_over(*variant, *battle, winner.map(|w| names.of(w)), result),
        Event::BattleBegan {
            battle,
            dwarfs,
            trolls,
        } => Text::new()
            .strong(format!("Battle {battle}"))
            .plain(" begins with the roles swapped: ")
            .strong(names.of(*dwarfs))
            .plain(" commands the dwarfs, ")
            .strong(names.of(*trolls))
            .plain(" the trolls."),
        Event::MatchOver {
            players, result, ..
        } => match_over(names.of(players[0]), names.of(players[1]), result),
        Event::Rated { changes } => {
            let each: Vec<String> = changes
                .iter()
                .map(|c| {
                    format!(
                        "{} {} → {}",
                        names.of(c.player),
                        rating_words(c.before),
                        rating_words(c.after)
                    )
                })
                .collect();
            Text::from(format!("Ratings on this server: {}.", each.join(" · ")))
        }
        _ => return None,
    })
}

/// What brought a match about, said before its opening, if anything.
fn occasion_line(occasion: &Occasion, names: &Names) -> Option<Text> {
    match occasion {
        Occasion::Challenge => None,
        Occasion::Computer {
            player,
            computer,
            level,
            days_per_move,
        } => Some(
            Text::new()
                .strong(names.of(*player))
                .plain(" plays ")
                .strong(names.of(*computer))
                .plain(format!(
                    " at level {level} ({}; {} for {}, the computer answers at once).",
                    level_title(*level),
                    per_move(*days_per_move),
                    names.of(*player)
                )),
        ),
        Occasion::Tournament { name, round } => Some(Text::from(format!("{name}, round {round}."))),
    }
}

/// A rating as a player sees it: `1516`, or `1500?` while provisional.
pub(in crate::service) fn rating_words(r: ShownRating) -> String {
    let mark = if r.provisional { "?" } else { "" };
    format!("{:.0}{mark}", r.rating)
}

fn side_title(side: Side) -> &'static str {
    match side {
        Side::Dwarfs => "Dwarfs",
        Side::Trolls => "Trolls",
    }
}

/// "Trolls win battle 1 by 8", "Battle 2 drawn".
pub(in crate::service) fn battle_result_line(
    variant: Variant,
    number: u8,
    result: &BattleResult,
) -> String {
    match result.winner {
        Some(side) if variant.wins_by_objective() => {
            format!("{} win battle {number}", side_title(side))
        }
        Some(side) => format!(
            "{} win battle {number} by {}",
            side_title(side),
            result.margin
        ),
        None => format!("Battle {number} drawn"),
    }
}

/// The announcement of a finished battle; `winner` names the winning side's commander.
fn battle_over(
    variant: Variant,
    number: u8,
    winner: Option<String>,
    result: &BattleResult,
) -> Text {
    let why = match result.end {
        BattleEnd::Agreement => "both players agreed to end it".to_string(),
        // No pieces left is said as what it is, not as a side stuck without a move.
        BattleEnd::NoLegalMove { side: Side::Dwarfs } if result.score.dwarfs == 0 => {
            "every dwarf has been captured".to_string()
        }
        BattleEnd::NoLegalMove { side: Side::Trolls } if result.score.trolls == 0 => {
            "every troll has been captured".to_string()
        }
        BattleEnd::NoLegalMove { side } => format!("the {side} have no legal move"),
        BattleEnd::Objective {
            winner: Side::Trolls,
        } => "three trolls stand around the Rock".to_string(),
        BattleEnd::Objective {
            winner: Side::Dwarfs,
        } => "the dwarfs brought the Rock to the far side of the valley".to_string(),
    };
    let verdict = match (result.winner, winner) {
        (Some(side), Some(winner)) => {
            let by = if variant.wins_by_objective() {
                String::new()
            } else {
                format!(" by {}", result.margin)
            };
            Text::new()
                .strong(winner)
                .plain(format!(" ({side}) wins battle {number}{by}."))
        }
        _ => Text::from(format!("Battle {number} is drawn.")),
    };
    let score = if variant.wins_by_objective() {
        String::new()
    } else {
        format!(
            " Dwarfs {} · Trolls {}.",
            result.score.dwarfs, result.score.trolls
        )
    };
    Text::new()
        .strong(format!("Battle {number} is over"))
        .plain(format!(": {why}.{score} "))
        .then(verdict)
}

/// The announcement of a finished match between `first` and `second` (its seats).
fn match_over(first: String, second: String, result: &MatchResult) -> Text {
    let per_battle: Vec<String> = result
        .battles
        .iter()
        .enumerate()
        .map(|(i, points)| {
            format!(
                "battle {}: {first} {} – {second} {}",
                i + 1,
                points[0],
                points[1]
            )
        })
        .collect();
    let name = |seat: Seat| match seat {
        Seat::First => first.clone(),
        Seat::Second => second.clone(),
    };
    let verdict = match (result.winner, result.forfeited_by) {
        (Some(w), Some(_)) if per_battle.is_empty() => Text::new()
            .strong(name(w))
            .plain(" wins the match by forfeit."),
        // The points of the battles finished stand in the record, but do not decide.
        (Some(w), Some(_)) => Text::new()
            .strong(name(w))
            .plain(" wins the match by forfeit, whatever the points."),
        (Some(w), None) => Text::new()
            .strong(name(w))
            .plain(format!(" wins the match by {}.", result.margin)),
        (None, _) => Text::from("The match is drawn."),
    };
    if per_battle.is_empty() {
        return Text::new().strong("Match over.").plain(" ").then(verdict);
    }
    let totals = format!(
        "{first} {} – {second} {}",
        result.total(Seat::First),
        result.total(Seat::Second)
    );
    if result.forfeited_by.is_some() {
        return Text::new()
            .strong("Match over")
            .plain(format!(
                " (finished before the forfeit: {}). ",
                per_battle.join("; ")
            ))
            .then(verdict);
    }
    Text::new()
        .strong("Match over")
        .plain(format!(" ({}). Total: {totals}. ", per_battle.join("; ")))
        .then(verdict)
}

/// The caption of battle `number` of `m` under a picture of it: the match, the battle, its
/// commanders and `status` (whose move, or how it ended); `over` when nobody is to move.
pub(in crate::service) fn caption(
    m: &StoredMatch,
    names: &Names,
    number: u8,
    status: String,
    over: bool,
) -> Caption {
    Caption {
        title: format!(
            "Match #{} · Battle {number} of 2 · {}",
            m.id,
            m.variant.title()
        ),
        dwarfs: names.of(m.player(Seat::commanding(Side::Dwarfs, number))),
        trolls: names.of(m.player(Seat::commanding(Side::Trolls, number))),
        status,
        over,
    }
}

/// One line on where battle `index` (from 0) stands: whose move, or how it ended.
pub(in crate::service) fn battle_status(m: &StoredMatch, names: &Names, index: usize) -> String {
    let battle = &m.game.battles()[index];
    let number = index as u8 + 1;
    if let Some(result) = battle.result() {
        return battle_result_line(m.variant, number, &result);
    }
    match m.state {
        MatchState::Aborted => "Match aborted".to_string(),
        MatchState::Finished => "Match over".to_string(),
        MatchState::Active => match battle.side_to_move() {
            Some(side) => format!(
                "{} to move ({})",
                names.of(m.player(Seat::commanding(side, number))),
                side
            ),
            None => "Battle over".to_string(),
        },
    }
}

/// Asks a player to confirm resigning match `match_id`; `moved` when they have made a move in
/// it (else resigning aborts it).
pub(in crate::service) fn resign_prompt(match_id: MatchId, moved: bool) -> Reply {
    let what = if moved {
        "Resigning forfeits the whole match (both battles) to your opponent, and counts as a loss. Are you sure?"
    } else {
        "You have not made a move in this match yet: resigning now aborts it, unrated, and it counts for neither player (in a tournament your opponent wins the game, still unrated). Are you sure?"
    };
    Reply::private(what).button(
        Action::ConfirmResign(match_id),
        "Confirm resignation",
        ButtonStyle::Danger,
    )
}

/// The name of a match's room, as the channel list shows it (Discord allows 100 characters).
pub(in crate::service) fn room_name(first: &str, second: &str) -> String {
    format!("Thud: {first} vs {second}")
        .chars()
        .take(100)
        .collect()
}
