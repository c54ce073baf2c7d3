//! Looking at a match: the board for anyone in the channel, and a player's list of games.

use crate::service::error::Result;
use crate::service::outcome::{channel_link, Action, ButtonStyle, Reply};
use crate::service::text::Text;
use crate::service::voice::battle_status;
use crate::service::{Actor, Names, Place, Service};
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
                        Text::from("There is no match in this channel yet. Start one with ")
                            .code("/thud challenge")
                            .plain("."),
                    ))
                }
            },
        };
        let names = self.names(&m).await?;
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
                lines.push(Text::from(format!("{}.", battle_status(&m, &names, index))));
                let away = self.store.vacations_of(&m.players).await?;
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
            MatchState::Aborted => lines.push(Text::from("This match was aborted by a moderator.")),
        }
        if let Some(last) = battle.last_move() {
            lines.push(Text::from("Last move: ").code(last.to_string()).plain("."));
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
            Reply::public(Text::lines(lines)),
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
            let challenge = Text::from(if everywhere {
                "You have no matches in play. Challenge someone with "
            } else {
                "You have no matches in play on this server. Challenge someone with "
            })
            .code("/thud challenge");
            return Ok(Reply::private(if everywhere {
                challenge.plain(".")
            } else {
                challenge
                    .plain(", or see every server's with ")
                    .code("/thud games scope:all")
                    .plain(".")
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
        let mut text = Text::new()
            .strong(format!(
                "Your matches in play{}",
                if everywhere { " on every server" } else { "" }
            ))
            .plain(format!(" ({})", games.len()));
        let mut buttons = Vec::new();
        for g in &games {
            let opponent = if g.players[0] == actor.id {
                g.players[1]
            } else {
                g.players[0]
            };
            let turn = match g.clock {
                Some(c) if c.vacation_since.is_some() => {
                    let mut who = Text::from(if c.player == actor.id {
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
                Some(c) if c.player == actor.id => {
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
                    Text::from(format!("{}'s move, deadline ", names.of(c.player)))
                        .relative(c.deadline)
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
            text = text.line();
            text = if everywhere {
                text.link(format!("match #{}", g.id), channel_link(g.guild, g.channel))
            } else {
                text.channel(g.channel)
            };
            text = text
                .plain(" · ")
                .code(format!("#{}", g.id))
                .plain(" vs ")
                .strong(names.of(opponent))
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
        Ok(reply)
    }
}
