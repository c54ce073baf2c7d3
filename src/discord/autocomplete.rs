//! Autocomplete from the legal moves of the current position: `from` offers the player's
//! movable pieces, `to` where the chosen piece can go, `capture` what it can take there.

use std::collections::HashMap;

use poise::serenity_prelude as serenity;

use super::{place, Context};
use crate::service::{Actor, Choice, Verb};
use crate::store::UserId;

/// Discord shows at most 25 choices.
const MAX_CHOICES: usize = 25;

/// The subcommand being typed and the options filled in so far (the focused one included).
fn typed(ctx: Context<'_>) -> (String, HashMap<String, String>) {
    let mut values = HashMap::new();
    let poise::Context::Application(app) = ctx else {
        return (String::new(), values);
    };
    let Some(sub) = app.interaction.data.options.first() else {
        return (String::new(), values);
    };
    if let serenity::CommandDataOptionValue::SubCommand(options) = &sub.value {
        for o in options {
            let value = match &o.value {
                serenity::CommandDataOptionValue::String(s) => s.clone(),
                serenity::CommandDataOptionValue::Autocomplete { value, .. } => value.clone(),
                _ => continue,
            };
            values.insert(o.name.clone(), value);
        }
    }
    (sub.name.clone(), values)
}

fn verb_of(subcommand: &str) -> Verb {
    match subcommand {
        "hurl" => Verb::Hurl,
        "shove" => Verb::Shove,
        _ => Verb::Move,
    }
}

/// Who is typing; autocomplete needs only their id.
fn typist(ctx: Context<'_>) -> Actor {
    Actor::new(UserId(ctx.author().id.get()), &ctx.author().name)
}

fn response(choices: Vec<Choice>) -> serenity::CreateAutocompleteResponse {
    serenity::CreateAutocompleteResponse::new().set_choices(
        choices
            .into_iter()
            .take(MAX_CHOICES)
            .map(|c| serenity::AutocompleteChoice::new(c.name, c.value))
            .collect(),
    )
}

pub async fn complete_from(
    ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    let Ok(place) = place(ctx) else {
        return response(Vec::new());
    };
    let (sub, _) = typed(ctx);
    let choices = ctx
        .data()
        .service
        .matches()
        .suggest_from(place, &typist(ctx), verb_of(&sub), partial)
        .await;
    response(choices)
}

pub async fn complete_to(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let Ok(place) = place(ctx) else {
        return response(Vec::new());
    };
    let (sub, values) = typed(ctx);
    let from = values.get("from").map(String::as_str).unwrap_or("");
    let choices = ctx
        .data()
        .service
        .matches()
        .suggest_to(place, &typist(ctx), verb_of(&sub), from, partial)
        .await;
    response(choices)
}

pub async fn complete_capture(
    ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    let Ok(place) = place(ctx) else {
        return response(Vec::new());
    };
    let (sub, values) = typed(ctx);
    let get = |name: &str| values.get(name).map(String::as_str).unwrap_or("");
    let choices = ctx
        .data()
        .service
        .matches()
        .suggest_captures(
            place,
            &typist(ctx),
            verb_of(&sub),
            get("from"),
            get("to"),
            partial,
        )
        .await;
    response(choices)
}

pub async fn complete_notation(
    ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    let Ok(place) = place(ctx) else {
        return response(Vec::new());
    };
    let choices = ctx
        .data()
        .service
        .matches()
        .suggest_notation(place, &typist(ctx), partial)
        .await;
    response(choices)
}
