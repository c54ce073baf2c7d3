//! End to end through serenity, for what the bot must be granted: Discord's implicit denials
//! (an interaction's `app_permissions` leaves them out), the permissions ban events need, and
//! the admin commands a server can gate per role, and a thread's permissions reckoned as Discord
//! reckons them there.

use thudbot::store::ChannelId;

use crate::discord_delivery::posts_to;
use crate::support::bot::*;
use crate::support::fake_discord::*;

#[tokio::test]
async fn a_challenge_where_the_bot_cannot_see_the_channel_is_refused_up_front() {
    let bot = start_bot(|_| {}).await;
    // The bot may not see #general; its Send Messages there still shows in app_permissions,
    // as Discord computes them without the implicit denials.
    bot.fake
        .deny_bot(GENERAL_CHANNEL, permission::VIEW_CHANNEL)
        .unwrap();
    for opponent in [THUDBOT, BOB] {
        let refused = bot
            .say(SlashCommand::thud("challenge").option("opponent", opponent))
            .await;
        assert!(refused.is_ephemeral(), "{}", refused.summary());
        assert!(
            content(&refused).contains("View Channel"),
            "{}",
            content(&refused)
        );
    }
    // Nothing was made: no match, no challenge, nothing posted or queued.
    let store = bot.service.store();
    assert!(store
        .latest_match_in(ChannelId(GENERAL_CHANNEL))
        .await
        .unwrap()
        .is_none());
    assert!(store.all_notices().await.unwrap().is_empty());
    let made = bot
        .say(
            SlashCommand::thud("challenge")
                .option("opponent", BOB)
                .in_channel(THUD_CHANNEL),
        )
        .await;
    assert!(!made.is_ephemeral(), "{}", made.summary());
    assert!(content(&made).contains("#1"), "{}", content(&made));
    bot.finish().await;
}

/// The permissions integer of the README's invite link.
fn readme_invite() -> u64 {
    let readme = include_str!("../../README.md");
    let link = readme
        .split("permissions=")
        .nth(1)
        .expect("the README has an invite link");
    let digits: String = link.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().expect("a permissions integer")
}

#[test]
fn the_readme_invites_what_the_fake_grants_and_promises_only_what_that_delivers() {
    let readme = include_str!("../../README.md");
    // The fake grants the bot's role exactly what the invite asks for.
    assert_eq!(readme_invite(), BOT_PERMISSIONS);
    // Discord sends GUILD_BAN_ADD only to a bot with Ban Members or View Audit Log. The invite
    // asks for neither, so a ban cannot be promised to withdraw a player at once unless the
    // README says what to grant for it.
    assert_eq!(
        readme_invite() & (permission::BAN_MEMBERS | permission::VIEW_AUDIT_LOG),
        0
    );
    for line in readme
        .lines()
        .filter(|l| l.contains("bans") || l.contains("banned"))
    {
        assert!(
            !line.contains("at once") || line.contains("View Audit Log"),
            "the README promises what the invite cannot deliver: {line}"
        );
    }
}

/// Discord's limits on a command (docs/interactions/application-commands.md, "Application
/// Command Naming" and "Registering a Command"): a name of 1–32 lower-case characters, a
/// description of 1–100, at most 25 options (subcommands and groups count) at every level, at
/// most 25 choices, and at most 4000 characters of names, descriptions and values in all.
fn check_limits(option: &serde_json::Value, path: &str, chars: &mut usize) {
    let name = option["name"].as_str().unwrap_or_default();
    assert!(
        (1..=32).contains(&name.chars().count())
            && name
                .chars()
                .all(|c| c == '-' || c == '_' || c.is_ascii_lowercase() || c.is_ascii_digit()),
        "{path}: the name {name:?}"
    );
    let description = option["description"].as_str().unwrap_or_default();
    assert!(
        (1..=100).contains(&description.chars().count()),
        "{path} {name}: the description {description:?}"
    );
    *chars += name.chars().count() + description.chars().count();
    let choices = option["choices"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    assert!(
        choices.len() <= 25,
        "{path} {name}: {} choices",
        choices.len()
    );
    for choice in choices {
        *chars += choice["name"].as_str().map_or(0, |n| n.chars().count());
        *chars += choice["value"]
            .to_string()
            .trim_matches('"')
            .chars()
            .count();
    }
    let options = option["options"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    assert!(
        options.len() <= 25,
        "{path} {name}: {} options",
        options.len()
    );
    for inner in options {
        check_limits(inner, &format!("{path} {name}"), chars);
    }
}

#[tokio::test]
async fn the_commands_fit_discords_limits_and_thud_has_room_to_grow() {
    let bot = start_bot(|_| {}).await;
    let registered = bot
        .fake
        .requests()
        .into_iter()
        .find(|r| r.method == "PUT" && r.path.ends_with("/commands"))
        .expect("the commands were registered");
    let commands = registered.json().as_array().cloned().expect("a list");
    assert!(commands.len() <= 100);
    for command in &commands {
        let mut chars = 0;
        check_limits(command, "", &mut chars);
        assert!(chars <= 4000, "{}: {chars} characters", command["name"]);
    }
    let named = |name: &str| {
        commands
            .iter()
            .find(|c| c["name"] == name)
            .unwrap_or_else(|| panic!("no /{name}"))
    };
    // `/thud` keeps at least five of its 25 places free for what comes next.
    let thud = named("thud");
    let places = thud["options"].as_array().map_or(0, Vec::len);
    assert!(places <= 20, "/thud has {places} subcommands and groups");
    assert!(thud["default_member_permissions"].is_null());
    // The staff's command is hidden from members without Manage Server until the server says
    // otherwise; every member sees `/thud`.
    let admin = named("thud-admin");
    assert_eq!(admin["default_member_permissions"], "32");
    let subcommands: Vec<&str> = admin["options"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|o| o["name"].as_str())
        .collect();
    assert_eq!(subcommands, ["abort", "tournament"]);
    bot.finish().await;
}

#[tokio::test]
async fn the_admin_command_is_hidden_by_default_and_still_checks_who_uses_it() {
    let bot = start_bot(|_| {}).await;
    start_match(&bot, GENERAL_CHANNEL).await;
    // Bob, without Manage Server, is not shown `/thud-admin`: his client cannot send it.
    let abort = || SlashCommand::new("thud-admin").subcommand("abort");
    assert!(bot.fake.run_command(&abort().by(BOB)).await.is_err());
    // `/thud abort` is gone from `/thud`.
    assert!(bot
        .fake
        .run_command(&SlashCommand::thud("abort"))
        .await
        .is_err());
    // The server shows it to everyone: Bob may send it, and the bot still refuses him.
    bot.fake.show_command_to_everyone("thud-admin");
    let refused = bot.say(abort().by(BOB)).await;
    assert!(refused.is_ephemeral(), "{}", refused.summary());
    assert!(
        content(&refused).contains("Manage Server"),
        "{}",
        content(&refused)
    );
    // The owner aborts the match.
    let aborted = bot.say(abort().by(VETINARI)).await;
    assert!(!aborted.is_ephemeral(), "{}", aborted.summary());
    let m = bot
        .service
        .store()
        .latest_match_in(ChannelId(GENERAL_CHANNEL))
        .await
        .unwrap()
        .expect("a match");
    let m = bot.service.store().load_match(m).await.unwrap().unwrap();
    assert_eq!(m.state, thudbot::store::MatchState::Aborted);
    bot.finish().await;
}

#[tokio::test]
async fn boards_in_a_match_thread_keep_their_pictures_where_the_bot_may_not_post_in_the_parent() {
    let bot = start_bot(|o| o.threads = true).await;
    // #general takes no posts of the bot's own, but it may open threads and talk in them:
    // in a thread Send Messages in Threads decides whether files may go with its words.
    bot.fake
        .deny_bot(GENERAL_CHANNEL, permission::SEND_MESSAGES)
        .unwrap();
    let (thread, _) = crate::discord_delivery::thread_match(&bot, None).await;
    assert!(
        bot.fake.permissions_in(BOT_ID, thread) & permission::ATTACH_FILES != 0,
        "Discord lets the bot attach files in the thread"
    );
    // Once the bot's cache knows the thread, a move whose answer fails is posted by the
    // outbox, with the permissions the cache gives: its board is a picture.
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    bot.fake
        .fail_with_status("POST /interactions/*/*/callback", 1, 500);
    let mark = bot.fake.mark();
    bot.fake
        .run_command(
            &SlashCommand::thud("play")
                .option("notation", "dF1-F5")
                .in_channel(thread),
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let posted = bot
        .fake
        .wait_for_since(
            mark,
            |r| posts_to(thread)(r) && content(r).contains("plays `dF1-F5`"),
            WAIT,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    picture(&posted);
    assert!(
        !content(&posted).contains("Attach Files"),
        "{}",
        content(&posted)
    );
    bot.finish_expecting(|r| r.injected).await;
}
