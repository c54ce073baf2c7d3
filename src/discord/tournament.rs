//! `/thud tournament …`: the tournament commands, and the worker that opens a thread for each
//! paired game and begins its match there.

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use poise::serenity_prelude as serenity;
use tokio::sync::watch;

use super::choices::VariantOption;
use super::{actor, answer, place, Context, Error};
use crate::service::{Refusal, Service, ServiceError, TournamentOptions, TournamentRefusal};
use crate::tournament::Format;

/// How the players are paired.
#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum FormatOption {
    #[name = "swiss"]
    Swiss,
    #[name = "round-robin"]
    RoundRobin,
}

/// Run a tournament in this channel: round robin or Swiss
#[poise::command(
    slash_command,
    subcommands("create", "join", "leave", "start", "standings", "withdraw", "cancel"),
    subcommand_required
)]
pub async fn tournament(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Whether the member may organise: Manage Server.
fn is_organiser(ctx: Context<'_>) -> bool {
    match ctx {
        poise::Context::Application(app) => app
            .interaction
            .member
            .as_ref()
            .and_then(|m| m.permissions)
            .is_some_and(|p| p.manage_guild()),
        poise::Context::Prefix(_) => false,
    }
}

/// Announce a tournament in this channel; players join until it starts (needs Manage Server)
// Each argument is one of the command's options, as Discord shows them.
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command)]
async fn create(
    ctx: Context<'_>,
    #[description = "The tournament's name"]
    #[max_length = 60]
    name: String,
    #[description = "swiss (default) or round-robin (up to 16 players)"] format: Option<
        FormatOption,
    >,
    #[description = "Which game: classic (default), original or koom-valley"] variant: Option<
        VariantOption,
    >,
    #[description = "Days each player has per move (default 3)"]
    #[choices(1, 2, 3, 5, 7, 10, 14)]
    days: Option<u32>,
    #[description = "Swiss only: how many rounds (default: enough for a clear winner)"]
    #[min = 1]
    #[max = 20]
    rounds: Option<u32>,
    #[description = "A round lasts this many times the days per move (default 10)"]
    #[min = 1]
    #[max = 50]
    round_length: Option<u32>,
    #[description = "When round 1 is paired, as 2026-12-01T18:00:00Z (default: when you start it)"]
    starts: Option<String>,
) -> Result<(), Error> {
    let me = actor(ctx).await;
    let organiser = is_organiser(ctx);
    let threads = ctx.data().options.threads;
    let s = &ctx.data().service;
    answer(ctx, async {
        if !threads {
            // Each game needs a channel of its own, and only a thread can give it one.
            return Err(ServiceError::Refused(Refusal::Tournament(
                TournamentRefusal::NeedsThreads,
            )));
        }
        let starts_at = match starts.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(text) => Some(
                DateTime::parse_from_rfc3339(text)
                    .map(|t| t.with_timezone(&Utc))
                    .map_err(|_| {
                        ServiceError::Refused(Refusal::Input(format!(
                            "`{}` is not a time like 2026-12-01T18:00:00Z.",
                            crate::service::echo(text)
                        )))
                    })?,
            ),
        };
        let format = match format {
            Some(FormatOption::RoundRobin) => Format::RoundRobin,
            _ => Format::Swiss { rounds },
        };
        let options = TournamentOptions {
            name,
            format,
            variant: variant.map(Into::into),
            days_per_move: days,
            round_factor: round_length,
            starts_at,
        };
        s.create_tournament(place(ctx)?, &me, organiser, &options)
            .await
    })
    .await
}

/// Join the tournament taking players in this channel
#[poise::command(slash_command)]
async fn join(ctx: Context<'_>) -> Result<(), Error> {
    let me = actor(ctx).await;
    let s = &ctx.data().service;
    answer(ctx, async { s.join_tournament(place(ctx)?, &me).await }).await
}

/// Leave this channel's tournament before it starts
#[poise::command(slash_command)]
async fn leave(ctx: Context<'_>) -> Result<(), Error> {
    let me = actor(ctx).await;
    let s = &ctx.data().service;
    answer(ctx, async { s.leave_tournament(place(ctx)?, &me).await }).await
}

/// Start this channel's tournament now: round 1 is paired (needs Manage Server)
#[poise::command(slash_command)]
async fn start(ctx: Context<'_>) -> Result<(), Error> {
    let me = actor(ctx).await;
    let organiser = is_organiser(ctx);
    let s = &ctx.data().service;
    answer(ctx, async {
        s.start_tournament_now(place(ctx)?, &me, organiser).await
    })
    .await
}

/// The standings of this channel's tournament, as a table and a picture
#[poise::command(slash_command)]
async fn standings(ctx: Context<'_>) -> Result<(), Error> {
    let s = &ctx.data().service;
    answer(ctx, async { s.tournament_standings(place(ctx)?).await }).await
}

/// Withdraw from this channel's tournament: your matches in it are forfeited
#[poise::command(slash_command)]
async fn withdraw(ctx: Context<'_>) -> Result<(), Error> {
    let me = actor(ctx).await;
    let s = &ctx.data().service;
    answer(ctx, async {
        s.withdraw_from_tournament(place(ctx)?, &me).await
    })
    .await
}

/// Cancel this channel's tournament; its matches in play stop, unrated (needs Manage Server)
#[poise::command(slash_command)]
async fn cancel(ctx: Context<'_>) -> Result<(), Error> {
    let me = actor(ctx).await;
    let organiser = is_organiser(ctx);
    let s = &ctx.data().service;
    answer(ctx, async {
        s.cancel_tournament(place(ctx)?, &me, organiser).await
    })
    .await
}

/// Opens a thread of the tournament's channel for each paired game and begins its match
/// there; a thread opened for a game another process seated first is deleted again.
pub(super) async fn seat_worker(
    service: Arc<Service>,
    http: Arc<serenity::Http>,
    every: Duration,
    mut stop: watch::Receiver<bool>,
) {
    let mut interval = tokio::time::interval(every);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = interval.tick() => {}
            _ = stop.changed() => return,
        }
        let games = match service.tournament_games_to_seat(25).await {
            Ok(games) => games,
            Err(e) => {
                tracing::warn!(error = %e, "could not read the tournament games to seat");
                continue;
            }
        };
        for game in games {
            // A game can only be played in a thread: the channel itself may hold many games.
            // The thread is opened by the service once the game is its to seat.
            let room = super::buttons::thread_room(http.clone());
            match service.seat_tournament_game(game.game, room).await {
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!(game = game.game, error = %e, "could not seat a tournament game")
                }
            }
        }
    }
}
