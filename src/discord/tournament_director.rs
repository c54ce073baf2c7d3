//! `/thud tournament correct|add|reinstate`: what a tournament director fixes by hand while a
//! tournament runs (organisers only).

use poise::serenity_prelude as serenity;

use super::organisers::is_organiser;
use super::{actor, actor_of, answer, place, Context, Error};
use crate::store::{MatchId, UserId};

/// Correct a finished game's result: name the winner, or leave it out for a draw (organisers only)
#[poise::command(slash_command)]
pub(super) async fn correct(
    ctx: Context<'_>,
    #[description = "The match number of the game (#12)"]
    #[min = 1]
    r#match: u64,
    #[description = "Who wins it; leave out for a draw"] winner: Option<serenity::User>,
) -> Result<(), Error> {
    let me = actor(ctx).await;
    let s = &ctx.data().service;
    answer(ctx, async {
        let organiser = is_organiser(ctx).await?;
        let winner = winner.map(|w| UserId(w.id.get()));
        s.tournaments()
            .correct_result(place(ctx)?, &me, organiser, MatchId(r#match), winner)
            .await
    })
    .await
}

/// Add a player to this channel's running Swiss, paired from the next round (organisers only)
#[poise::command(slash_command)]
pub(super) async fn add(
    ctx: Context<'_>,
    #[description = "The player who joins late"] player: serenity::User,
) -> Result<(), Error> {
    let me = actor(ctx).await;
    let s = &ctx.data().service;
    answer(ctx, async {
        let organiser = is_organiser(ctx).await?;
        s.tournaments()
            .add_late_entry(place(ctx)?, &me, organiser, &actor_of(&player))
            .await
    })
    .await
}

/// Take a withdrawn player back, paired from the next round (organisers only)
#[poise::command(slash_command)]
pub(super) async fn reinstate(
    ctx: Context<'_>,
    #[description = "The withdrawn player"] player: serenity::User,
) -> Result<(), Error> {
    let me = actor(ctx).await;
    let s = &ctx.data().service;
    answer(ctx, async {
        let organiser = is_organiser(ctx).await?;
        s.tournaments()
            .reinstate(place(ctx)?, &me, organiser, UserId(player.id.get()))
            .await
    })
    .await
}
