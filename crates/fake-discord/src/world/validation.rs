//! Discord's checks on command registrations, messages and autocomplete results.

use std::collections::HashSet;

use serde_json::Value;

use super::{at, flag, str_len, Answer};
use crate::record::RecordedFile;

/// The invoked command's full name, e.g. `thud challenge`.
pub(super) fn command_path(data: &Value) -> String {
    let mut parts = Vec::new();
    if let Some(name) = data.get("name").and_then(Value::as_str) {
        parts.push(name.to_string());
    }
    let mut options = data.get("options").and_then(Value::as_array);
    while let Some(list) = options {
        let Some(nested) = list
            .iter()
            .find(|o| matches!(o["type"].as_u64(), Some(1 | 2)))
        else {
            break;
        };
        parts.push(nested["name"].as_str().unwrap_or("").to_string());
        options = nested.get("options").and_then(Value::as_array);
    }
    parts.join(" ")
}

pub(super) fn command_type(command: &Value) -> u64 {
    command.get("type").and_then(Value::as_u64).unwrap_or(1)
}

/// Discord's naming rule for commands and options.
pub(super) fn valid_name(name: &str) -> bool {
    let length = name.chars().count();
    (1..=32).contains(&length)
        && name.chars().all(|c| {
            (c.is_alphanumeric() || c == '-' || c == '_' || c == '\'') && c.to_lowercase().eq([c])
        })
}

/// Checks one command as Discord checks registrations.
pub(super) fn validate_command(command: &Value, path: &[String]) -> Result<(), Answer> {
    let field =
        |name: &str| -> Vec<String> { path.iter().cloned().chain([name.to_string()]).collect() };
    let name = command.get("name").and_then(Value::as_str).unwrap_or("");
    let kind = command_type(command);
    if kind == 1 && !valid_name(name) {
        return Err(Answer::invalid_form(
            &field("name"),
            "APPLICATION_COMMAND_INVALID_NAME",
            "Command name is invalid",
        ));
    }
    let description = str_len(command.get("description"));
    if kind == 1 && !(1..=100).contains(&description) {
        return Err(Answer::invalid_form(
            &field("description"),
            "BASE_TYPE_BAD_LENGTH",
            "Must be between 1 and 100 in length.",
        ));
    }
    if kind != 1 && description != 0 {
        return Err(Answer::invalid_form(
            &field("description"),
            "APPLICATION_COMMAND_INVALID_DESCRIPTION",
            "Context menu commands cannot have description",
        ));
    }
    validate_options(command.get("options"), &field("options"), 0)
}

/// Checks an option list; `depth` 0 is the command's own list, 1 a group's, 2 a subcommand's.
pub(super) fn validate_options(
    options: Option<&Value>,
    path: &[String],
    depth: u8,
) -> Result<(), Answer> {
    let Some(options) = options.filter(|o| !o.is_null()) else {
        return Ok(());
    };
    let Some(options) = options.as_array() else {
        return Err(Answer::invalid_form(
            path,
            "BASE_TYPE_ARRAY",
            "Must be an array.",
        ));
    };
    if options.len() > 25 {
        return Err(Answer::invalid_form(
            path,
            "BASE_TYPE_MAX_LENGTH",
            "Must be 25 or fewer in length.",
        ));
    }
    let mut names = HashSet::new();
    let mut seen_optional = false;
    for (i, option) in options.iter().enumerate() {
        let field = |name: &str| -> Vec<String> {
            path.iter()
                .cloned()
                .chain([i.to_string(), name.to_string()])
                .collect()
        };
        let kind = option.get("type").and_then(Value::as_u64).unwrap_or(0);
        if !(1..=11).contains(&kind) {
            return Err(Answer::invalid_form(
                &field("type"),
                "BASE_TYPE_CHOICES",
                "Value must be one of {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}.",
            ));
        }
        let name = option.get("name").and_then(Value::as_str).unwrap_or("");
        if !valid_name(name) {
            return Err(Answer::invalid_form(
                &field("name"),
                "APPLICATION_COMMAND_INVALID_NAME",
                "Command name is invalid",
            ));
        }
        if !names.insert(name) {
            return Err(Answer::invalid_form(
                &field("name"),
                "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                "Option names must be unique",
            ));
        }
        if !(1..=100).contains(&str_len(option.get("description"))) {
            return Err(Answer::invalid_form(
                &field("description"),
                "BASE_TYPE_BAD_LENGTH",
                "Must be between 1 and 100 in length.",
            ));
        }
        let nesting = kind == 1 || kind == 2;
        if nesting && (depth == 2 || (kind == 2 && depth == 1)) {
            return Err(Answer::invalid_form(
                &field("type"),
                "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                "Subcommands and groups cannot be nested here",
            ));
        }
        if nesting {
            let inner_depth = if kind == 2 { 1 } else { 2 };
            if kind == 2 {
                let all_subcommands = option["options"]
                    .as_array()
                    .is_some_and(|o| o.iter().all(|s| s["type"] == 1));
                if !all_subcommands {
                    return Err(Answer::invalid_form(
                        &field("options"),
                        "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                        "A subcommand group may only contain subcommands",
                    ));
                }
            }
            validate_options(option.get("options"), &field("options"), inner_depth)?;
            continue;
        }
        let required = option
            .get("required")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        if required && seen_optional {
            return Err(Answer::invalid_form(
                &field("required"),
                "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                "Required options must be placed before non-required options",
            ));
        }
        seen_optional |= !required;
        let choices = option
            .get("choices")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        if choices > 25 {
            return Err(Answer::invalid_form(
                &field("choices"),
                "BASE_TYPE_MAX_LENGTH",
                "Must be 25 or fewer in length.",
            ));
        }
        if choices > 0
            && option
                .get("autocomplete")
                .and_then(Value::as_bool)
                .unwrap_or(false)
        {
            return Err(Answer::invalid_form(
                &field("autocomplete"),
                "APPLICATION_COMMAND_OPTION_CHOICES_AUTOCOMPLETE",
                "Autocomplete cannot be set on an option with choices",
            ));
        }
    }
    Ok(())
}

/// Checks message content, components and allowed mentions; `creating` also rejects an empty
/// message.
pub(super) fn validate_message(
    message: &Value,
    files: &[RecordedFile],
    creating: bool,
    path: &[String],
) -> Result<(), Answer> {
    let field = |parts: &[&dyn ToString]| -> Vec<String> {
        path.iter().cloned().chain(at(parts)).collect()
    };
    if str_len(message.get("content")) > 2000 {
        return Err(Answer::invalid_form(
            &field(&[&"content"]),
            "BASE_TYPE_MAX_LENGTH",
            "Must be 2000 or fewer in length.",
        ));
    }
    let embeds = message
        .get("embeds")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    if embeds > 10 {
        return Err(Answer::invalid_form(
            &field(&[&"embeds"]),
            "BASE_TYPE_MAX_LENGTH",
            "Must be 10 or fewer in length.",
        ));
    }
    let flags = message.get("flags").and_then(Value::as_u64).unwrap_or(0);
    let rows = message
        .get("components")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if flags & flag::IS_COMPONENTS_V2 == 0 {
        if rows.len() > 5 {
            return Err(Answer::invalid_form(
                &field(&[&"components"]),
                "BASE_TYPE_MAX_LENGTH",
                "Must be 5 or fewer in length.",
            ));
        }
        let mut custom_ids = HashSet::new();
        for (r, row) in rows.iter().enumerate() {
            let children = row
                .get("components")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            if row["type"] != 1 || children.is_empty() || children.len() > 5 {
                return Err(Answer::invalid_form(
                    &field(&[&"components", &r]),
                    "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                    "An action row must hold 1 to 5 buttons or one select menu",
                ));
            }
            for (c, child) in children.iter().enumerate() {
                let child_field =
                    |name: &str| field(&[&"components", &r, &"components", &c, &name]);
                let kind = child["type"].as_u64().unwrap_or(0);
                let is_select = matches!(kind, 3 | 5 | 6 | 7 | 8);
                if is_select && children.len() != 1 {
                    return Err(Answer::invalid_form(
                        &child_field("type"),
                        "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                        "A select menu must be alone in its row",
                    ));
                }
                if kind != 2 && !is_select {
                    return Err(Answer::invalid_form(
                        &child_field("type"),
                        "UNION_TYPE_CHOICES",
                        "Value of field \"type\" must be one of (2, 3, 5, 6, 7, 8).",
                    ));
                }
                if str_len(child.get("label")) > 80 {
                    return Err(Answer::invalid_form(
                        &child_field("label"),
                        "BASE_TYPE_MAX_LENGTH",
                        "Must be 80 or fewer in length.",
                    ));
                }
                let link = kind == 2 && child["style"] == 5;
                let premium = kind == 2 && child["style"] == 6;
                if link {
                    if str_len(child.get("url")) == 0 {
                        return Err(Answer::invalid_form(
                            &child_field("url"),
                            "BASE_TYPE_REQUIRED",
                            "This field is required",
                        ));
                    }
                } else if !premium {
                    let custom_id = child.get("custom_id").and_then(Value::as_str).unwrap_or("");
                    if !(1..=100).contains(&custom_id.chars().count()) {
                        return Err(Answer::invalid_form(
                            &child_field("custom_id"),
                            "BASE_TYPE_BAD_LENGTH",
                            "Must be between 1 and 100 in length.",
                        ));
                    }
                    if !custom_ids.insert(custom_id.to_string()) {
                        return Err(Answer::invalid_form(
                            &child_field("custom_id"),
                            "COMPONENT_CUSTOM_ID_DUPLICATED",
                            "Component custom id cannot be duplicated",
                        ));
                    }
                }
            }
        }
    }
    if let Some(allowed) = message.get("allowed_mentions").filter(|a| !a.is_null()) {
        let parse: Vec<&str> = allowed
            .get("parse")
            .and_then(Value::as_array)
            .map(|p| p.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if let Some(bad) = parse
            .iter()
            .find(|p| !["users", "roles", "everyone"].contains(p))
        {
            return Err(Answer::invalid_form(
                &field(&[&"allowed_mentions", &"parse"]),
                "BASE_TYPE_CHOICES",
                &format!("Value \"{bad}\" is not one of ('roles', 'users', 'everyone')."),
            ));
        }
        for kind in ["users", "roles"] {
            let listed = allowed
                .get(kind)
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            if listed > 100 {
                return Err(Answer::invalid_form(
                    &field(&[&"allowed_mentions", &kind]),
                    "BASE_TYPE_MAX_LENGTH",
                    "Must be 100 or fewer in length.",
                ));
            }
            if listed > 0 && parse.contains(&kind) {
                return Err(Answer::invalid_form(
                    &field(&[&"allowed_mentions"]),
                    "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                    &format!("parse:[\"{kind}\"] and {kind}: [ids] are mutually exclusive."),
                ));
            }
        }
    }
    if creating {
        let has_content = str_len(message.get("content")) > 0;
        let has_attachments = !files.is_empty()
            || message
                .get("attachments")
                .and_then(Value::as_array)
                .is_some_and(|a| !a.is_empty());
        let has_other = ["sticker_ids", "poll"]
            .iter()
            .any(|k| message.get(*k).is_some_and(|v| !v.is_null()));
        if !(has_content || embeds > 0 || has_attachments || !rows.is_empty() || has_other) {
            return Err(Answer::error(400, 50006, "Cannot send an empty message"));
        }
    }
    Ok(())
}

/// Checks an autocomplete result (callback type 8).
pub(super) fn validate_choices(data: &Value) -> Result<(), Answer> {
    let Some(choices) = data.get("choices").and_then(Value::as_array) else {
        return Err(Answer::invalid_form(
            &at(&[&"data", &"choices"]),
            "BASE_TYPE_REQUIRED",
            "This field is required",
        ));
    };
    if choices.len() > 25 {
        return Err(Answer::invalid_form(
            &at(&[&"data", &"choices"]),
            "BASE_TYPE_MAX_LENGTH",
            "Must be 25 or fewer in length.",
        ));
    }
    for (i, choice) in choices.iter().enumerate() {
        if !(1..=100).contains(&str_len(choice.get("name"))) {
            return Err(Answer::invalid_form(
                &at(&[&"data", &"choices", &i, &"name"]),
                "BASE_TYPE_BAD_LENGTH",
                "Must be between 1 and 100 in length.",
            ));
        }
        match choice.get("value") {
            Some(Value::String(s)) if s.chars().count() <= 100 => {}
            Some(Value::Number(_)) => {}
            _ => {
                return Err(Answer::invalid_form(
                    &at(&[&"data", &"choices", &i, &"value"]),
                    "BASE_TYPE_BAD_LENGTH",
                    "Must be between 1 and 100 in length.",
                ));
            }
        }
    }
    Ok(())
}

/// Checks uploads against Discord's limits: at most 10 attachments a message (50035, like any
/// array over its maximum length), every file within the upload limit (docs/reference.mdx,
/// "Uploading Files": "The file upload size limit applies to each file in a request. The default
/// limit is 10 MiB"; too big is HTTP 413 with 40005 "Request entity too large"), and attachment
/// descriptions of at most 1,024 characters (docs/resources/message.md, attachment object).
pub(super) fn validate_uploads(
    message: &Value,
    files: &[RecordedFile],
    upload_limit: u64,
) -> Result<(), Answer> {
    let listed = message
        .get("attachments")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if listed.len() > 10 || files.len() > 10 {
        return Err(Answer::invalid_form(
            &at(&[&"attachments"]),
            "BASE_TYPE_MAX_LENGTH",
            "Must be 10 or fewer in length.",
        ));
    }
    if files.iter().any(|f| f.data.len() as u64 > upload_limit) {
        return Err(Answer::error(413, 40005, "Request entity too large"));
    }
    for (i, entry) in listed.iter().enumerate() {
        if str_len(entry.get("description")) > 1024 {
            return Err(Answer::invalid_form(
                &at(&[&"attachments", &i, &"description"]),
                "BASE_TYPE_MAX_LENGTH",
                "Must be 1024 or fewer in length.",
            ));
        }
    }
    Ok(())
}
