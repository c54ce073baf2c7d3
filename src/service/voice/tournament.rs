//! What the bot says of a tournament's events.

use chrono::Duration;

use crate::service::events::{Departure, EarlyEnd, Entrants, Paired, SeatTrouble, TournamentEvent};
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
            entrants,
        } => {
            let start = match starts_at {
                Some(at) => Text::new().plain("It starts ").time(*at).plain("."),
                None => Text::from("The organiser starts it."),
            };
            let about = Text::new().strong(format!("Tournament #{id}: {name}")).plain(format!(
                " ({format}, {}, {} a move, {round_days} days a round).",
                variant.title(),
                count(*days_per_move, "day", "days"),
            ));
            match entrants {
                Some(Entrants::Closed(n)) => about.plain(format!(
                    " Joining is over: it began with {}.",
                    count(*n, "player", "players")
                )),
                Some(Entrants::CalledOff) => about.plain(" It was called off; joining is over."),
                open => {
                    let so_far = match open {
                        Some(Entrants::SoFar(0)) => " Nobody has joined yet.".to_string(),
                        Some(Entrants::SoFar(n)) => {
                            format!(" {} joined so far.", count(*n, "player has", "players have"))
                        }
                        _ => String::new(),
                    };
                    about
                        .plain(" Join with the button or ")
                        .code("/thud tournament join")
                        .plain(". ")
                        .then(start)
                        .plain(so_far)
                }
            }
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
            asked,
            scheduled,
        } => {
            let mut text = match scheduled {
                true => Text::new().strong(name).plain(format!(
                    " starts as scheduled with {players} players, {}.",
                    count(*rounds, "round", "rounds")
                )),
                false => Text::new().strong(names.of(*by)).plain(format!(
                    " starts {name} with {players} players, {}.",
                    count(*rounds, "round", "rounds")
                )),
            };
            if let Some(asked) = asked.filter(|a| a > rounds) {
                text.push_str(&format!(
                    " {asked} were asked for, but {players} players can play only {rounds} without a rematch."
                ));
            }
            text
        }
        TournamentEvent::CalledOff { name, why } => Text::new()
            .strong(format!("{name} is called off"))
            .plain(format!(": {}.", called_off_because(why))),
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
                        winner,
                    } => {
                        let result = match (forfeited, winner) {
                            (false, _) => String::new(),
                            (true, Some(w)) => {
                                format!(" ({} wins by forfeit: the other withdrew)", names.of(w))
                            }
                            (true, None) => " (won by forfeit: one of them withdrew)".to_string(),
                        };
                        format!("{} – {}{result}", names.of(first), names.of(second))
                    }
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
            " {} {name}; their matches in it not yet decided are forfeited (finished results stand).",
            departure_announced(*departure)
        )),
        TournamentEvent::GameStopped { name, round } => Text::from(format!(
            "Round {round} of {name} reached its deadline with this match unfinished; it is \
             stopped, unrated, and counts as drawn in the tournament."
        )),
        TournamentEvent::GameCancelled { name } => Text::from(format!(
            "The tournament {name} was cancelled; this match is stopped, unrated."
        )),
        TournamentEvent::Lost { name, why, stopped } => {
            let matches = match stopped {
                0 => String::new(),
                1 => " Its match in play is stopped, unrated.".into(),
                n => format!(" Its {n} matches in play are stopped, unrated."),
            };
            Text::new()
                .strong(format!("{name} is called off"))
                .plain(format!(": {why}, so no game of it can be seated or announced.{matches}"))
        }
        TournamentEvent::GameNotSeated {
            name,
            channel,
            players,
            trouble,
        } => {
            let who: Vec<String> = players.iter().map(|p| names.of(*p)).collect();
            let why = match trouble {
                SeatTrouble::Permissions => {
                    ". It needs View Channel, Send Messages, Create Public Threads and Send \
                     Messages in Threads there (a server admin grants them to the bot's role)."
                }
                SeatTrouble::ThreadLimit => {
                    ": the server has as many active threads as Discord allows. Archiving \
                     threads that are done with makes room."
                }
            };
            Text::new()
                .strong(format!("A game of {name} could not start"))
                .plain(format!(" ({}): the bot could not open its thread in ", who.join(" – ")))
                .channel(*channel)
                .plain(why)
                .plain(
                    " It tries again with growing pauses; a game without a thread when its \
                     round's deadline comes counts as drawn.",
                )
        }
        TournamentEvent::ResultCorrected {
            name,
            match_id,
            first,
            second,
            winner,
            by,
        } => {
            let verdict = match winner {
                Some(w) => format!("{} wins it", names.of(*w)),
                None => "it is drawn".to_string(),
            };
            Text::new().strong(names.of(*by)).plain(format!(
                " corrects the result of match #{match_id} ({} – {}) in {name}: {verdict}. The standings count the correction; ratings are unchanged.",
                names.of(*first),
                names.of(*second)
            ))
        }
        TournamentEvent::LateEntry {
            name,
            player,
            by,
            from,
        } => Text::new().strong(names.of(*player)).plain(format!(
            " joins {name} late, added by {}: paired from round {from}, with no points for the rounds before.",
            names.of(*by)
        )),
        TournamentEvent::Reinstated {
            name,
            player,
            by,
            from,
        } => Text::new().strong(names.of(*player)).plain(format!(
            " is back in {name}, reinstated by {}: paired from round {from}; the games forfeited meanwhile stay forfeited.",
            names.of(*by)
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

/// The name of the room of game `game` of tournament `name` (Discord allows 100 characters).
pub(in crate::service) fn game_room_name(name: &str, game: i64) -> String {
    format!("{name} · game {game}").chars().take(100).collect()
}

/// Why a tournament that could not start was called off (as said, and as kept with it): too
/// few joined, or what its format could not do.
pub(in crate::service) fn called_off_because(e: &FormatError) -> String {
    match e {
        FormatError::TooFewPlayers(joined) => format!("only {joined} joined"),
        other => super::refusals::format_error(other),
    }
}
