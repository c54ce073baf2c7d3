//! What the bot says of a tournament's events.

use chrono::Duration;

use crate::service::events::{Departure, EarlyEnd, Paired, TournamentEvent};
use crate::service::text::{count, duration_words, Text};
use crate::service::Names;
use crate::tournament::FormatError;

/// The line saying `event`.
pub(super) fn line(event: &TournamentEvent, names: &Names) -> Text {
    match event {
        TournamentEvent::Created {
            id,
            name,
            format,
            variant,
            days_per_move,
            round_days,
            starts_at,
        } => {
            let start = match starts_at {
                Some(at) => Text::new().plain("It starts ").time(*at).plain("."),
                None => Text::from("The organiser starts it."),
            };
            Text::new()
                .strong(format!("Tournament #{id}: {name}"))
                .plain(format!(
                    " ({format}, {}, {} a move, {round_days} days a round). Join with the button or ",
                    variant.title(),
                    count(*days_per_move, "day", "days"),
                ))
                .code("/thud tournament join")
                .plain(". ")
                .then(start)
        }
        TournamentEvent::Joined {
            name,
            player,
            players,
        } => Text::new().strong(names.of(*player)).plain(format!(
            " joins {name} ({}).",
            count(*players, "player", "players")
        )),
        TournamentEvent::LeftBeforeStart {
            name,
            player,
            players,
        } => Text::new().strong(names.of(*player)).plain(format!(
            " leaves {name} ({}).",
            count(*players, "player", "players")
        )),
        TournamentEvent::Started {
            name,
            by,
            players,
            rounds,
        } => Text::new().strong(names.of(*by)).plain(format!(
            " starts {name} with {players} players, {rounds} rounds."
        )),
        TournamentEvent::CalledOff { name, why } => {
            let why = match why {
                FormatError::TooFewPlayers(joined) => format!("only {joined} joined"),
                other => other.to_string(),
            };
            Text::new()
                .strong(format!("{name} is called off"))
                .plain(format!(": {why}."))
        }
        TournamentEvent::RoundPaired {
            name,
            round,
            deadline,
            games,
        } => {
            let mut text = Text::new()
                .strong(format!("Round {round} of {name}"))
                .plain(" is paired; each match gets a thread of its own. Deadline ")
                .time(*deadline)
                .plain(".");
            for game in games {
                let said = match *game {
                    Paired::Match {
                        first,
                        second,
                        forfeited,
                    } => format!(
                        "{} – {}{}",
                        names.of(first),
                        names.of(second),
                        if forfeited { " (won by forfeit)" } else { "" }
                    ),
                    Paired::Bye { player, scored } => format!(
                        "{}: a bye{}",
                        names.of(player),
                        if scored { ", scored as a win" } else { "" }
                    ),
                };
                text = text.line().plain(said);
            }
            text
        }
        TournamentEvent::RoundDeadlineMoved {
            name,
            round,
            extension_seconds,
            players,
            to,
        } => {
            let who: Vec<String> = players.iter().map(|p| names.of(*p)).collect();
            Text::new()
                .strong(format!("Round {round} of {name}"))
                .plain(format!(
                    ": its deadline moves on by {}, the vacation {} took during the round, to ",
                    duration_words(Duration::seconds(*extension_seconds)),
                    who.join(" and ")
                ))
                .time(*to)
                .plain(".")
        }
        TournamentEvent::RoundDeadlineReached { name, round } => {
            Text::from(format!("Round {round} of {name} reached its deadline."))
        }
        TournamentEvent::RoundOver { name, round, .. } => {
            Text::new().strong(format!("Round {round} of {name} is over."))
        }
        TournamentEvent::Over {
            name,
            round,
            early,
            leaders,
            ..
        } => {
            let ended = match early {
                Some(why) => format!(
                    " is over after round {round} ({}).",
                    match why {
                        EarlyEnd::FewerThanTwoLeft => "fewer than two players are left",
                        EarlyEnd::NoPairingWithoutRematch =>
                            "no round can be paired without a rematch",
                    }
                ),
                None => " is over.".to_string(),
            };
            let leaders: Vec<String> = leaders.iter().map(|p| names.of(*p)).collect();
            let verdict = match leaders.as_slice() {
                [] => "Nobody scored.".to_string(),
                [one] => format!("{one} wins it."),
                many => format!("{} share first place.", many.join(", ")),
            };
            Text::new()
                .strong(format!("{name}{ended}"))
                .plain(format!(" {verdict}"))
        }
        TournamentEvent::Left {
            name,
            player,
            departure,
        } => Text::new().strong(names.of(*player)).plain(format!(
            " {} {name}; their matches in it are forfeited.",
            departure_announced(*departure)
        )),
        TournamentEvent::GameStopped { name, round } => Text::from(format!(
            "Round {round} of {name} reached its deadline with this match unfinished; it is \
             stopped, unrated, and counts as drawn in the tournament."
        )),
        TournamentEvent::GameCancelled { name } => Text::from(format!(
            "The tournament {name} was cancelled; this match is stopped, unrated."
        )),
        TournamentEvent::Cancelled { name, by, stopped } => {
            let matches = match stopped {
                0 => String::new(),
                1 => " Its match in play is stopped, unrated.".into(),
                n => format!(" Its {n} matches in play are stopped, unrated."),
            };
            Text::new()
                .strong(format!("{name} is cancelled"))
                .plain(format!(" by {}.{matches}", names.of(*by)))
        }
    }
}

/// What a tournament's channel reads after the name of a player who left it.
fn departure_announced(departure: Departure) -> &'static str {
    match departure {
        Departure::Withdrew => "withdraws from",
        Departure::Left => "is no longer a member of this server and is withdrawn from",
        Departure::Banned => "was banned from this server and is withdrawn from",
    }
}
