//! Looking at a match: the board for anyone in the channel, and a player's list of games.

use super::error::Result;
use super::outcome::{channel, channel_link, full_time, relative_time, Action, ButtonStyle, Reply};
use super::{battle_status, Actor, Names, Place, Service};
use crate::store::{BoardStyle, MatchState};

impl Service {
    /// The board of the match in play here (or of the last one played here), with the score,
    /// whose turn it is and the deadline. Spectators may look too.
    pub async fn board(
        &self,
        place: Place,
        viewer: &Actor,
        style: Option<BoardStyle>,
    ) -> Result<Reply> {
        let m = match self.store.active_match_in(place.channel).await? {
            Some(m) => m,
            None => match self.store.latest_match_in(place.channel).await? {
                Some(id) => match self.store.load_match(id).await? {
                    Some(m) => m,
                    None => return Ok(Reply::private("There is no match in this channel yet.")),
                },
                None => {
                    return Ok(Reply::private(
                        "There is no match in this channel yet. Start one with `/thud challenge`.",
                    ))
                }
            },
        };
        let names = self.names(&m).await?;
        let index = m.game.battles().len() - 1;
        let battle = &m.game.battles()[index];
        let mut lines = vec![format!(
            "**Match #{}** · {} · battle {} of 2 · **{}** commands the dwarfs, **{}** the trolls.",
            m.id,
            m.variant.title(),
            index + 1,
            names.of(m.commander(crate::game::Side::Dwarfs)),
            names.of(m.commander(crate::game::Side::Trolls)),
        )];
        if !m.variant.wins_by_objective() {
            let score = battle.score();
            lines.push(format!(
                "Score: Dwarfs {} · Trolls {}.",
                score.dwarfs, score.trolls
            ));
        }
        match m.state {
            MatchState::Active => {
                lines.push(format!("{}.", battle_status(&m, &names, index)));
                let away = self.store.vacations_of(&m.players).await?;
                match m.clock {
                    Some(clock) if m.computer.is_some_and(|c| c.player == clock.player) => {}
                    Some(clock) if clock.vacation_since.is_some() => {
                        let until = away.get(&clock.player).map(|v| v.until);
                        lines.push(format!(
                            "{} is on vacation{}: the clock stands still (deadline {} and on by the time away).",
                            names.of(clock.player),
                            until.map(|u| format!(" until {}", full_time(u))).unwrap_or_default(),
                            full_time(clock.deadline),
                        ));
                    }
                    Some(clock) => lines.push(format!(
                        "Deadline {} ({}).",
                        full_time(clock.deadline),
                        relative_time(clock.deadline)
                    )),
                    None => {}
                }
                if let Some(p) = m.proposal {
                    lines.push(format!(
                        "{} has proposed ending this battle.",
                        names.of(p.proposer)
                    ));
                }
            }
            MatchState::Finished => lines.push(format!(
                "This match is over{}.",
                m.winner
                    .map(|w| format!(": **{}** won", names.of(w)))
                    .unwrap_or_else(|| ": it was drawn".to_string())
            )),
            MatchState::Aborted => lines.push("This match was aborted by a moderator.".to_string()),
        }
        if let Some(last) = battle.last_move() {
            lines.push(format!("Last move: `{last}`."));
        }
        let mut settings = self.store.settings(viewer.id).await?;
        if let Some(style) = style {
            settings.board_style = style;
        }
        self.board_output(
            &m,
            &names,
            index,
            &settings,
            Reply::public(lines.join("\n")),
        )
        .await
    }

    /// `actor`'s matches in play on this server, with opponent, whose turn and time left, and
    /// from every server the matches the bot cannot reach, with buttons to resume or stop them.
    pub async fn my_games(&self, place: Place, actor: &Actor, everywhere: bool) -> Result<Reply> {
        let guild = (!everywhere).then_some(place.guild);
        let mut games = self.store.active_matches_of(actor.id, guild).await?;
        for g in self.store.troubled_matches_of(actor.id).await? {
            if !games.iter().any(|h| h.id == g.id) {
                games.push(g);
            }
        }
        if games.is_empty() {
            return Ok(Reply::private(if everywhere {
                "You have no matches in play. Challenge someone with `/thud challenge`."
            } else {
                "You have no matches in play on this server. Challenge someone with `/thud challenge`, or see every server's with `/thud games scope:all`."
            }));
        }
        // The matches waiting for the player come first, the most urgent at the top.
        games.sort_by_key(|g| {
            let mine = g.clock.is_some_and(|c| c.player == actor.id);
            (!mine, g.clock.map(|c| c.deadline), g.id)
        });
        let ids: Vec<_> = games.iter().flat_map(|g| g.players).collect();
        let names = Names(self.store.names(&ids).await?);
        let away = self.store.vacations_of(&ids).await?;
        let now = self.now();
        let mut text = format!(
            "**Your matches in play{}** ({})\n",
            if everywhere { " on every server" } else { "" },
            games.len()
        );
        let mut buttons = Vec::new();
        for g in &games {
            let opponent = if g.players[0] == actor.id {
                g.players[1]
            } else {
                g.players[0]
            };
            let turn = match g.clock {
                Some(c) if c.vacation_since.is_some() => {
                    let who = if c.player == actor.id {
                        "your move".to_string()
                    } else {
                        format!("{}'s move", names.of(c.player))
                    };
                    let until = away
                        .get(&c.player)
                        .map(|v| format!(" until {}", full_time(v.until)))
                        .unwrap_or_default();
                    format!("{who}, on vacation{until}: the clock stands still")
                }
                Some(c) if c.player == actor.id => {
                    let left = if c.deadline > now {
                        format!("deadline {}", relative_time(c.deadline))
                    } else {
                        "**deadline passed**".to_string()
                    };
                    format!("**your move**, {left}")
                }
                Some(_) if g.computer_level.is_some() => {
                    format!("{} is thinking", names.of(opponent))
                }
                Some(c) => {
                    if c.deadline > now {
                        format!(
                            "{}'s move, deadline {}",
                            names.of(c.player),
                            relative_time(c.deadline)
                        )
                    } else {
                        format!(
                            "{}'s deadline passed: you may `/thud claim`",
                            names.of(c.player)
                        )
                    }
                }
                None => "waiting".to_string(),
            };
            let turn = match (&g.trouble, g.clock.and_then(|c| c.paused_at)) {
                (Some(why), Some(since)) => format!(
                    "**the bot cannot reach this match**: {why}. The clock is paused since {}. Resume it in a channel, or stop it unrated:",
                    full_time(since)
                ),
                (Some(why), None) => format!("{turn} · **the bot could not post there**: {why}"),
                _ => turn,
            };
            if g.trouble.is_some() {
                buttons.push(g.id);
            }
            let place = if everywhere {
                channel_link(g.guild, g.channel)
            } else {
                channel(g.channel)
            };
            text.push_str(&format!(
                "{place} · `#{}` vs **{}** · {} · {turn}\n",
                g.id,
                names.of(opponent),
                g.variant.title()
            ));
        }
        let mut reply = Reply::private(text.trim_end().to_string());
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
        Ok(reply)
    }
}
