//! `/thud tournament …` (players) and `/thud-admin tournament …` (organisers): the tournament
//! commands, and the worker that opens a thread for each
//! paired game and begins its match there.

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use poise::serenity_prelude as serenity;
use tokio::sync::watch;

use super::choices::VariantOption;
use super::organisers::{is_organiser, standing};
use super::{actor, answer, place, Context, Error};
use crate::service::{
    Departure, OrganiserRoleChange, Refusal, Seating, Service, ServiceError, TournamentOptions,
    TournamentRefusal, Unseatable,
};
use crate::store::{GuildId, UserId};
use crate::tournament::Format;

/// How the players are paired.
#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum FormatOption {
    #[name = "swiss"]
    Swiss,
    #[name = "round-robin"]
    RoundRobin,
}

/// Play in this channel's tournament: join, leave, withdraw, the standings
#[poise::command(
    slash_command,
    subcommands("join", "leave", "standings", "withdraw"),
    subcommand_required
)]
pub async fn tournament(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Organise a tournament in this channel: round robin or Swiss (organisers only)
#[poise::command(
    slash_command,
    rename = "tournament",
    subcommands(
        "create",
        "start",
        "cancel",
        "organisers",
        "super::tournament_director::correct",
        "super::tournament_director::add",
        "super::tournament_director::reinstate"
    ),
    subcommand_required
)]
pub async fn organise(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Announce a tournament in this channel; players join until it starts (organisers only)
// Each argument is one of the command's options, as Discord shows them.
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command)]
async fn create(
    ctx: Context<'_>,
    #[description = "The tournament's name, up to 60 characters"]
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
    #[description = "Swiss only: at most this many rounds (default: enough for a clear winner)"]
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
    let threads = ctx.data().options.threads;
    let s = &ctx.data().service;
    answer(ctx, async {
        let organiser = is_organiser(ctx).await?;
        if !threads {
            // Each game needs a channel of its own, and only a thread can give it one.
            return Err(ServiceError::Refused(Refusal::Tournament(
                TournamentRefusal::NeedsThreads,
            )));
        }
        if let poise::Context::Application(app) = ctx {
            let kind = app.interaction.channel.as_ref().map(|c| c.kind);
            if let Err(why) = tournament_home(kind, app.interaction.app_permissions) {
                return Err(ServiceError::Refused(Refusal::Tournament(why)));
            }
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
            Some(FormatOption::RoundRobin) if rounds.is_some() => {
                return Err(ServiceError::Refused(Refusal::Tournament(
                    TournamentRefusal::Format(crate::tournament::FormatError::RoundsForRoundRobin),
                )))
            }
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
        s.tournaments()
            .create(place(ctx)?, &me, organiser, &options)
            .await
    })
    .await
}

/// Join the tournament taking players in this channel
#[poise::command(slash_command)]
async fn join(ctx: Context<'_>) -> Result<(), Error> {
    let me = actor(ctx).await;
    let s = &ctx.data().service;
    answer(ctx, async { s.tournaments().join(place(ctx)?, &me).await }).await
}

/// Leave this channel's tournament before it starts
#[poise::command(slash_command)]
async fn leave(ctx: Context<'_>) -> Result<(), Error> {
    let me = actor(ctx).await;
    let s = &ctx.data().service;
    answer(ctx, async { s.tournaments().leave(place(ctx)?, &me).await }).await
}

/// Start this channel's tournament now: round 1 is paired (organisers only)
#[poise::command(slash_command)]
async fn start(ctx: Context<'_>) -> Result<(), Error> {
    let me = actor(ctx).await;
    let s = &ctx.data().service;
    answer(ctx, async {
        let organiser = is_organiser(ctx).await?;
        s.tournaments().start_now(place(ctx)?, &me, organiser).await
    })
    .await
}

/// The standings of this channel's tournament, as a table and a picture
#[poise::command(slash_command)]
async fn standings(
    ctx: Context<'_>,
    #[description = "Which page of a big field (40 players a page)"]
    #[min = 1]
    page: Option<u32>,
) -> Result<(), Error> {
    let s = &ctx.data().service;
    answer(ctx, async {
        s.tournaments()
            .standings(place(ctx)?, page.map_or(1, i64::from))
            .await
    })
    .await
}

/// Withdraw from this channel's tournament: your matches in it are forfeited
#[poise::command(slash_command)]
async fn withdraw(ctx: Context<'_>) -> Result<(), Error> {
    let me = actor(ctx).await;
    let s = &ctx.data().service;
    answer(ctx, async {
        s.tournaments().withdraw(place(ctx)?, &me).await
    })
    .await
}

/// Cancel this channel's tournament; its matches in play stop, unrated (organisers only)
#[poise::command(slash_command)]
async fn cancel(ctx: Context<'_>) -> Result<(), Error> {
    let me = actor(ctx).await;
    let s = &ctx.data().service;
    answer(ctx, async {
        let organiser = is_organiser(ctx).await?;
        s.tournaments().cancel(place(ctx)?, &me, organiser).await
    })
    .await
}

/// Who organises tournaments here: Manage Server, and a role you name (needs Manage Server)
#[poise::command(slash_command)]
async fn organisers(
    ctx: Context<'_>,
    #[description = "Members of this role may create, start and cancel tournaments too"]
    role: Option<serenity::Role>,
    #[description = "True: only Manage Server counts again"] clear: Option<bool>,
) -> Result<(), Error> {
    let me = actor(ctx).await;
    let (manages, _) = standing(ctx);
    let s = &ctx.data().service;
    answer(ctx, async {
        let change = match (role, clear.unwrap_or(false)) {
            (Some(_), true) => return Err(ServiceError::Refused(Refusal::RoleNamedAndCleared)),
            (Some(role), false) => OrganiserRoleChange::Name {
                id: role.id.get(),
                name: role.name,
            },
            (None, true) => OrganiserRoleChange::Clear,
            (None, false) => OrganiserRoleChange::Show,
        };
        s.tournaments()
            .organisers(place(ctx)?.guild, &me, manages, change)
            .await
    })
    .await
}

/// Whether a tournament's games can be seated in a channel of `kind` where the bot holds
/// `granted`: each game is a public thread of it, so a thread or forum post (threads do not
/// nest), an announcement channel (its threads are announcement threads) and a channel
/// where the bot may not see, talk, open threads or talk in them are refused up front, each
/// saying what would make it work. Unknown (`None`) counts as granted.
pub(super) fn tournament_home(
    kind: Option<serenity::ChannelType>,
    granted: Option<serenity::Permissions>,
) -> Result<(), TournamentRefusal> {
    use serenity::{ChannelType, Permissions};
    let place = match kind {
        Some(ChannelType::PublicThread | ChannelType::PrivateThread | ChannelType::NewsThread) => {
            Some(Unseatable::InAThread)
        }
        Some(ChannelType::News) => Some(Unseatable::Announcements),
        Some(ChannelType::Text) | None => None,
        Some(_) => Some(Unseatable::NotText),
    };
    if let Some(place) = place {
        return Err(TournamentRefusal::CannotSeatGames(place));
    }
    let needed = [
        (Permissions::VIEW_CHANNEL, "View Channel"),
        (Permissions::SEND_MESSAGES, "Send Messages"),
        (Permissions::CREATE_PUBLIC_THREADS, "Create Public Threads"),
        (
            Permissions::SEND_MESSAGES_IN_THREADS,
            "Send Messages in Threads",
        ),
    ];
    let missing: Vec<String> = needed
        .iter()
        .filter(|(p, _)| granted.is_some_and(|g| !g.contains(*p)))
        .map(|(_, name)| name.to_string())
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    Err(TournamentRefusal::CannotSeatGames(Unseatable::Missing(
        missing,
    )))
}

/// Opens a thread of the tournament's channel for each paired game and begins its match
/// there; a thread opened for a game that needed none by then (another process seated it, or
/// the tournament ended meanwhile) is archived again, empty, by the outbox. Games are taken `batch` at a
/// time; while every game of a batch is seated the next batch follows at once, so a round of
/// a hundred games is seated as fast as Discord's rate limits let threads open rather than
/// a batch a round of the worker. A game not seated (Discord's trouble, a player gone) backs
/// off, and the worker waits for its next round.
pub(super) async fn seat_worker(
    service: Arc<Service>,
    http: Arc<serenity::Http>,
    (every, batch): (Duration, usize),
    mut stop: watch::Receiver<bool>,
) {
    let mut interval = tokio::time::interval(every);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = interval.tick() => {}
            _ = stop.changed() => return,
        }
        while seat_batch(&service, &http, batch).await && !*stop.borrow() {}
    }
}

/// Seats up to `batch` games waiting for a thread; true when it took a whole batch and seated
/// every one (more may be waiting).
async fn seat_batch(service: &Arc<Service>, http: &Arc<serenity::Http>, batch: usize) -> bool {
    let games = match service.tournaments().games_to_seat(batch as i64).await {
        Ok(games) => games,
        Err(e) => {
            tracing::warn!(error = %e, "could not read the tournament games to seat");
            return false;
        }
    };
    let mut seated = 0;
    for game in &games {
        if !players_still_here(service, http, game).await {
            continue;
        }
        // A game can only be played in a thread: the channel itself may hold many games.
        // The thread is opened by the service once the game is its to seat.
        let room = super::rooms::thread_room(http.clone(), game.guild);
        match service.tournaments().seat_game(game.game, room).await {
            Ok(Seating::Seated(_)) => seated += 1,
            // Closed by the outbox.
            Ok(Seating::RoomUnused(_)) | Ok(Seating::NotSeated) => {}
            Err(e) => {
                tracing::warn!(game = game.game, error = %e, "could not seat a tournament game")
            }
        }
    }
    !games.is_empty() && games.len() == batch && seated == games.len()
}

/// Whether both players of `game` are still members of its server. One who is not (they left
/// or were banned while the bot could not hear it, or without the members intent it cannot
/// hear leaving at all) is withdrawn from the server's tournaments, which decides this game;
/// no thread is opened for it. When Discord cannot say, the game is seated: a failed check
/// must not hold up play, and a missing player loses on time like anyone.
async fn players_still_here(
    service: &Service,
    http: &serenity::Http,
    game: &crate::service::GameToSeat,
) -> bool {
    let guild = serenity::GuildId::new(game.guild.0.max(1));
    let mut here = true;
    for player in game.players {
        let user = serenity::UserId::new(player.0.max(1));
        match http.get_member(guild, user).await {
            Ok(_) => {}
            Err(serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)))
                if r.error.code == UNKNOWN_MEMBER =>
            {
                here = false;
                departed(service, game.guild, player, Departure::Left).await;
            }
            Err(e) => {
                tracing::warn!(game = game.game, %player, error = %e, "could not check a tournament player is still in the server")
            }
        }
    }
    here
}

/// Discord's JSON error code for a user who is not a member of the server.
const UNKNOWN_MEMBER: isize = 10007;

/// Withdraws `user`, who left server `guild` or was banned from it, from its tournaments.
pub(super) async fn departed(service: &Service, guild: GuildId, user: UserId, why: Departure) {
    match service
        .tournaments()
        .withdraw_everywhere(guild, user, why)
        .await
    {
        Ok(0) => {}
        Ok(count) => {
            tracing::info!(%guild, %user, ?why, count, "withdrew a departed member from tournaments")
        }
        Err(e) => {
            tracing::error!(%guild, %user, error = %e, "could not withdraw a departed member from tournaments")
        }
    }
}
