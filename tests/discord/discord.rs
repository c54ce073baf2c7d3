//! End to end through the real serenity client: the bot (`thudbot::discord`) connects to the
//! fake Discord on loopback, and the tests play as Discord would deliver it, asserting on the
//! HTTP calls the bot makes.

use std::time::Duration;

use chrono::Duration as Span;
use serde_json::json;

use crate::support::bot::*;
use crate::support::fake_discord::*;
use thudbot::store::ScratchDatabase;

#[tokio::test]
async fn a_whole_match_is_played_through_discord() {
    let bot = start_bot(|_| {}).await;

    // Registration: one /thud group with every subcommand, each described, and the staff's
    // /thud-admin beside it.
    let commands = bot.fake.commands(Some(GUILD_ID));
    assert_eq!(commands.len(), 2);
    assert_eq!(commands[0]["name"], "thud");
    assert_eq!(commands[1]["name"], "thud-admin");
    let subcommands = commands[0]["options"].as_array().expect("subcommands");
    let names: Vec<&str> = subcommands
        .iter()
        .filter_map(|o| o["name"].as_str())
        .collect();
    assert_eq!(
        names,
        [
            "challenge",
            "accept",
            "decline",
            "cancel",
            "move",
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
        ]
    );
    for sub in subcommands {
        assert!(sub["description"].as_str().is_some_and(|d| !d.is_empty()));
        for option in sub["options"].as_array().into_iter().flatten() {
            assert!(
                option["description"]
                    .as_str()
                    .is_some_and(|d| !d.is_empty()),
                "{} {} has no description",
                sub["name"],
                option["name"]
            );
        }
    }
    let move_options = &subcommands[4]["options"];
    assert_eq!(
        (
            move_options[0]["autocomplete"].clone(),
            move_options[1]["autocomplete"].clone(),
            move_options[2]["autocomplete"].clone()
        ),
        (json!(true), json!(true), json!(true))
    );

    // The challenge: public, with Accept / Decline / Cancel, pinging only the opponent.
    let (sent, posted) = bot
        .command(
            SlashCommand::thud("challenge")
                .option("opponent", BOB)
                .option("side", 0i64)
                .option("days", 1i64),
        )
        .await;
    assert_eq!(posted.interaction_response_type(), Some(4));
    assert!(!posted.is_ephemeral());
    assert_eq!(posted.pinged_users(), [BOB.id]);
    let ids = custom_ids(&posted);
    assert!(
        ids.iter().any(|id| id.starts_with("thud:accept:")),
        "{ids:?}"
    );
    assert!(
        ids.iter().any(|id| id.starts_with("thud:decline:")),
        "{ids:?}"
    );
    let challenge_message = bot.message_id(&sent).await;

    // Carol cannot accept someone else's challenge: a private answer, the buttons stay.
    let (_, refused) = bot.press(CAROL, challenge_message, "thud:accept:").await;
    assert_eq!(refused.interaction_response_type(), Some(4));
    assert!(refused.is_ephemeral(), "{}", refused.summary());
    assert!(!content(&refused).is_empty());
    let stored = bot.fake.message(challenge_message).expect("stored");
    assert!(buttons_of(stored["components"].as_array().expect("rows"))
        .iter()
        .all(|b| b["disabled"] != true));

    // Bob accepts by button: the buttons are disabled and battle 1 begins with a board.
    let (click, update) = bot.press(BOB, challenge_message, "thud:accept:").await;
    assert_eq!(update.interaction_response_type(), Some(7));
    assert!(update.buttons().iter().all(|b| b["disabled"] == true));
    let begins = bot.followup(&click).await;
    assert!(!begins.is_ephemeral());
    assert!(
        content(&begins).contains("Battle 1"),
        "{}",
        content(&begins)
    );
    let board = picture(&begins);
    assert!(board.width() >= 500 && board.height() >= 500);
    assert_eq!(begins.pinged_users(), [ALICE.id], "only the player to move");
    assert!(
        bot.fake
            .click_button(CAROL, challenge_message, &custom_ids(&posted)[0])
            .await
            .is_err(),
        "a spent button cannot be pressed again"
    );

    // Autocomplete: Alice's movable dwarfs, where F1 can go, nothing for Bob.
    let (_, from) = bot
        .command(SlashCommand::thud("move").autocomplete("from", "f"))
        .await;
    assert_eq!(from.interaction_response_type(), Some(8));
    let offered = choice_values(&from);
    assert!(offered.contains(&"F1".to_string()), "{offered:?}");
    assert!(offered.len() <= 25 && offered.iter().all(|s| s.starts_with('F')));
    let (_, to) = bot
        .command(
            SlashCommand::thud("move")
                .option("from", "F1")
                .autocomplete("to", ""),
        )
        .await;
    let targets = choice_values(&to);
    assert!(targets.contains(&"F5".to_string()), "{targets:?}");
    assert!(targets.len() <= 25);
    let (_, nothing) = bot
        .command(SlashCommand::thud("move").autocomplete("from", "").by(BOB))
        .await;
    assert_eq!(choice_values(&nothing), Vec::<String>::new());

    // The wrong player, and an illegal move: private refusals that change nothing.
    let wrong = bot
        .say(
            SlashCommand::thud("move")
                .option("from", "G7")
                .option("to", "F6")
                .by(BOB),
        )
        .await;
    assert!(wrong.is_ephemeral());
    assert!(wrong.attachments().is_empty());
    let illegal = bot
        .say(
            SlashCommand::thud("move")
                .option("from", "F1")
                .option("to", "G3"),
        )
        .await;
    assert!(illegal.is_ephemeral(), "{}", illegal.summary());
    assert!(!content(&illegal).is_empty());

    // Alice moves; the board goes up and only Bob is pinged.
    let moved = bot
        .say(
            SlashCommand::thud("move")
                .option("from", "F1")
                .option("to", "F5"),
        )
        .await;
    assert!(!moved.is_ephemeral());
    assert!(content(&moved).contains("F1-F5"), "{}", content(&moved));
    picture(&moved);
    assert_eq!(moved.pinged_users(), [BOB.id]);
    assert_eq!(
        moved.allowed_mentions(),
        Some(&json!({"parse": [], "users": [BOB.id.to_string()], "roles": []}))
    );

    // Bob answers in notation, after asking autocomplete.
    let (_, notation) = bot
        .command(
            SlashCommand::thud("play")
                .autocomplete("notation", "TG7-F")
                .by(BOB),
        )
        .await;
    assert!(
        choice_values(&notation).iter().any(|n| n == "TG7-F6"),
        "{:?}",
        choice_values(&notation)
    );
    let shoved = bot
        .say(
            SlashCommand::thud("play")
                .option("notation", "TG7-F6")
                .by(BOB),
        )
        .await;
    assert!(!shoved.is_ephemeral());
    assert_eq!(shoved.pinged_users(), [ALICE.id]);

    // The brief board as text, for anyone.
    let brief = bot
        .say(SlashCommand::thud("board").option("style", 1i64).by(CAROL))
        .await;
    assert!(content(&brief).contains("```"), "{}", content(&brief));
    assert!(brief.attachments().is_empty());

    // Alice proposes to end battle 1; Bob agrees by button; battle 2 starts, roles swapped.
    let (proposal, proposed) = bot.command(SlashCommand::thud("end")).await;
    assert_eq!(proposed.interaction_response_type(), Some(4));
    assert!(!proposed.is_ephemeral());
    assert_eq!(proposed.pinged_users(), [BOB.id]);
    let proposal_message = bot.message_id(&proposal).await;
    let (_, own) = bot.press(ALICE, proposal_message, "thud:agree:").await;
    assert!(
        own.is_ephemeral(),
        "a player cannot answer their own proposal"
    );
    let (agreed, update) = bot.press(BOB, proposal_message, "thud:agree:").await;
    assert_eq!(update.interaction_response_type(), Some(7));
    assert!(update.buttons().iter().all(|b| b["disabled"] == true));
    let battle_two = bot.followup(&agreed).await;
    let text = content(&battle_two);
    assert!(text.contains("Battle 2"), "{text}");
    // Battle 1's last board, then battle 2's first: the one Bob moves on next.
    let files: Vec<&str> = battle_two
        .attachments()
        .iter()
        .map(|f| f.filename.as_str())
        .collect();
    assert_eq!(files.len(), 2, "{}", battle_two.summary());
    assert!(
        files[0].ends_with("-battle-1.png") && files[1].ends_with("-battle-2.png"),
        "{files:?}"
    );
    for f in battle_two.attachments() {
        image::load_from_memory_with_format(&f.data, image::ImageFormat::Png).expect("a PNG");
    }
    assert_eq!(
        battle_two.pinged_users(),
        [BOB.id],
        "Bob commands the dwarfs now"
    );

    // Battle 2: Bob's dwarfs, Alice's trolls; then an agreed end finishes the match.
    let moved = bot
        .say(
            SlashCommand::thud("move")
                .option("from", "F1")
                .option("to", "F5")
                .by(BOB),
        )
        .await;
    assert!(!moved.is_ephemeral(), "{}", moved.summary());
    bot.say(SlashCommand::thud("play").option("notation", "TG7-F6"))
        .await;
    let (proposal, _) = bot.command(SlashCommand::thud("end").by(BOB)).await;
    let proposal_message = bot.message_id(&proposal).await;
    let (agreed, _) = bot.press(ALICE, proposal_message, "thud:agree:").await;
    let result = bot.followup(&agreed).await;
    let text = content(&result);
    assert!(text.contains("draw") || text.contains("Draw"), "{text}");

    // The match is over: moves are refused, the leaderboard lists both players.
    let late = bot
        .say(
            SlashCommand::thud("move")
                .option("from", "F5")
                .option("to", "F4"),
        )
        .await;
    assert!(late.is_ephemeral());
    let board = bot
        .say(SlashCommand::thud("leaderboard").group("ladder"))
        .await;
    let text = content(&board);
    assert!(
        text.contains("Alice") && text.contains("Bob"),
        "leaderboard: {text}"
    );
    assert!(
        board.pinged_users().is_empty(),
        "a leaderboard pings nobody"
    );
    let record = bot.say(SlashCommand::thud("record").group("review")).await;
    let text = content(&record)
        + &String::from_utf8_lossy(
            &record
                .attachments()
                .first()
                .map(|f| f.data.clone())
                .unwrap_or_default(),
        );
    assert!(text.contains("F1-F5"), "record: {text}");

    bot.finish().await;
}

#[tokio::test]
async fn resigning_needs_a_confirmation_and_abort_needs_manage_server() {
    let bot = start_bot(|_| {}).await;
    start_match(&bot, THUD_CHANNEL).await;

    // Resign asks privately first; the confirmation ends the match publicly.
    let (prompt, asked) = bot
        .command(SlashCommand::thud("resign").in_channel(THUD_CHANNEL))
        .await;
    assert_eq!(asked.interaction_response_type(), Some(4));
    assert!(asked.is_ephemeral());
    assert!(custom_ids(&asked)[0].starts_with("thud:resign:"));
    let (confirm, update) = bot
        .press(ALICE, bot.message_id(&prompt).await, "thud:resign:")
        .await;
    assert_eq!(update.interaction_response_type(), Some(7));
    let result = bot.followup(&confirm).await;
    assert!(!result.is_ephemeral());
    assert!(content(&result).contains("resign"), "{}", content(&result));

    // A second match in the same channel; Carol may not abort it, Vimes (Manage Server) may.
    start_match(&bot, THUD_CHANNEL).await;
    // (`/thud-admin` is hidden from Carol, who lacks Manage Server: she cannot send it.)
    let abort = || {
        SlashCommand::new("thud-admin")
            .subcommand("abort")
            .in_channel(THUD_CHANNEL)
    };
    assert!(bot.fake.run_command(&abort().by(CAROL)).await.is_err());
    let aborted = bot.say(abort().by(VIMES)).await;
    assert!(!aborted.is_ephemeral(), "{}", aborted.summary());
    let late = bot
        .say(
            SlashCommand::thud("move")
                .option("from", "F1")
                .option("to", "F5")
                .in_channel(THUD_CHANNEL),
        )
        .await;
    assert!(late.is_ephemeral(), "no match in play after the abort");

    // A challenge to a bot account is refused privately.
    let to_bot = bot
        .say(SlashCommand::thud("challenge").option("opponent", GOLEM))
        .await;
    assert!(to_bot.is_ephemeral());

    bot.finish().await;
}

#[tokio::test]
async fn slow_answers_are_deferred_and_refusals_stay_private() {
    // Every answer is slower than "at once", so every one is deferred.
    let bot = start_bot(|o| o.defer_after = Duration::ZERO).await;
    let begins = start_match(&bot, GENERAL_CHANNEL).await;
    picture(&begins);
    assert!(bot
        .fake
        .requests()
        .iter()
        .any(|r| r.interaction_response_type() == Some(6)));

    let (sent, deferred) = bot
        .command(
            SlashCommand::thud("move")
                .option("from", "F1")
                .option("to", "F5"),
        )
        .await;
    assert_eq!(deferred.interaction_response_type(), Some(5));
    assert!(!deferred.is_ephemeral());
    let filled = bot.followup(&sent).await;
    picture(&filled);
    assert_eq!(filled.pinged_users(), [BOB.id]);
    let shown = bot.fake.original_response(&sent).expect("stored");
    assert!(shown["content"]
        .as_str()
        .is_some_and(|c| c.contains("F1-F5")));

    // A refusal after deferring: the public "thinking" message goes, a private one comes.
    let (sent, deferred) = bot
        .command(
            SlashCommand::thud("move")
                .option("from", "F5")
                .option("to", "F4"),
        )
        .await;
    assert_eq!(deferred.interaction_response_type(), Some(5));
    let private = bot.followup(&sent).await;
    assert!(private.is_ephemeral(), "{}", private.summary());
    let token = sent.token.clone();
    assert!(bot
        .fake
        .requests()
        .iter()
        .any(|r| r.method == "DELETE" && r.webhook_token() == Some(token.as_str())));

    bot.finish().await;
}

#[tokio::test]
async fn with_threads_on_each_match_gets_its_own_thread() {
    let bot = start_bot(|o| o.threads = true).await;
    let (sent, _) = bot
        .command(
            SlashCommand::thud("challenge")
                .option("opponent", BOB)
                .option("side", 0i64),
        )
        .await;
    let (click, update) = bot
        .press(BOB, bot.message_id(&sent).await, "thud:accept:")
        .await;
    assert_eq!(update.interaction_response_type(), Some(7));
    let created = bot
        .fake
        .wait_for(
            |r| r.method == "POST" && r.path == format!("/channels/{GENERAL_CHANNEL}/threads"),
            WAIT,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(created.json()["type"], 11, "a public thread");
    let thread = snowflake(&created.response.clone().expect("the thread")["id"]).expect("an id");
    let note = bot.followup(&click).await;
    assert!(
        content(&note).contains(&format!("<#{thread}>")),
        "{}",
        content(&note)
    );

    // The board is posted in the thread, and the match is played there.
    let posted = bot
        .fake
        .wait_for(
            |r| r.method == "POST" && r.path == format!("/channels/{thread}/messages"),
            WAIT,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    picture(&posted);
    assert_eq!(posted.pinged_users(), [ALICE.id]);
    let moved = bot
        .say(
            SlashCommand::thud("move")
                .option("from", "F1")
                .option("to", "F5")
                .in_channel(thread),
        )
        .await;
    assert!(!moved.is_ephemeral(), "{}", moved.summary());

    // The channel itself is free for another match.
    let (other, _) = bot
        .command(
            SlashCommand::thud("challenge")
                .option("opponent", CAROL)
                .by(VIMES),
        )
        .await;
    let (_, update) = bot
        .press(CAROL, bot.message_id(&other).await, "thud:accept:")
        .await;
    assert_eq!(update.interaction_response_type(), Some(7));

    bot.finish().await;
}

#[tokio::test]
async fn the_clock_reminds_the_player_to_move() {
    let bot = start_bot(|_| {}).await;
    start_match(&bot, GENERAL_CHANNEL).await;
    let mark = bot.fake.mark();

    // Three days per move: the reminder comes when a quarter of the time is left.
    bot.clock.advance(Span::hours(60));
    let reminder = bot
        .fake
        .wait_for_since(
            mark,
            |r| r.method == "POST" && r.path == format!("/channels/{GENERAL_CHANNEL}/messages"),
            WAIT,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(reminder.pinged_users(), [ALICE.id]);
    let text = content(&reminder);
    assert!(text.contains("<t:"), "the deadline is shown: {text}");

    // Exactly once, however often the clock looks.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let reminders = bot
        .fake
        .requests()
        .iter()
        .skip(mark)
        .filter(|r| r.method == "POST" && r.path.starts_with("/channels/"))
        .count();
    assert_eq!(reminders, 1);
    bot.finish().await;
}

#[test]
fn without_a_token_the_bot_says_how_to_get_one() {
    let dir = crate::common::TempDir::new("no-token");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_thudbot"))
        .current_dir(dir.path())
        .env_remove("DISCORD_TOKEN")
        .env_remove("DATABASE_URL")
        .output()
        .expect("thudbot runs");
    assert_eq!(output.status.code(), Some(2));
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("no Discord bot token"), "{said}");
    assert!(
        said.contains("discord.com/developers/applications"),
        "{said}"
    );
    assert!(said.contains("DISCORD_TOKEN"), "{said}");
}

#[tokio::test]
async fn the_bot_binary_serves_commands_and_stops_on_sigterm() {
    let fake = FakeDiscord::start().await;
    let db = ScratchDatabase::create().await.expect("a scratch database");
    let dir = crate::common::TempDir::new("run");
    let config = dir.path().join("config.toml");
    std::fs::write(
        &config,
        format!(
            "discord_token = \"{}\"\ndiscord_proxy = \"{}\"\ndatabase_url = \"{}\"\n\
             development_guild = {GUILD_ID}\ndata_dir = \"{}\"\n",
            fake.token(),
            fake.rest_url(),
            db.url(),
            dir.path().display()
        ),
    )
    .expect("config written");
    let mut bot = tokio::process::Command::new(env!("CARGO_BIN_EXE_thudbot"))
        .arg("--config")
        .arg(&config)
        .env_remove("DISCORD_TOKEN")
        .env_remove("DATABASE_URL")
        .env("RUST_LOG", "info")
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("thudbot starts");

    // `thudbot` with no subcommand runs the bot: it registers its commands and answers.
    fake.wait_for(
        |r| r.method == "PUT" && r.path.ends_with(&format!("/guilds/{GUILD_ID}/commands")),
        WAIT * 3,
    )
    .await
    .unwrap_or_else(|e| panic!("{e}"));
    let sent = fake
        .run_command(&SlashCommand::thud("rules"))
        .await
        .expect("delivered");
    let rules = fake
        .response_to(&sent, WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(rules.interaction_response_type(), Some(4));
    assert!(content(&rules).contains("Thud"), "{}", content(&rules));

    let pid = nix::unistd::Pid::from_raw(bot.id().expect("a pid") as i32);
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM).expect("SIGTERM sent");
    let status = tokio::time::timeout(WAIT * 3, bot.wait())
        .await
        .expect("thudbot stops after SIGTERM")
        .expect("an exit status");
    let mut log = String::new();
    if let Some(mut stderr) = bot.stderr.take() {
        use tokio::io::AsyncReadExt;
        stderr.read_to_string(&mut log).await.expect("stderr read");
    }
    assert!(status.success(), "exit {status:?}:\n{log}");
    assert!(log.contains("SIGTERM"), "{log}");
    assert!(!log.contains(fake.token()), "the token is never logged");
    fake.wait_until_disconnected(WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(fake.unexpected_requests().is_empty());
}
