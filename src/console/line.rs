//! Reading a console line: `alice: /thud move from:F1 to:F5`, optionally `alice@2:` to act in
//! channel 2.

/// One typed command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub player: String,
    /// The channel number, 1 unless given with `@`.
    pub channel: u64,
    pub subcommand: String,
    /// `option:value` pairs in order; a value runs up to the next ` name:`.
    pub options: Vec<(String, String)>,
}

impl Line {
    /// The value of option `name`, if given.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Why a line could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    #[error("write lines as `<player>: /thud <subcommand> [option:value ...]`, e.g. `alice: /thud challenge opponent:bob`")]
    Shape,
    #[error("`{0}` is not a channel number")]
    Channel(String),
    #[error("`{0}` is not option:value")]
    Option(String),
}

/// Reads a line; `Ok(None)` for blank lines and `#` comments.
pub fn parse(text: &str) -> Result<Option<Line>, LineError> {
    let text = text.trim();
    if text.is_empty() || text.starts_with('#') {
        return Ok(None);
    }
    // `/thud help` needs nobody to ask it: the README shows it so, before any player exists.
    if text.starts_with('/') {
        return match command(String::new(), 1, text)? {
            line if line.subcommand == "help" => Ok(Some(line)),
            _ => Err(LineError::Shape),
        };
    }
    let (who, command_text) = text.split_once(':').ok_or(LineError::Shape)?;
    let (player, channel) = match who.trim().split_once('@') {
        Some((p, c)) => (
            p.trim(),
            c.trim()
                .parse::<u64>()
                .map_err(|_| LineError::Channel(crate::service::echo(c.trim())))?,
        ),
        None => (who.trim(), 1),
    };
    if player.is_empty() || player.contains(char::is_whitespace) {
        return Err(LineError::Shape);
    }
    command(player.to_string(), channel, command_text).map(Some)
}

/// Reads the command part of a line, `/thud move from:F1 to:F5`, typed by `player`.
fn command(player: String, channel: u64, command: &str) -> Result<Line, LineError> {
    let command = command.trim();
    // `/thud-admin` holds what Discord lets servers gate per role (abort, organising
    // tournaments); the console is the operator's own table, where everyone may use it.
    let rest = command
        .strip_prefix("/thud-admin")
        .or_else(|| command.strip_prefix("/thud"))
        .ok_or(LineError::Shape)?;
    if !rest.is_empty() && !rest.starts_with(char::is_whitespace) {
        return Err(LineError::Shape);
    }
    let rest = rest.trim_start();
    let (subcommand, args) = match rest.split_once(char::is_whitespace) {
        Some((s, a)) => (s, a.trim()),
        None => (rest, ""),
    };
    if subcommand.is_empty() {
        return Err(LineError::Shape);
    }
    let subcommand = subcommand.to_ascii_lowercase();
    // A command group's own subcommand (`/thud vacation start`) is read as its `action`.
    let (action, args) = match (
        GROUPS.contains(&subcommand.as_str()),
        args.split_once(char::is_whitespace),
    ) {
        (true, _) if !args.is_empty() && !args.contains(':') => (Some(args), ""),
        (true, Some((word, rest))) if !word.contains(':') => (Some(word), rest.trim()),
        _ => (None, args),
    };
    let mut options = options(args)?;
    let mut subcommand = subcommand;
    match action.map(str::to_ascii_lowercase) {
        // `/thud ladder stats` and `/thud review record` group commands that are read alone;
        // a group without one of them is left whole, to be answered with its usage.
        Some(action) if group_of(&action) == Some(subcommand.as_str()) => subcommand = action,
        Some(action) => options.insert(0, ("action".to_string(), action)),
        None => {}
    }
    Ok(Line {
        player,
        channel,
        subcommand,
        options,
    })
}

/// The options each command takes, named as on Discord, in the README and in `/thud help`
/// (`action` is a group's subcommand, or `end`'s choice).
const OPTIONS: &[(&str, &[&str])] = &[
    (
        "challenge",
        &["opponent", "side", "variant", "days", "rated", "level"],
    ),
    ("accept", &["challenge"]),
    ("decline", &["challenge"]),
    ("cancel", &["challenge"]),
    ("move", &["from", "to", "capture"]),
    ("hurl", &["from", "to", "capture"]),
    ("shove", &["from", "to", "capture"]),
    ("play", &["notation"]),
    ("plan", &["line", "clear"]),
    ("board", &["style"]),
    ("end", &["action"]),
    ("resign", &[]),
    ("claim", &[]),
    ("games", &["scope"]),
    ("leaderboard", &["scope", "page"]),
    ("stats", &["player"]),
    ("history", &["player"]),
    ("record", &["match"]),
    ("replay", &["match", "battle", "theme"]),
    ("settings", &["style", "theme", "notify"]),
    ("vacation", &["action", "days"]),
    ("rules", &["variant"]),
    ("abort", &[]),
    (
        "tournament",
        &[
            "action",
            "name",
            "format",
            "rounds",
            "variant",
            "days",
            "round_length",
            "starts",
            "page",
            "match",
            "winner",
            "player",
        ],
    ),
    ("press", &["button"]),
    ("analysis", &["match"]),
    ("help", &[]),
];

/// The options the console's command `subcommand` takes; `None` for no such command.
pub fn options_of(subcommand: &str) -> Option<&'static [&'static str]> {
    OPTIONS
        .iter()
        .find(|(c, _)| *c == subcommand)
        .map(|(_, known)| *known)
}

/// The options of each tournament action, and whether it is an organiser's
/// (`/thud-admin tournament …`) or a player's (`/thud tournament …`).
const TOURNAMENT_ACTIONS: &[(&str, bool, &[&str])] = &[
    (
        "create",
        true,
        &[
            "name",
            "format",
            "rounds",
            "variant",
            "days",
            "round_length",
            "starts",
        ],
    ),
    ("start", true, &[]),
    ("cancel", true, &[]),
    ("correct", true, &["match", "winner"]),
    ("add", true, &["player"]),
    ("reinstate", true, &["player"]),
    ("join", false, &[]),
    ("leave", false, &[]),
    ("withdraw", false, &[]),
    ("standings", false, &["page"]),
];

impl Line {
    /// Why the line names an option its command does not take (a typo such as `dayz:1`
    /// would otherwise be ignored unsaid); `None` when every option is known.
    pub fn unknown_option(&self) -> Option<String> {
        let (_, known) = OPTIONS.iter().find(|(c, _)| *c == self.subcommand)?;
        let action = self.get("action").unwrap_or_default();
        // A tournament action takes options of its own, not every one the group's do.
        let (command, known, action_given) = match TOURNAMENT_ACTIONS
            .iter()
            .find(|(a, _, _)| self.subcommand == "tournament" && *a == action)
        {
            Some((a, true, takes)) => (format!("/thud-admin tournament {a}"), *takes, true),
            Some((a, false, takes)) => (format!("/thud tournament {a}"), *takes, true),
            None => (self.command_name(), *known, false),
        };
        let (bad, _) = self
            .options
            .iter()
            .find(|(k, _)| !(known.contains(&k.as_str()) || action_given && k == "action"))?;
        let known: Vec<String> = known
            .iter()
            .filter(|k| **k != "action")
            .map(|k| format!("{k}:"))
            .collect();
        let takes = match known.is_empty() {
            true => "no options".to_string(),
            false => known.join(" "),
        };
        Some(format!(
            "`{}` is not an option of `{command}`; it takes {takes}",
            crate::service::echo(bad),
        ))
    }

    /// The command as Discord names it: `/thud ladder stats`, `/thud-admin abort`.
    fn command_name(&self) -> String {
        match (self.subcommand.as_str(), group_of(&self.subcommand)) {
            ("abort", _) => "/thud-admin abort".to_string(),
            (sub, Some(group)) => format!("/thud {group} {sub}"),
            (sub, None) => format!("/thud {sub}"),
        }
    }
}

/// The commands that are groups of subcommands on Discord.
const GROUPS: [&str; 4] = ["vacation", "tournament", "ladder", "review"];

/// The groups whose subcommands the console reads as commands of their own, with them.
const FLAT_GROUPS: &[(&str, &[&str])] = &[
    ("ladder", &["leaderboard", "stats", "history"]),
    ("review", &["record", "replay", "analysis"]),
];

/// The group whose subcommand `subcommand` is read as a command of its own, if any.
fn group_of(subcommand: &str) -> Option<&'static str> {
    FLAT_GROUPS
        .iter()
        .find(|(_, subs)| subs.contains(&subcommand))
        .map(|(group, _)| *group)
}

/// How to write a group's lines when it is typed without one of its subcommands:
/// `ladder leaderboard|stats|history`; `None` for a command that is no such group.
pub(super) fn group_usage(group: &str) -> Option<String> {
    FLAT_GROUPS
        .iter()
        .find(|(g, _)| *g == group)
        .map(|(g, subs)| format!("write `{g} {}`", subs.join("|")))
}

/// Splits `a:1 b:E5, F5 c:x` into pairs; a word followed by `:` starts a new option.
fn options(args: &str) -> Result<Vec<(String, String)>, LineError> {
    let mut out: Vec<(String, String)> = Vec::new();
    for word in args.split_whitespace() {
        let starts_option = word.split_once(':').is_some_and(|(k, _)| {
            !k.is_empty() && k.chars().all(|c| c.is_ascii_alphabetic() || c == '_')
        });
        match (starts_option, out.last_mut()) {
            (true, _) => {
                let (k, v) = word.split_once(':').unwrap_or((word, ""));
                out.push((k.to_ascii_lowercase(), v.to_string()));
            }
            (false, Some((_, v))) => {
                if !v.is_empty() {
                    v.push(' ');
                }
                v.push_str(word);
            }
            (false, None) => return Err(LineError::Option(crate::service::echo(word))),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_option_is_named_and_a_known_one_with_an_underscore_is_read() {
        let line = parse("alice: /thud challenge opponent:bob dayz:1")
            .unwrap()
            .unwrap();
        let why = line.unknown_option().expect("dayz is refused");
        assert!(
            why.contains("`dayz` is not an option of `/thud challenge`"),
            "{why}"
        );
        assert!(why.contains("days:"), "{why}");
        let line = parse("olga: /thud tournament create name:Autumn Cup round_length:3")
            .unwrap()
            .unwrap();
        assert_eq!(line.get("name"), Some("Autumn Cup"));
        assert_eq!(line.get("round_length"), Some("3"));
        assert_eq!(line.unknown_option(), None);
        let line = parse("alice: /thud resign now:yes").unwrap().unwrap();
        assert!(line.unknown_option().unwrap().contains("takes no options"));
    }

    #[test]
    fn an_unknown_option_names_the_command_as_discord_does_and_its_own_options() {
        let why = |text: &str| parse(text).unwrap().unwrap().unknown_option();
        assert_eq!(
            why("olga: /thud-admin tournament create name:Cup page:2").as_deref(),
            Some(
                "`page` is not an option of `/thud-admin tournament create`; it takes name: \
                 format: rounds: variant: days: round_length: starts:"
            )
        );
        assert_eq!(
            why("olga: /thud tournament join name:Cup").as_deref(),
            Some("`name` is not an option of `/thud tournament join`; it takes no options")
        );
        assert_eq!(
            why("alice: /thud ladder stats page:2").as_deref(),
            Some("`page` is not an option of `/thud ladder stats`; it takes player:")
        );
        assert_eq!(
            why("olga: /thud-admin abort now:yes").as_deref(),
            Some("`now` is not an option of `/thud-admin abort`; it takes no options")
        );
        assert_eq!(why("olga: /thud tournament standings page:2"), None);
    }

    #[test]
    fn help_needs_no_player_and_a_group_alone_stays_whole() {
        let help = parse("/thud help").unwrap().unwrap();
        assert_eq!(
            (help.player.as_str(), help.subcommand.as_str()),
            ("", "help")
        );
        assert_eq!(parse("/thud board"), Err(LineError::Shape));
        let ladder = parse("alice: /thud ladder").unwrap().unwrap();
        assert_eq!(ladder.subcommand, "ladder");
        let wrong = parse("alice: /thud review leaderboard").unwrap().unwrap();
        assert_eq!(wrong.subcommand, "review");
        assert_eq!(
            group_usage("ladder").as_deref(),
            Some("write `ladder leaderboard|stats|history`")
        );
    }

    #[test]
    fn a_group_takes_its_subcommand_as_the_action() {
        let line = parse("alice: /thud vacation start days:3")
            .unwrap()
            .unwrap();
        assert_eq!(line.subcommand, "vacation");
        assert_eq!(line.get("action"), Some("start"));
        assert_eq!(line.get("days"), Some("3"));
        let line = parse("alice: /thud vacation end").unwrap().unwrap();
        assert_eq!(line.get("action"), Some("end"));
    }

    #[test]
    fn the_ladder_the_review_and_the_admin_command_read_as_on_discord() {
        let line = parse("alice: /thud ladder stats player:bob")
            .unwrap()
            .unwrap();
        assert_eq!(line.subcommand, "stats");
        assert_eq!(line.get("player"), Some("bob"));
        let line = parse("alice: /thud review replay match:2 battle:1")
            .unwrap()
            .unwrap();
        assert_eq!(line.subcommand, "replay");
        assert_eq!(line.get("battle"), Some("1"));
        let line = parse("alice: /thud-admin tournament create name:Cup")
            .unwrap()
            .unwrap();
        assert_eq!(line.subcommand, "tournament");
        assert_eq!(line.get("action"), Some("create"));
        assert_eq!(
            parse("alice: /thud-admin abort")
                .unwrap()
                .unwrap()
                .subcommand,
            "abort"
        );
        assert_eq!(parse("alice: /thudx board"), Err(LineError::Shape));
    }

    #[test]
    fn lines_name_player_channel_subcommand_and_options() {
        let line = parse("alice: /thud challenge opponent:bob side:dwarfs")
            .unwrap()
            .unwrap();
        assert_eq!(line.player, "alice");
        assert_eq!(line.channel, 1);
        assert_eq!(line.subcommand, "challenge");
        assert_eq!(line.get("opponent"), Some("bob"));
        assert_eq!(line.get("side"), Some("dwarfs"));
        let line = parse("bob@3: /thud shove from:G7 to:G5 capture:F4, G4")
            .unwrap()
            .unwrap();
        assert_eq!(line.channel, 3);
        assert_eq!(line.get("capture"), Some("F4, G4"));
        assert_eq!(parse("  # a comment").unwrap(), None);
        assert_eq!(parse("").unwrap(), None);
    }

    #[test]
    fn malformed_lines_are_errors() {
        assert_eq!(parse("alice /thud accept"), Err(LineError::Shape));
        assert_eq!(parse("alice: accept"), Err(LineError::Shape));
        assert_eq!(parse("alice: /thud"), Err(LineError::Shape));
        assert!(matches!(
            parse("alice@x: /thud accept"),
            Err(LineError::Channel(_))
        ));
        assert!(matches!(
            parse("alice: /thud move F1"),
            Err(LineError::Option(_))
        ));
    }
}
