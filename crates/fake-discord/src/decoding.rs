//! Reads the gateway frames the fake sent the way serenity's shard does, to find payloads
//! serenity would drop.
//!
//! serenity's `Event` ends in `#[serde(untagged)] Unknown(UnknownEvent)`: a known event whose
//! `d` does not fit serenity's model silently becomes `Event::Unknown`, is never handed to
//! poise or to event handlers, and nothing is logged. Only decoding the frames again shows it.

use serde::de::DeserializeOwned;
use serde_json::Value;
use serenity::model::event::{Event, GatewayEvent};

use super::world::{Direction, GatewayFrame};

/// Why serenity would not read this `d` as the model its event name calls for.
fn model_error<T: DeserializeOwned>(data: &Value) -> String {
    match serde_json::from_value::<T>(data.clone()) {
        Ok(_) => "decodes alone, but not as a gateway event".to_string(),
        Err(e) => e.to_string(),
    }
}

/// A description of each frame the fake sent that serenity would drop or misread.
pub fn unreadable(frames: &[GatewayFrame]) -> Vec<String> {
    frames
        .iter()
        .filter(|f| f.direction == Direction::Sent)
        .filter_map(|frame| {
            let payload = &frame.payload;
            let name = payload["t"].as_str().unwrap_or("").to_string();
            let problem = match serde_json::from_value::<GatewayEvent>(payload.clone()) {
                Err(e) => Some(e.to_string()),
                Ok(GatewayEvent::Dispatch(_, Event::Unknown(_))) => {
                    let data = &payload["d"];
                    Some(match name.as_str() {
                        "READY" => model_error::<serenity::model::gateway::Ready>(data),
                        "GUILD_CREATE" => model_error::<serenity::model::guild::Guild>(data),
                        "INTERACTION_CREATE" => {
                            model_error::<serenity::model::application::Interaction>(data)
                        }
                        "MESSAGE_CREATE" => model_error::<serenity::model::channel::Message>(data),
                        "MESSAGE_UPDATE" => {
                            model_error::<serenity::model::event::MessageUpdateEvent>(data)
                        }
                        "MESSAGE_DELETE" => {
                            model_error::<serenity::model::event::MessageDeleteEvent>(data)
                        }
                        "THREAD_CREATE" | "THREAD_UPDATE" | "CHANNEL_UPDATE" | "CHANNEL_DELETE" => {
                            model_error::<serenity::model::channel::GuildChannel>(data)
                        }
                        "THREAD_DELETE" => {
                            model_error::<serenity::model::channel::PartialGuildChannel>(data)
                        }
                        "GUILD_DELETE" => {
                            model_error::<serenity::model::guild::UnavailableGuild>(data)
                        }
                        "GUILD_ROLE_UPDATE" => {
                            model_error::<serenity::model::event::GuildRoleUpdateEvent>(data)
                        }
                        _ => "serenity does not know this event".to_string(),
                    })
                }
                Ok(_) => None,
            };
            problem.map(|why| {
                format!(
                    "connection {} {} {name}: {why}",
                    frame.connection, payload["op"]
                )
            })
        })
        .collect()
}
