//! One name for every option wherever it is read: each option of each command registered with
//! Discord is one the console takes under the same command, and the console's help and the
//! README name it too.

use serde_json::Value;

/// Discord's option types for a subcommand and a group of them.
const SUB_COMMAND: u64 = 1;
const SUB_COMMAND_GROUP: u64 = 2;

/// What is done with each subcommand: its group (if any), its name and its parameters' names.
type Each<'a> = dyn FnMut(Option<&str>, &str, Vec<String>) + 'a;

/// Calls `each(group, subcommand, parameters)` for every subcommand of `command`.
fn subcommands(command: &Value, each: &mut Each<'_>) {
    let options = command["options"].as_array().cloned().unwrap_or_default();
    let params = |sub: &Value| -> Vec<String> {
        sub["options"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|o| o["type"].as_u64().is_some_and(|t| t > SUB_COMMAND_GROUP))
            .filter_map(|o| o["name"].as_str().map(str::to_string))
            .collect()
    };
    for option in &options {
        let name = option["name"].as_str().unwrap_or_default();
        match option["type"].as_u64() {
            Some(SUB_COMMAND) => each(None, name, params(option)),
            Some(SUB_COMMAND_GROUP) => {
                for sub in option["options"].as_array().into_iter().flatten() {
                    each(
                        Some(name),
                        sub["name"].as_str().unwrap_or_default(),
                        params(sub),
                    );
                }
            }
            _ => {}
        }
    }
}

#[test]
fn discord_the_console_its_help_and_the_readme_name_every_option_alike() {
    let help = thudbot::console::help();
    let readme = include_str!("../../README.md");
    let commands = thudbot::discord::registered_commands();
    let mut checked = 0;
    let mut wrong = Vec::new();
    for command in commands.as_array().expect("a list of commands") {
        subcommands(command, &mut |group, sub, params| {
            // The console names a group's subcommand by itself (`leaderboard`) or, where the
            // group is one command with an `action` (`tournament`, `vacation`), by the group.
            let console = [Some(sub), group]
                .into_iter()
                .flatten()
                .find(|name| thudbot::console::options_of(name).is_some());
            let Some(console) = console else {
                wrong.push(format!("{sub}: not a console command"));
                return;
            };
            let takes = thudbot::console::options_of(console).unwrap_or_default();
            // Server roles are Discord's alone: the console has none to name.
            if sub == "organisers" {
                return;
            }
            for param in params {
                checked += 1;
                if !takes.contains(&param.as_str()) {
                    wrong.push(format!("{sub} {param}: the console does not take it"));
                }
                if !help.contains(&format!("{param}:")) {
                    wrong.push(format!(
                        "{sub} {param}: the console's help does not name it"
                    ));
                }
                if !readme.contains(&format!("`{param}`")) && !readme.contains(&format!("{param}:"))
                {
                    wrong.push(format!("{sub} {param}: the README does not name it"));
                }
            }
        });
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
    assert!(checked > 30, "only {checked} options were found");
}
