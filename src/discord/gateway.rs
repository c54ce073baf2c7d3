//! What the gateway sends besides commands: every event goes to `events` (channels, threads
//! and members the matches depend on), and a button press to `buttons`.

use poise::serenity_prelude as serenity;

use super::{buttons, events, Data, Error};
use crate::service::Action;

/// poise's event handler.
pub async fn on_event(
    framework: poise::FrameworkContext<'_, Data, Error>,
    event: &serenity::FullEvent,
) -> Result<(), Error> {
    events::on_event(framework.serenity_context, framework.user_data, event).await;
    if let serenity::FullEvent::InteractionCreate {
        interaction: serenity::Interaction::Component(press),
    } = event
    {
        if let Some(action) = Action::parse(&press.data.custom_id) {
            buttons::pressed(
                framework.serenity_context,
                framework.user_data,
                press,
                action,
            )
            .await?;
        }
    }
    Ok(())
}
