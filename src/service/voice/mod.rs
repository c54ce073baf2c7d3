//! The one voice: what the bot says about [`Event`]s, worded for its reader. The answer to a
//! command and a notice sent later from the outbox are worded here alike, so a sentence about
//! a move, a battle or a turn reads the same wherever it is read.

use chrono::{DateTime, Utc};

use crate::game::{BattleEnd, BattleResult, MatchResult, Seat, Side, Variant};
use crate::service::events::{Departure, Event, Occasion, ShownRating, TournamentEvent};
use crate::service::outcome::{offer_rematch, Action, ButtonStyle, Reply};
use crate::service::text::Text;
use crate::service::Names;
use crate::store::{MatchId, SideChoice, UserId};

mod context;
mod tournament;

/// Who reads what is said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::service) enum Reader {
    /// Everyone in the match's channel.
    Channel,
    /// One player, by direct message; `play_at` links to where the match is played (the
    /// move's message, or the channel).
    Dm { play_at: Option<(MatchId, String)> },
}

/// Says `events` to `reader`, one line each, in order, each followed by what `more` adds to it (a tournament's standings after a
/// round's end, read from the store by [`context`]).
fn say_with(
    events: &[Event],
    names: &Names,
    reader: &Reader,
    more: &dyn Fn(&Event) -> Option<Text>,
) -> Text {
    Text::lines(events.iter().filter_map(|e| {
        let said = line(e, names, reader)?;
        Some(match more(e) {
            Some(more) => said.line().then(more),
            None => said,
        })
    }))
}

/// `events` said in a channel message, with the buttons that answer them (an end proposal's
/// Agree / Keep playing, a finished match's Rematch / Analyse). Pings no one: who is pinged is
/// the caller's decision.
pub(in crate::service) fn reply(events: &[Event], names: &Names, reader: &Reader) -> Reply {
    reply_with(events, names, reader, &|_| None)
}

fn reply_with(
    events: &[Event],
    names: &Names,
    reader: &Reader,
    more: &dyn Fn(&Event) -> Option<Text>,
) -> Reply {
    let mut reply = Reply::public(say_with(events, names, reader, more));
    for event in events {
        match *event {
            // Answered by buttons, unless the computer answered at once.
            Event::EndProposed {
                match_id,
                proposal,
                to_computer: false,
                ..
            } => reply = reply.with_answers_to(match_id, proposal),
            Event::MatchOver { match_id, .. } => reply = offer_rematch(reply, match_id),
            Event::Tournament(TournamentEvent::Created { id, .. }) => {
                reply = reply.button(Action::JoinTournament(id), "Join", ButtonStyle::Success)
            }
            Event::Challenged { challenge, .. } => {
                reply = reply
                    .button(Action::Accept(challenge), "Accept", ButtonStyle::Success)
                    .button(Action::Decline(challenge), "Decline", ButtonStyle::Danger)
                    .button(Action::Cancel(challenge), "Cancel", ButtonStyle::Secondary)
            }
            _ => {}
        }
    }
    reply.events = events.to_vec();
    reply
}

/// The line saying `event`, or `None` for an event that says nothing.
fn line(event: &Event, names: &Names, reader: &Reader) -> Option<Text> {
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
            match occasion_line(occasion, names) {
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
        Event::ProposalLapsed { proposer, mover } => Text::from(format!(
            "{}'s proposal to end the battle lapses: {} moved instead.",
            names.of(*proposer),
            names.of(*mover)
        )),
        Event::EndProposed {
            battle,
            by,
            by_computer: true,
            ..
        } => Text::new()
            .strong(names.of(*by))
            .plain(format!(
                " proposes ending battle {battle} now: neither side can gain any more. Agree with "
            ))
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
        Event::EndAgreed { battle, by, with } => Text::new().strong(names.of(*by)).plain(format!(
            " agrees with {} to end battle {battle}.",
            names.of(*with)
        )),
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
        Event::TurnStarted {
            match_id,
            variant,
            player,
            side,
            deadline,
        } => match reader {
            Reader::Dm { play_at } => deadline_words(
                Text::from(format!(
                    "It is your move in match #{match_id} ({}). Deadline ",
                    variant.title()
                )),
                *deadline,
            )
            .plain(".")
            .then(play_here(play_at)),
            Reader::Channel => deadline_words(
                Text::new()
                    .player(*player, names.of(*player))
                    .plain(format!(", your move ({side}). Deadline ")),
                *deadline,
            )
            .plain("."),
        },
        Event::ComputerThinking { player, side } => Text::new()
            .strong(names.of(*player))
            .plain(format!(" ({side}) is thinking.")),
        Event::ReminderDue {
            match_id,
            player,
            deadline,
            half_time,
            ..
        } => {
            let left = if *half_time {
                "half of your time for it has passed"
            } else {
                "less than a day is left"
            };
            let opening = match reader {
                Reader::Dm { .. } => Text::from("A"),
                Reader::Channel => Text::new().player(*player, names.of(*player)).plain(", a"),
            };
            let said = deadline_words(
                opening.plain(format!(
                    " reminder: it is your move in match #{match_id}, and {left}. The deadline is "
                )),
                *deadline,
            )
            .plain("; after it your opponent may claim the match.");
            match reader {
                Reader::Dm { play_at } => said.then(play_here(play_at)),
                Reader::Channel => said,
            }
        }
        Event::Challenged {
            challenge,
            challenger,
            opponent,
            variant,
            side,
            days_per_move,
            rated,
            expires_at,
        } => {
            let sides = match side {
                SideChoice::Dwarfs => {
                    format!("{} commands the dwarfs in battle 1", names.of(*challenger))
                }
                SideChoice::Trolls => {
                    format!("{} commands the trolls in battle 1", names.of(*challenger))
                }
                SideChoice::Random => "sides for battle 1 are drawn by lot".to_string(),
            };
            // The number shows, so a player with several challenges can say which they answer.
            Text::new()
                .strong(format!("Challenge #{challenge}"))
                .plain(": ")
                .player(*opponent, names.of(*opponent))
                .plain(", ")
                .strong(names.of(*challenger))
                .plain(format!(
                    " challenges you to a {}match of ",
                    if *rated { "" } else { "friendly (unrated) " }
                ))
                .strong(variant.title())
                .plain(format!(
                    " (two battles, roles swapped; {sides}; {}). The challenge expires ",
                    per_move(*days_per_move)
                ))
                .relative(*expires_at)
                .plain(".")
        }
        Event::ChallengeDeclined {
            challenger,
            opponent,
        } => Text::new()
            .strong(names.of(*opponent))
            .plain(format!(" declines {}'s challenge.", names.of(*challenger))),
        Event::ChallengeWithdrawn {
            challenger,
            opponent,
        } => Text::new().strong(names.of(*challenger)).plain(format!(
            " withdraws the challenge to {}.",
            names.of(*opponent)
        )),
        Event::ChallengeExpired {
            challenger,
            opponent,
        } => Text::from(format!(
            "{}'s challenge to {} has expired.",
            names.of(*challenger),
            names.of(*opponent)
        )),
        Event::ThreadClosedAgain {
            match_id,
            thread,
            players: [first, second],
        } => Text::new()
            .strong(format!("Match #{match_id}"))
            .plain(" is paused: a moderator closed its thread ")
            .channel(*thread)
            .plain(" again after the bot had reopened it. ")
            .player(*first, names.of(*first))
            .plain(" and ")
            .player(*second, names.of(*second))
            .plain(": either of you can carry it on here from ")
            .code("/thud games")
            .plain(" (its clock stands still meanwhile)."),
        Event::Resumed {
            match_id,
            by,
            channel,
            to_move,
        } => {
            let text = Text::new()
                .strong(names.of(*by))
                .plain(format!(" resumes match #{match_id} in "))
                .channel(*channel)
                .plain(".");
            match to_move {
                Some((player, deadline)) => deadline_words(
                    text.plain(" The clock runs again: ")
                        .player(*player, names.of(*player))
                        .plain(", your move. Deadline "),
                    *deadline,
                )
                .plain("."),
                None => text,
            }
        }
        Event::PlayedElsewhere {
            channel,
            accepted_by,
            occasion,
            ..
        } => {
            let opening = match (accepted_by, occasion) {
                (Some(by), _) => Text::new()
                    .strong(names.of(*by))
                    .plain(" accepted the challenge. "),
                (
                    None,
                    Occasion::Computer {
                        player,
                        computer,
                        level,
                        ..
                    },
                ) => Text::new()
                    .strong(names.of(*player))
                    .plain(" plays ")
                    .strong(names.of(*computer))
                    .plain(format!(" at level {level}. ")),
                (None, _) => Text::new(),
            };
            opening
                .plain("The match is played in ")
                .channel(*channel)
                .plain(".")
        }
        Event::Away { player, until } => deadline_words(
            Text::new()
                .strong(names.of(*player))
                .plain(" is on vacation until "),
            *until,
        )
        .plain(": their clocks stand still, and their deadlines move on by the time away."),
        Event::Back { player } => Text::new()
            .strong(names.of(*player))
            .plain(" is back from vacation: their clocks run again."),
        Event::Resigned { player } => Text::new().strong(names.of(*player)).plain(" resigns."),
        Event::Claimed { by, late, deadline } => Text::new()
            .strong(names.of(*by))
            .plain(format!(
                " claims the match: {} missed the deadline of ",
                names.of(*late)
            ))
            .time(*deadline)
            .plain("."),
        Event::DeadlineMissed {
            player,
            deadline,
            round_over,
        } => Text::from(format!(
            "{}{} missed the deadline of ",
            if *round_over {
                "The round's deadline has come and "
            } else {
                ""
            },
            names.of(*player)
        ))
        .time(*deadline)
        .plain("; the match is forfeited."),
        Event::LeftTournament { player, departure } => Text::from(format!(
            "{} {}.",
            names.of(*player),
            match departure {
                Departure::Withdrew => "withdrew from the tournament",
                Departure::Left => "is no longer a member of this server, so left the tournament",
                Departure::Banned => "was banned from this server, so left the tournament",
            }
        )),
        Event::Aborted { match_id, by } => {
            Text::new()
                .strong(format!("Match #{match_id}"))
                .plain(format!(
                    " was aborted by {}. It is recorded but not rated.",
                    names.of(*by)
                ))
        }
        Event::NeverPlayed {
            match_id,
            late,
            deadline,
        } => {
            let mut text = Text::new()
                .strong(format!("Match #{match_id}"))
                .plain(format!(
                    " is aborted: {} never made a move",
                    names.of(*late)
                ));
            if let Some(deadline) = deadline {
                text = text.plain(" and missed the deadline of ").time(*deadline);
            }
            text.plain(". A match nobody played is not rated and counts for neither player.")
        }
        Event::DmsClosed { .. } => dms_closed_hint(),
        Event::Tournament(t) => tournament::line(t, names),
        Event::ThreadDone { .. } => return None,
    })
}

/// Said once to a player whose direct messages Discord refused.
pub(in crate::service) fn dms_closed_hint() -> Text {
    Text::from(
        "(I could not send you this as a direct message: Discord refused it. To get turn \
         notices by DM, allow direct messages from members of this server in its Privacy \
         Settings; or choose ",
    )
    .code("/thud settings notify:channel")
    .plain(".)")
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

/// "1 day per move", "3 days per move".
pub(in crate::service) fn per_move(days: u32) -> String {
    format!("{days} {} per move", if days == 1 { "day" } else { "days" })
}

/// How each level plays, in a few words for the player.
pub fn level_title(level: u8) -> &'static str {
    match level {
        1 => "a beginner",
        2 => "a casual player",
        3 => "a club player",
        4 => "a strong player",
        _ => "its strongest",
    }
}

/// `text` followed by `deadline` as a date and as a time from now: "… (in 3 days)".
fn deadline_words(text: Text, deadline: DateTime<Utc>) -> Text {
    text.time(deadline)
        .plain(" (")
        .relative(deadline)
        .plain(")")
}

/// " Play it in match #N's channel." with its link, for a direct message.
fn play_here(play_at: &Option<(MatchId, String)>) -> Text {
    match play_at {
        Some((id, url)) => Text::new()
            .plain(" Play it in ")
            .link(format!("match #{id}'s channel"), url)
            .plain("."),
        None => Text::new(),
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
        (Some(w), Some(_)) => Text::new()
            .strong(name(w))
            .plain(" wins the match by forfeit."),
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
    Text::new()
        .strong("Match over")
        .plain(format!(" ({}). Total: {totals}. ", per_battle.join("; ")))
        .then(verdict)
}

/// Who the events are about, to read their names once.
pub(in crate::service) fn people(events: &[Event]) -> Vec<UserId> {
    let mut all: Vec<UserId> = events.iter().flat_map(Event::people).collect();
    all.sort();
    all.dedup();
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Variant;
    use crate::service::events::TournamentEvent;
    use chrono::TimeZone;

    fn names() -> Names {
        Names([(UserId(1), "alice".into()), (UserId(2), "bob".into())].into())
    }

    fn words(event: Event, reader: &Reader) -> String {
        say_with(&[event], &names(), reader, &|_| None).to_string()
    }

    #[test]
    fn a_turn_is_said_to_the_channel_with_the_player_and_to_a_dm_with_a_link() {
        let deadline = Utc.with_ymd_and_hms(2026, 12, 1, 12, 0, 0).unwrap();
        let turn = Event::TurnStarted {
            match_id: MatchId(3),
            variant: Variant::Classic,
            player: UserId(2),
            side: Side::Trolls,
            deadline,
        };
        let in_channel = say_with(
            std::slice::from_ref(&turn),
            &names(),
            &Reader::Channel,
            &|_| None,
        );
        assert!(matches!(
            in_channel.spans().first(),
            Some(crate::service::text::Span::Player {
                user: UserId(2),
                ..
            })
        ));
        assert!(in_channel.contains(", your move (trolls). Deadline"));
        let dm = Reader::Dm {
            play_at: Some((MatchId(3), "https://discord.com/channels/1/2/3".into())),
        };
        let by_dm = words(turn, &dm);
        assert!(
            by_dm.starts_with("It is your move in match #3 (Classic Thud). Deadline"),
            "{by_dm}"
        );
        assert!(
            by_dm.ends_with("Play it in match #3's channel (https://discord.com/channels/1/2/3)."),
            "{by_dm}"
        );
    }

    #[test]
    fn counts_are_said_in_the_singular_for_one() {
        let joined = |players| {
            Event::Tournament(TournamentEvent::Joined {
                name: "Cup".into(),
                player: UserId(1),
                players,
            })
        };
        assert_eq!(
            words(joined(1), &Reader::Channel),
            "alice joins Cup (1 player)."
        );
        assert_eq!(
            words(joined(2), &Reader::Channel),
            "alice joins Cup (2 players)."
        );
    }

    #[test]
    fn a_thread_to_close_says_nothing_and_ratings_show_provisional_ones() {
        let done = Event::ThreadDone {
            match_id: MatchId(1),
        };
        assert_eq!(words(done, &Reader::Channel), "");
        let rated = Event::Rated {
            changes: vec![crate::service::events::RatingChange {
                player: UserId(1),
                before: ShownRating {
                    rating: 1500.0,
                    provisional: true,
                },
                after: ShownRating {
                    rating: 1662.4,
                    provisional: false,
                },
            }],
        };
        assert_eq!(
            words(rated, &Reader::Channel),
            "Ratings on this server: alice 1500? → 1662."
        );
    }
}
