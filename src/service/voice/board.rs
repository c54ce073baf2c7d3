//! What the bot says when a match is looked at: the board's caption for anyone in the
//! channel, and a player's list of their games. Pure: the caller loads what it reads.

use std::collections::HashMap;

use chrono::{DateTime, Utc};

use super::battle_status;
use crate::service::outcome::{channel_link, Action, ButtonStyle, Reply};
use crate::service::text::Text;
use crate::service::Names;
use crate::store::{MatchState, MatchSummary, StoredMatch, UserId, Vacation};

/// There is no match to show in the channel; `never` when none was ever played there.
pub(in crate::service) fn no_match_yet(never: bool) -> Text {
    if never {
        Text::from("There is no match in this channel yet. Start one with ")
            .code("/thud challenge")
            .plain(".")
    } else {
        Text::from("There is no match in this channel yet.")
    }
}

/// The caption of the board of match `m`: who commands whom, the score, whose turn it is and
/// the deadline (or its result), and the last move; `away` are its players' vacations.
pub(in crate::service) fn board_caption(
    m: &StoredMatch,
    names: &Names,
    away: &HashMap<UserId, Vacation>,
) -> Text {
    let index = m.game.battles().len() - 1;
    let battle = &m.game.battles()[index];
    let mut lines = vec![Text::new()
        .strong(format!("Match #{}", m.id))
        .plain(format!(
            " · {} · battle {} of 2 · ",
            m.variant.title(),
            index + 1
        ))
        .strong(names.of(m.commander(crate::game::Side::Dwarfs)))
        .plain(" commands the dwarfs, ")
        .strong(names.of(m.commander(crate::game::Side::Trolls)))
        .plain(" the trolls.")];
    if !m.variant.wins_by_objective() {
        let score = battle.score();
        lines.push(Text::from(format!(
            "Score: Dwarfs {} · Trolls {}.",
            score.dwarfs, score.trolls
        )));
    }
    match m.state {
        MatchState::Active => {
            lines.push(Text::from(format!("{}.", battle_status(m, names, index))));
            match m.clock {
                Some(clock) if m.computer.is_some_and(|c| c.player == clock.player) => {}
                Some(clock) if clock.vacation_since.is_some() => {
                    let until = away.get(&clock.player).map(|v| v.until);
                    let mut line = Text::from(names.of(clock.player)).plain(" is on vacation");
                    if let Some(until) = until {
                        line = line.plain(" until ").time(until);
                    }
                    lines.push(
                        line.plain(": the clock stands still (deadline ")
                            .time(clock.deadline)
                            .plain(" and on by the time away)."),
                    );
                }
                Some(clock) => lines.push(
                    Text::from("Deadline ")
                        .time(clock.deadline)
                        .plain(" (")
                        .relative(clock.deadline)
                        .plain(")."),
                ),
                None => {}
            }
            if let Some(p) = m.proposal {
                lines.push(Text::from(format!(
                    "{} has proposed ending this battle.",
                    names.of(p.proposer)
                )));
            }
        }
        MatchState::Finished => lines.push(match m.winner {
            Some(w) => Text::from("This match is over: ")
                .strong(names.of(w))
                .plain(" won."),
            None => Text::from("This match is over: it was drawn."),
        }),
        // Stopped by a moderator, a cancelled tournament, a round's deadline or a lost channel:
        // the board does not know which, so it says only what is true of them all.
        MatchState::Aborted => lines.push(Text::from(
            "This match was stopped before it was decided; it is unrated.",
        )),
    }
    if let Some(last) = battle.last_move() {
        lines.push(Text::from("Last move: ").code(last.to_string()).plain("."));
    }
    Text::lines(lines)
}

/// A player with no match in play (on this server unless `everywhere`).
pub(in crate::service) fn no_games(everywhere: bool) -> Text {
    let challenge = Text::from(if everywhere {
        "You have no matches in play. Challenge someone with "
    } else {
        "You have no matches in play on this server. Challenge someone with "
    })
    .code("/thud challenge");
    if everywhere {
        challenge.plain(".")
    } else {
        challenge
            .plain(", or see every server's with ")
            .code("/thud games scope:all")
            .plain(".")
    }
}

/// `actor`'s matches in play (`games`, the most urgent first), with buttons to resume or stop
/// those the bot cannot reach.
pub(in crate::service) fn games_list(
    games: &[MatchSummary],
    actor: UserId,
    (names, away): (&Names, &HashMap<UserId, Vacation>),
    now: DateTime<Utc>,
    everywhere: bool,
) -> Reply {
    let mut text = Text::new()
        .strong(format!(
            "Your matches in play{}",
            if everywhere { " on every server" } else { "" }
        ))
        .plain(format!(" ({})", games.len()));
    let mut buttons = Vec::new();
    for g in games {
        let opponent = if g.players[0] == actor {
            g.players[1]
        } else {
            g.players[0]
        };
        let turn = match g.clock {
            Some(c) if c.vacation_since.is_some() => {
                let mut who = Text::from(if c.player == actor {
                    "your move".to_string()
                } else {
                    format!("{}'s move", names.of(c.player))
                })
                .plain(", on vacation");
                if let Some(v) = away.get(&c.player) {
                    who = who.plain(" until ").time(v.until);
                }
                who.plain(": the clock stands still")
            }
            Some(c) if c.player == actor => {
                let mine = Text::new().strong("your move").plain(", ");
                if c.deadline > now {
                    mine.plain("deadline ").relative(c.deadline)
                } else {
                    mine.strong("deadline passed")
                }
            }
            Some(_) if g.computer_level.is_some() => {
                Text::from(format!("{} is thinking", names.of(opponent)))
            }
            Some(c) if c.deadline > now => {
                Text::from(format!("{}'s move, deadline ", names.of(c.player))).relative(c.deadline)
            }
            Some(c) => Text::from(format!(
                "{}'s deadline passed: you may ",
                names.of(c.player)
            ))
            .code("/thud claim"),
            None => Text::from("waiting"),
        };
        let turn = match (&g.trouble, g.clock.and_then(|c| c.paused_at)) {
            (Some(why), Some(since)) => Text::new()
                .strong("the bot cannot reach this match")
                .plain(format!(": {why}. The clock is paused since "))
                .time(since)
                .plain(". Resume it in a channel, or stop it unrated:"),
            (Some(why), None) => turn
                .plain(" · ")
                .strong("the bot could not post there")
                .plain(format!(": {why}")),
            _ => turn,
        };
        if g.trouble.is_some() {
            buttons.push(g.id);
        }
        // The match's number and its channel's are both `#n`: each is named for what it is.
        text = text.line();
        text = if everywhere {
            text.link(format!("Match #{}", g.id), channel_link(g.guild, g.channel))
                .plain(" vs ")
                .strong(names.of(opponent))
        } else {
            text.plain("Match ")
                .code(format!("#{}", g.id))
                .plain(" vs ")
                .strong(names.of(opponent))
                .plain(", in channel ")
                .channel(g.channel)
        };
        text = text
            .plain(format!(" · {} · ", g.variant.title()))
            .then(turn);
    }
    let mut reply = Reply::private(text);
    // Discord allows 25 buttons a message.
    for id in buttons.into_iter().take(12) {
        reply = reply
            .button(
                Action::Resume(id),
                &format!("Resume #{id} here"),
                ButtonStyle::Primary,
            )
            .button(
                Action::AbortUnreachable(id),
                &format!("Stop #{id}"),
                ButtonStyle::Danger,
            );
    }
    reply
}
