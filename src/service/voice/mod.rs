//! The one voice: what the bot says about [`Event`]s, worded for its reader. The answer to a
//! command and a notice sent later from the outbox are worded here alike, so a sentence about
//! a move, a battle or a turn reads the same wherever it is read.

use chrono::{DateTime, Utc};

use crate::service::events::{Departure, Event, Occasion, TournamentEvent};
use crate::service::outcome::{Action, ButtonStyle, Reply};
use crate::service::text::Text;
use crate::service::Names;
use crate::store::{MatchId, SideChoice, UserId};

mod analysis;
mod board;
mod ladder;
mod people;
mod plans;
mod play;
mod records;
mod refusals;
mod rules;
mod standings;
mod tournament;

pub use analysis::progress_text;
pub(in crate::service) use analysis::{
    analysed_battle, analysis_heading, analysis_under_way, graph_title, mistake_line,
    mistakes_summary, scores_every_ten_plies,
};
pub(in crate::service) use board::{board_caption, games_list, no_games, no_match_yet};
pub(in crate::service) use ladder::{
    computer_figures, history, leaderboard, no_rated_matches, no_such_ladder_page, player_figures,
    PlayerFigures, VacationFigures,
};
pub(in crate::service) use people::{
    back_from_vacation, on_vacation, organisers_here, settings_said, stopped_unreachable,
};
pub use people::{boards_shown_as_text, file_not_attached};
pub(in crate::service) use plans::{plan, plan_dropped};
pub(in crate::service) use play::{
    battle_result_line, battle_status, caption, rating_words, resign_prompt, room_name,
};
pub(in crate::service) use records::{game_record, record_caption, replay_caption, replay_status};
pub use rules::rules_text;
#[cfg(test)]
pub(in crate::service) use standings::start_number;
pub(in crate::service) use standings::{
    announced_standings_title, entrant_name, standings_page, standings_table, standings_text,
};
pub(in crate::service) use tournament::{called_off_because, game_room_name};

/// Who reads what is said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::service) enum Reader {
    /// Everyone in the match's channel.
    Channel,
    /// One player, by direct message; `play_at` links to where the match is played (the
    /// move's message, or the channel).
    Dm { play_at: Option<(MatchId, String)> },
}

/// Says `events` to `reader`, one line each, in order, each followed by what `more` adds to
/// it (a tournament's standings after a round's end, loaded by `service::wording`).
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

pub(in crate::service) fn reply_with(
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
            } => reply = with_answers_to(reply, match_id, proposal),
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

/// `reply` with the answers to end proposal `proposal` of match `match_id`: every proposal, a
/// person's or the computer's, offers the same two.
fn with_answers_to(reply: Reply, match_id: MatchId, proposal: i64) -> Reply {
    reply
        .button(
            Action::AgreeEnd { match_id, proposal },
            "Agree",
            ButtonStyle::Success,
        )
        .button(
            Action::KeepPlaying { match_id, proposal },
            "Keep playing",
            ButtonStyle::Secondary,
        )
}

/// `reply`, announcing the end of match `id`, with a button to play it again and one to
/// look back at it with the engine.
pub(in crate::service) fn offer_rematch(reply: Reply, id: MatchId) -> Reply {
    reply
        .button(Action::Rematch(id), "Rematch", ButtonStyle::Primary)
        .button(Action::Analyse(id), "Analyse", ButtonStyle::Secondary)
}

/// The line saying `event`, or `None` for an event that says nothing.
fn line(event: &Event, names: &Names, reader: &Reader) -> Option<Text> {
    Some(match event {
        Event::MatchBegan { .. }
        | Event::Moved { .. }
        | Event::ProposalLapsed { .. }
        | Event::EndProposed { .. }
        | Event::NoAnswerYet { .. }
        | Event::EndDeclined { .. }
        | Event::EndAgreed { .. }
        | Event::BattleOver { .. }
        | Event::BattleBegan { .. }
        | Event::MatchOver { .. }
        | Event::Rated { .. } => return play::line(event, names, reader),
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
                // A colon, not parentheses: a title such as "Thud (original rules)" has its own.
                .plain(format!(
                    ": two battles, roles swapped; {sides}; {}. The challenge expires ",
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
            text.plain(". A match in which a player never moved is not rated and counts for neither player.")
        }
        Event::NotRated { late } => Text::from(format!(
            "Not rated: {} never made a move, and a match not played rates nobody. The result stands for the tournament.",
            names.of(*late)
        )),
        Event::DmsClosed { .. } => dms_closed_hint(),
        Event::Tournament(t) => tournament::line(t, names),
        Event::ThreadDone { .. }
        | Event::FieldChanged { .. }
        | Event::AnalysisChanged { .. }
        | Event::ThreadArchived { .. }
        | Event::RoomUnused { .. }
        | Event::RoomWanted { .. } => return None,
    })
}

/// Said once to a player whose direct messages Discord refused.
fn dms_closed_hint() -> Text {
    Text::from(
        "(I could not send you this as a direct message: Discord refused it. To get turn \
         notices by DM, allow direct messages from members of this server in its Privacy \
         Settings; or choose ",
    )
    .code("/thud settings notify:channel")
    .plain(".)")
}

/// What a direct message Discord refused said (`said`), told to `player` in the channel
/// instead, with the hint on opening their DMs the first time (`hint`).
pub(in crate::service) fn dm_said_in_channel(
    player: UserId,
    name: String,
    said: Text,
    hint: bool,
) -> Text {
    let text = Text::new().player(player, name).plain(": ").then(said);
    if hint {
        text.line().then(dms_closed_hint())
    } else {
        text
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
pub(in crate::service) fn play_here(play_at: &Option<(MatchId, String)>) -> Text {
    match play_at {
        Some((id, url)) => Text::new()
            .plain(" Play it in ")
            .link(format!("match #{id}'s channel"), url)
            .plain("."),
        None => Text::new(),
    }
}

/// Who the events are about, to read their names once.
pub(in crate::service) fn people(events: &[Event]) -> Vec<UserId> {
    let mut all: Vec<UserId> = events.iter().flat_map(Event::people).collect();
    all.sort();
    all.dedup();
    all
}

#[cfg(test)]
mod tests;
