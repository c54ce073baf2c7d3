//! `/thud plan`: conditional moves, answered to the asking player alone. One subcommand, not
//! a group: Discord counts every character of `/thud`'s options against 4,000.

use super::{actor, answer_privately, place, Context, Error};

/// Answer your opponent's next moves in advance; only you see it
#[poise::command(slash_command)]
pub async fn plan(
    ctx: Context<'_>,
    #[description = "Their move, your answer, …: TG7-F6 dF1-F5 (empty: show your plan)"]
    #[max_length = 400]
    line: Option<String>,
    #[description = "true drops your plan (with a line: starts it again)"] clear: Option<bool>,
) -> Result<(), Error> {
    let me = actor(ctx).await;
    let s = &ctx.data().service;
    answer_privately(ctx, async {
        let place = place(ctx)?;
        match (line, clear) {
            (Some(line), clear) => {
                s.matches()
                    .plan(place, &me, &line, clear == Some(true))
                    .await
            }
            (None, Some(true)) => s.matches().clear_plan(place, &me).await,
            (None, _) => s.matches().show_plan(place, &me).await,
        }
    })
    .await
}
