//! The `/thud` command group: each subcommand reads its options and asks the service.

use poise::serenity_prelude as serenity;

use super::analysis::analysis;
use super::autocomplete::{complete_capture, complete_from, complete_notation, complete_to};
use super::choices::{GamesScope, NotifyOption, SideOption, VariantOption};
use super::plan::plan;
use super::tournament::tournament;
use super::{actor, actor_of, answer, answer_privately, permissions, place, venue, Context, Error};
use crate::service::{ChallengeOptions, LadderScope, MoveRequest, Refusal, ServiceError, Verb};
use crate::store::{BoardStyle, ChallengeId, MatchId};

/// Play Thud, the Discworld game of dwarfs against trolls
#[poise::command(
    slash_command,
    guild_only,
    install_context = "Guild",
    interaction_context = "Guild",
    subcommands(
        "challenge",
        "accept",
        "decline",
        "cancel",
        "move_piece",
        "hurl",
        "shove",
        "play",
        "plan",
        "board",
        "end",
        "resign",
        "claim",
        "games",
        "ladder",
        "review",
        "settings",
        "vacation",
        "rules",
        "tournament"
    ),
    subcommand_required
)]
pub async fn thud(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// The leaderboard, a player's rating and record, their recent matches
#[poise::command(
    slash_command,
    subcommands("leaderboard", "stats", "history"),
    subcommand_required
)]
async fn ladder(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Look back at a finished match: its record, a replay, the engine's analysis
#[poise::command(
    slash_command,
    subcommands("record", "replay", "analysis"),
    subcommand_required
)]
async fn review(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Challenge someone here to a match of two battles, or play the bot
#[poise::command(slash_command)]
async fn challenge(
    ctx: Context<'_>,
    #[description = "Who to challenge; choose the bot itself to play the computer"]
    opponent: serenity::User,
    #[description = "classic (default), original or koom-valley"] variant: Option<VariantOption>,
    #[description = "What you command in battle 1 (default: random)"] side: Option<SideOption>,
    #[description = "Days each player has per move (default 3)"]
    #[choices(1, 2, 3, 5, 7, 10, 14)]
    days: Option<u32>,
    #[description = "Against the bot: 1 (a beginner) to 5 (default 3)"]
    #[min = 1]
    #[max = 5]
    level: Option<u8>,
    #[description = "false: a friendly match, off the leaderboards"] rated: Option<bool>,
) -> Result<(), Error> {
    let me = actor(ctx).await;
    let them = actor_of(&opponent);
    let options = ChallengeOptions {
        variant: variant.map(Into::into),
        side: side.map(Into::into),
        days_per_move: days,
        rated,
    };
    let data = ctx.data();
    let s = &data.service;
    let bot = ctx.cache().current_user().id;
    let http = ctx.serenity_context().http.clone();
    answer(ctx, async {
        let venue = venue(ctx)?;
        let in_a_thread =
            permissions::match_home(venue.granted, venue.in_thread, data.options.threads)?;
        if opponent.id != bot {
            if level.is_some() {
                return Err(ServiceError::Refused(Refusal::LevelAgainstPerson));
            }
            return s
                .matches()
                .challenge(venue.place, &me, &them, &options)
                .await;
        }
        let room = in_a_thread.then(|| super::rooms::thread_room(http, venue.place.guild));
        s.matches()
            .challenge_computer(venue.place, &me, &them, level, &options, room)
            .await
    })
    .await
}

/// Accept a challenge made to you here
#[poise::command(slash_command)]
async fn accept(
    ctx: Context<'_>,
    #[description = "The challenge number, when you have several"] challenge: Option<u64>,
) -> Result<(), Error> {
    let me = actor(ctx).await;
    let data = ctx.data();
    let http = ctx.serenity_context().http.clone();
    answer(ctx, async {
        super::buttons::accept(data, &http, venue(ctx)?, &me, challenge.map(ChallengeId)).await
    })
    .await
}

/// Decline a challenge made to you here
#[poise::command(slash_command)]
async fn decline(
    ctx: Context<'_>,
    #[description = "The challenge number, when you have several"] challenge: Option<u64>,
) -> Result<(), Error> {
    let me = actor(ctx).await;
    let s = &ctx.data().service;
    answer(ctx, async {
        s.matches()
            .decline(place(ctx)?, &me, challenge.map(ChallengeId))
            .await
    })
    .await
}

/// Withdraw a challenge you made here
#[poise::command(slash_command)]
async fn cancel(
    ctx: Context<'_>,
    #[description = "The challenge number, when you have several"] challenge: Option<u64>,
) -> Result<(), Error> {
    let me = actor(ctx).await;
    let s = &ctx.data().service;
    answer(ctx, async {
        s.matches()
            .cancel(place(ctx)?, &me, challenge.map(ChallengeId))
            .await
    })
    .await
}

async fn verb_move(
    ctx: Context<'_>,
    verb: Verb,
    from: String,
    to: String,
    capture: Option<String>,
) -> Result<(), Error> {
    let me = actor(ctx).await;
    let s = &ctx.data().service;
    let request = MoveRequest::Verb {
        verb,
        from,
        to,
        captures: capture.unwrap_or_default(),
    };
    answer(ctx, async {
        s.matches().play(place(ctx)?, &me, &request).await
    })
    .await
}

/// Move a dwarf or a troll, with what it captures
#[poise::command(slash_command, rename = "move")]
async fn move_piece(
    ctx: Context<'_>,
    #[description = "The square of the piece to move"]
    #[autocomplete = "complete_from"]
    from: String,
    #[description = "Where it goes"]
    #[autocomplete = "complete_to"]
    to: String,
    #[description = "Squares captured, e.g. E5, F5"]
    #[autocomplete = "complete_capture"]
    capture: Option<String>,
) -> Result<(), Error> {
    verb_move(ctx, Verb::Move, from, to, capture).await
}

/// Hurl a dwarf along a line of dwarfs onto a troll, capturing it
#[poise::command(slash_command)]
async fn hurl(
    ctx: Context<'_>,
    #[description = "The front dwarf of the line"]
    #[autocomplete = "complete_from"]
    from: String,
    #[description = "The troll's square"]
    #[autocomplete = "complete_to"]
    to: String,
) -> Result<(), Error> {
    verb_move(ctx, Verb::Hurl, from, to, None).await
}

/// Shove a troll along a line of trolls next to dwarfs, capturing some of them
#[poise::command(slash_command)]
async fn shove(
    ctx: Context<'_>,
    #[description = "The front troll of the line"]
    #[autocomplete = "complete_from"]
    from: String,
    #[description = "Where it lands"]
    #[autocomplete = "complete_to"]
    to: String,
    #[description = "The dwarfs it captures, e.g. E5, F5"]
    #[autocomplete = "complete_capture"]
    capture: String,
) -> Result<(), Error> {
    verb_move(ctx, Verb::Shove, from, to, Some(capture)).await
}

/// Play a move written in notation, e.g. dF1-F5 or TG7-F6xE5
#[poise::command(slash_command)]
async fn play(
    ctx: Context<'_>,
    #[description = "The move, e.g. dF1-F5, dE6-H9xH9, TG7-F6xE5xF5"]
    #[autocomplete = "complete_notation"]
    notation: String,
) -> Result<(), Error> {
    let me = actor(ctx).await;
    let s = &ctx.data().service;
    let request = MoveRequest::Notation(notation);
    answer(ctx, async {
        s.matches().play(place(ctx)?, &me, &request).await
    })
    .await
}

/// Show the board of this channel's match, the score, whose turn and the deadline
#[poise::command(slash_command)]
async fn board(
    ctx: Context<'_>,
    #[description = "A picture (full) or text (brief); default from your settings"]
    #[choices("full", "brief")]
    style: Option<&'static str>,
) -> Result<(), Error> {
    let me = actor(ctx).await;
    let s = &ctx.data().service;
    let style = style.and_then(BoardStyle::from_name);
    answer(ctx, async {
        s.matches().board(place(ctx)?, &me, style).await
    })
    .await
}

/// Propose ending the battle and counting the score, or answer a proposal
#[poise::command(slash_command)]
async fn end(
    ctx: Context<'_>,
    #[description = "propose (default), agree or decline"]
    #[choices("propose", "agree", "decline")]
    action: Option<&'static str>,
) -> Result<(), Error> {
    let me = actor(ctx).await;
    let s = &ctx.data().service;
    answer(ctx, async {
        let place = place(ctx)?;
        match action.unwrap_or("propose") {
            "agree" => s.matches().answer_end(place, &me, true, None).await,
            "decline" => s.matches().answer_end(place, &me, false, None).await,
            _ => s.matches().propose_end(place, &me).await,
        }
    })
    .await
}

/// Resign this channel's match: your opponent wins both battles
#[poise::command(slash_command)]
async fn resign(ctx: Context<'_>) -> Result<(), Error> {
    let me = actor(ctx).await;
    let s = &ctx.data().service;
    answer(ctx, async {
        s.matches().resign_prompt(place(ctx)?, &me).await
    })
    .await
}

/// Claim the match when your opponent has let their move's deadline pass
#[poise::command(slash_command)]
async fn claim(ctx: Context<'_>) -> Result<(), Error> {
    let me = actor(ctx).await;
    let s = &ctx.data().service;
    answer(ctx, async { s.matches().claim(place(ctx)?, &me).await }).await
}

/// Your matches in play, yours to move first
#[poise::command(slash_command)]
async fn games(
    ctx: Context<'_>,
    #[description = "server (default) or all: every server you share with the bot"] scope: Option<
        GamesScope,
    >,
) -> Result<(), Error> {
    let me = actor(ctx).await;
    let s = &ctx.data().service;
    let everywhere = scope == Some(GamesScope::All);
    answer_privately(ctx, async {
        s.matches().my_games(place(ctx)?, &me, everywhere).await
    })
    .await
}

/// The top players by rating, on this server or everywhere
#[poise::command(slash_command)]
async fn leaderboard(
    ctx: Context<'_>,
    #[description = "server (default) or global"]
    #[choices("server", "global")]
    scope: Option<&'static str>,
    #[description = "Page of ten, from 1"]
    #[min = 1]
    #[max = 1000]
    page: Option<u32>,
) -> Result<(), Error> {
    let s = &ctx.data().service;
    let scope = match scope {
        Some("global") => LadderScope::Global,
        _ => LadderScope::Server,
    };
    answer(ctx, async {
        s.ladder()
            .leaderboard(place(ctx)?, scope, page.map_or(1, i64::from))
            .await
    })
    .await
}

/// A player's rating, games and results
#[poise::command(slash_command)]
async fn stats(
    ctx: Context<'_>,
    #[description = "Whose stats (default: yours)"] player: Option<serenity::User>,
) -> Result<(), Error> {
    about_player(ctx, player, false).await
}

/// A player's recent matches
#[poise::command(slash_command)]
async fn history(
    ctx: Context<'_>,
    #[description = "Whose history (default: yours)"] player: Option<serenity::User>,
) -> Result<(), Error> {
    about_player(ctx, player, true).await
}

/// Stats or history of the named player, or of the one asking.
async fn about_player(
    ctx: Context<'_>,
    player: Option<serenity::User>,
    history: bool,
) -> Result<(), Error> {
    let me = actor(ctx).await;
    let who = match &player {
        Some(user) => actor_of(user),
        None => me.clone(),
    };
    let s = &ctx.data().service;
    answer(ctx, async {
        if history {
            s.ladder().history(place(ctx)?, &who).await
        } else {
            s.ladder().stats(place(ctx)?, &me, &who).await
        }
    })
    .await
}

/// A match's game record as text: players, results and every move
#[poise::command(slash_command)]
async fn record(
    ctx: Context<'_>,
    #[description = "The match number (default: this channel's latest)"]
    #[rename = "match"]
    match_id: Option<u64>,
) -> Result<(), Error> {
    let s = &ctx.data().service;
    answer(ctx, async {
        s.records().record(place(ctx)?, match_id.map(MatchId)).await
    })
    .await
}

/// A battle replayed as an animated picture
#[poise::command(slash_command)]
async fn replay(
    ctx: Context<'_>,
    #[description = "The match number (default: this channel's latest)"]
    #[rename = "match"]
    match_id: Option<u64>,
    #[description = "Battle 1 or 2 (default: the latest)"]
    #[choices(1, 2)]
    battle: Option<u8>,
) -> Result<(), Error> {
    let me = actor(ctx).await;
    let s = &ctx.data().service;
    answer(ctx, async {
        // The player's own theme; the default when it cannot be read.
        let theme = s.people().theme_of(me.id).await.ok().flatten();
        // Discord says how large a file this channel accepts.
        let limit = match ctx {
            poise::Context::Application(app) => {
                Some(app.interaction.attachment_size_limit as usize).filter(|l| *l > 0)
            }
            poise::Context::Prefix(_) => None,
        };
        s.records()
            .replay(place(ctx)?, match_id.map(MatchId), battle, theme, limit)
            .await
    })
    .await
}

/// Your board style, colour theme, and how you hear that it is your move
#[poise::command(slash_command)]
async fn settings(
    ctx: Context<'_>,
    #[description = "full (a picture) or brief (text)"]
    #[choices("full", "brief")]
    style: Option<&'static str>,
    #[description = "default or high-contrast"]
    #[choices("default", "high-contrast")]
    theme: Option<&'static str>,
    #[description = "Your turns and reminders: channel (a ping, default), dm, or both"]
    notify: Option<NotifyOption>,
) -> Result<(), Error> {
    let me = actor(ctx).await;
    let s = &ctx.data().service;
    let notify = notify.map(Into::into);
    answer_privately(ctx, async {
        s.people().settings(&me, style, theme, notify).await
    })
    .await
}

/// Stop your clocks while you are away, within your days a year
#[poise::command(
    slash_command,
    subcommands("vacation_start", "vacation_end"),
    subcommand_required
)]
async fn vacation(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Go on vacation: every clock of yours stands still until you are back
#[poise::command(slash_command, rename = "start")]
async fn vacation_start(
    ctx: Context<'_>,
    #[description = "How many days (default: all you have left this year)"]
    #[min = 1]
    #[max = 365]
    days: Option<u32>,
) -> Result<(), Error> {
    let me = actor(ctx).await;
    let s = &ctx.data().service;
    answer_privately(ctx, async { s.matches().start_vacation(&me, days).await }).await
}

/// Come back early: your clocks run again
#[poise::command(slash_command, rename = "end")]
async fn vacation_end(ctx: Context<'_>) -> Result<(), Error> {
    let me = actor(ctx).await;
    let s = &ctx.data().service;
    answer_privately(ctx, async { s.matches().end_vacation(&me).await }).await
}

/// How Thud is played here, for each variant
#[poise::command(slash_command)]
async fn rules(
    ctx: Context<'_>,
    #[description = "classic (default), original or koom-valley"] variant: Option<VariantOption>,
) -> Result<(), Error> {
    let s = &ctx.data().service;
    answer_privately(ctx, async { s.people().rules(variant.map(Into::into)) }).await
}
