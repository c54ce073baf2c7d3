//! The console's tournament lines: `/thud tournament create|join|leave|start|withdraw|cancel|
//! standings`, and seating each paired game in a channel of its own (`#10000` + its number),
//! where its players act with `<player>@<channel>:`.

use std::io::Write;

use chrono::{DateTime, Utc};

use super::{refused, Console, Line};
use crate::service::{
    Actor, Place, Refusal, Reply, Room, ServiceError, TournamentOptions, TournamentRefusal,
};
use crate::store::{ChannelId, MatchId};
use crate::tournament::{Format, FormatError};

/// Where the console seats tournament game `n`: channel `GAME_CHANNELS + n`.
pub const GAME_CHANNELS: u64 = 10_000;

impl Console<'_> {
    pub(super) async fn tournament(
        &mut self,
        line: &Line,
        place: Place,
        actor: &Actor,
    ) -> Result<Reply, ServiceError> {
        let s = self.service;
        let number = |name: &str| -> Result<Option<u32>, ServiceError> {
            line.get(name)
                .map(|v| {
                    v.trim()
                        .parse()
                        .map_err(|_| refused(super::not_a_count(name, v)))
                })
                .transpose()
        };
        // The console is the operator's own table: everyone may organise.
        match line.get("action").unwrap_or_default() {
            "create" => {
                let format = match line.get("format") {
                    Some(f) => f.parse::<Format>().map_err(format_refused)?,
                    None => Format::Swiss { rounds: None },
                };
                let format = match format {
                    Format::Swiss { .. } => Format::Swiss {
                        rounds: number("rounds")?,
                    },
                    Format::RoundRobin if line.get("rounds").is_some() => {
                        return Err(format_refused(FormatError::RoundsForRoundRobin))
                    }
                    other => other,
                };
                let starts_at = line
                    .get("starts")
                    .map(|v| {
                        DateTime::parse_from_rfc3339(v.trim())
                            .map(|t| t.with_timezone(&Utc))
                            .map_err(|_| {
                                refused(format!(
                                    "starts: `{}` is not a time like 2026-12-01T18:00:00Z",
                                    crate::service::echo(v)
                                ))
                            })
                    })
                    .transpose()?;
                let options = TournamentOptions {
                    name: line.get("name").unwrap_or_default().to_string(),
                    format,
                    variant: line.get("variant").map(super::parse_variant).transpose()?,
                    days_per_move: number("days")?,
                    round_factor: number("round_length")?,
                    starts_at,
                };
                s.tournaments().create(place, actor, true, &options).await
            }
            "join" => s.tournaments().join(place, actor).await,
            "leave" => s.tournaments().leave(place, actor).await,
            "start" => s.tournaments().start_now(place, actor, true).await,
            "withdraw" => s.tournaments().withdraw(place, actor).await,
            "cancel" => s.tournaments().cancel(place, actor, true).await,
            "standings" => {
                let page = line
                    .get("page")
                    .map(super::values::parse_page)
                    .transpose()?
                    .unwrap_or(1);
                s.tournaments().standings(place, page).await
            }
            "correct" => {
                let Some(id) = number("match")? else {
                    return Err(refused("correct needs match:<number>"));
                };
                // No winner, or `winner:draw`, is a draw.
                let winner = match line.get("winner").map(str::trim) {
                    None | Some("draw") | Some("") => None,
                    Some(name) => Some(self.actor(name.trim_start_matches('@')).await?.id),
                };
                s.tournaments().correct_result(place, actor, true, MatchId(u64::from(id)), winner)
                    .await
            }
            "add" | "reinstate" => {
                let Some(name) = line.get("player").map(str::trim) else {
                    return Err(refused("name the player with player:<name>"));
                };
                let player = self.actor(name.trim_start_matches('@')).await?;
                match line.get("action") {
                    Some("add") => s.tournaments().add_late_entry(place, actor, true, &player).await,
                    _ => {
                        s.tournaments().reinstate(place, actor, true, player.id)
                            .await
                    }
                }
            }
            _ => Err(refused(
                "write `tournament create|join|leave|start|withdraw|cancel|standings|correct|add|reinstate`",
            )),
        }
    }

    /// Gives every paired game waiting for a channel the console's channel for it.
    pub(super) async fn seat_games(&mut self, out: &mut impl Write) -> std::io::Result<()> {
        let games = match self.service.tournaments().games_to_seat(100).await {
            Ok(games) => games,
            Err(e) => return writeln!(out, "! tournaments failed: {}", e.player_message()),
        };
        for game in games {
            let channel = ChannelId(GAME_CHANNELS + game.game.unsigned_abs());
            let room: Room = Box::new(move |_, _| Box::pin(async move { Ok(channel) }));
            if let Err(e) = self.service.tournaments().seat_game(game.game, room).await {
                writeln!(out, "! a tournament game failed: {}", e.player_message())?;
            }
        }
        Ok(())
    }
}

/// A format that does not fit, refused as the bot refuses it.
fn format_refused(why: FormatError) -> ServiceError {
    ServiceError::Refused(Refusal::Tournament(TournamentRefusal::Format(why)))
}
