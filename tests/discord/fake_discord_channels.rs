//! Self-test of the fake Discord failing like Discord in channels: the bot's permissions and
//! overwrites, deleted channels, a removed bot, and threads that archive or lock.

use crate::support::BotHttp;
use std::time::Duration;

use poise::serenity_prelude as serenity;
use serde_json::json;
use serenity::model::event::Event;

use crate::support::fake_discord::*;
use crate::support::probe::{
    discord_error, dispatched_event, identify, next_payload, register_test_commands, WAIT,
};

/// A public thread the bot starts in `channel`.
async fn start_thread(http: &serenity::Http, channel: u64, minutes: u64) -> serenity::GuildChannel {
    http.create_thread(
        serenity::ChannelId::new(channel),
        &json!({"name": "Thud: Alice vs Bob", "type": 11, "auto_archive_duration": minutes}),
        None,
    )
    .await
    .expect("thread started")
}

#[tokio::test]
async fn the_bot_has_its_invite_permissions_and_overwrites_refuse_it() {
    // README: View Channels, Send Messages, Attach Files, Create Public Threads, Send Messages
    // in Threads.
    assert_eq!(BOT_PERMISSIONS, 309_237_681_152);
    assert_eq!(
        BOT_PERMISSIONS,
        permission::VIEW_CHANNEL
            | permission::SEND_MESSAGES
            | permission::ATTACH_FILES
            | permission::CREATE_PUBLIC_THREADS
            | permission::SEND_MESSAGES_IN_THREADS
    );
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    http.set_application_id(serenity::ApplicationId::new(APPLICATION_ID));
    let thud = serenity::ChannelId::new(THUD_CHANNEL);
    let bot_bits = fake.permissions_in(BOT_ID, THUD_CHANNEL);
    assert_eq!(bot_bits & BOT_PERMISSIONS, BOT_PERMISSIONS);
    assert_eq!(bot_bits & permission::MANAGE_THREADS, 0, "not asked for");
    assert_eq!(
        fake.permissions_in(VETINARI.id, THUD_CHANNEL),
        permission::ALL
    );
    thud.say(&http, "allowed").await.expect("the bot may talk");

    fake.deny_bot(THUD_CHANNEL, permission::SEND_MESSAGES)
        .expect("overwrite set");
    assert_eq!(discord_error(thud.say(&http, "denied").await), (403, 50013));
    assert_eq!(
        discord_error(thud.broadcast_typing(&http).await),
        (403, 50013)
    );
    serenity::ChannelId::new(GENERAL_CHANNEL)
        .say(&http, "elsewhere")
        .await
        .expect("only #thud has the overwrite");
    assert_eq!(
        fake.permissions_in(BOT_ID, THUD_CHANNEL) & permission::ATTACH_FILES,
        0,
        "without Send Messages, Attach Files is implicitly denied"
    );

    // @everyone loses View Channel; the bot's role gets it back, its own overwrite still denies.
    fake.set_overwrite(
        THUD_CHANNEL,
        Overwrite::role(EVERYONE_ROLE, 0, permission::VIEW_CHANNEL),
    )
    .expect("overwrite set");
    assert_eq!(discord_error(thud.say(&http, "unseen").await), (403, 50001));
    assert_eq!(fake.permissions_in(ALICE.id, THUD_CHANNEL), 0);
    assert_eq!(
        fake.permissions_in(VETINARI.id, THUD_CHANNEL),
        permission::ALL,
        "the owner"
    );
    fake.set_role_permissions(MODERATOR_ROLE, permission::ADMINISTRATOR)
        .expect("role changed");
    assert_eq!(
        fake.permissions_in(VIMES.id, THUD_CHANNEL),
        permission::ALL,
        "Administrator passes every overwrite"
    );
    assert_eq!(discord_error(http.get_channel(thud).await), (403, 50001));
    fake.set_overwrite(
        THUD_CHANNEL,
        Overwrite::role(BOT_ROLE, permission::VIEW_CHANNEL, 0),
    )
    .expect("overwrite set");
    assert_eq!(discord_error(thud.say(&http, "seen").await), (403, 50013));
    fake.remove_overwrite(THUD_CHANNEL, BOT_ID)
        .expect("overwrite removed");
    thud.say(&http, "back").await.expect("allowed again");

    fake.deny_bot(THUD_CHANNEL, permission::ATTACH_FILES)
        .expect("overwrite set");
    let with_file = serenity::CreateMessage::new().content("board").add_file(
        serenity::CreateAttachment::bytes(vec![1, 2, 3], "board.png"),
    );
    assert_eq!(
        discord_error(thud.send_message(&http, with_file).await),
        (403, 50013)
    );
    thud.say(&http, "text still goes")
        .await
        .expect("no file, no check");
    fake.deny_bot(GENERAL_CHANNEL, permission::CREATE_PUBLIC_THREADS)
        .expect("overwrite set");
    assert_eq!(
        discord_error(
            http.create_thread(
                serenity::ChannelId::new(GENERAL_CHANNEL),
                &json!({"name": "x", "type": 11}),
                None
            )
            .await
        ),
        (403, 50013)
    );

    // Interaction responses are webhooks: no channel permission is checked for them.
    fake.remove_overwrite(THUD_CHANNEL, EVERYONE_ROLE)
        .expect("players see #thud again");
    register_test_commands(&http).await;
    let (_socket, _) = identify(&fake, intent::GUILDS).await;
    fake.deny_bot(
        THUD_CHANNEL,
        permission::SEND_MESSAGES | permission::ATTACH_FILES,
    )
    .expect("overwrite set");
    let pick = fake
        .run_command(
            &SlashCommand::thud("pick")
                .option("square", "F5")
                .in_channel(THUD_CHANNEL),
        )
        .await
        .expect("delivered");
    let app_permissions: u64 = pick.payload["app_permissions"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .expect("app_permissions");
    assert_eq!(app_permissions & permission::SEND_MESSAGES, 0);
    http.create_interaction_response(
        serenity::InteractionId::new(pick.id),
        &pick.token,
        &json!({"type": 4, "data": {"content": "answered anyway"}}),
        vec![],
    )
    .await
    .expect("interaction responses need no channel permission");
    http.create_followup_message(&pick.token, &json!({"content": "followed up"}), vec![])
        .await
        .expect("nor do followups without files");
    // Since 2023-11-01 followups and edits follow the bot's permissions (the change log's
    // "Fix Message Edit Interaction Response Permissions"): a file needs Attach Files.
    let refused = http
        .create_followup_message(
            &pick.token,
            &json!({"content": "with a board"}),
            vec![serenity::CreateAttachment::bytes(
                vec![1, 2, 3],
                "board.png",
            )],
        )
        .await;
    assert!(
        matches!(&refused, Err(serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r))) if r.error.code == 50013),
        "{refused:?}"
    );

    assert_eq!(fake.refused_with(50013).len(), 6);
    assert_eq!(fake.refused_with(50001).len(), 2);
    let update = fake
        .wait_for_frame(
            |f| {
                f.payload["t"] == "CHANNEL_UPDATE"
                    && snowflake(&f.payload["d"]["id"]) == Some(THUD_CHANNEL)
            },
            WAIT,
        )
        .await
        .expect("the overwrite is announced");
    assert!(update.payload["d"]["permission_overwrites"]
        .as_array()
        .is_some_and(|o| o.iter().any(|o| snowflake(&o["id"]) == Some(BOT_ID))));
    assert!(fake.unexpected_requests().is_empty());
    assert!(fake.frames_serenity_cannot_read().is_empty());
}

#[tokio::test]
async fn deleted_channels_and_a_removed_bot_are_announced_and_refused() {
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    http.set_application_id(serenity::ApplicationId::new(APPLICATION_ID));
    register_test_commands(&http).await;
    let (mut socket, _) = identify(&fake, intent::GUILDS).await;

    let thread = start_thread(&http, THUD_CHANNEL, 10080).await;
    thread.id.say(&http, "the board").await.expect("posted");
    fake.delete_thread(thread.id.get()).expect("thread deleted");
    let deleted = loop {
        let frame = next_payload(&mut socket).await;
        if frame["t"] == "THREAD_DELETE" {
            break frame;
        }
    };
    match dispatched_event(&deleted) {
        Event::ThreadDelete(event) => {
            assert_eq!(event.thread.id, thread.id);
            assert_eq!(event.thread.parent_id.get(), THUD_CHANNEL);
        }
        other => panic!("expected THREAD_DELETE, got {other:?}"),
    }
    assert_eq!(
        discord_error(thread.id.say(&http, "gone").await),
        (404, 10003)
    );
    assert!(fake.was_deleted(thread.id.get()));

    fake.delete_channel(GENERAL_CHANNEL)
        .expect("channel deleted");
    let deleted = loop {
        let frame = next_payload(&mut socket).await;
        if frame["t"] == "CHANNEL_DELETE" {
            break frame;
        }
    };
    match dispatched_event(&deleted) {
        Event::ChannelDelete(event) => assert_eq!(event.channel.id.get(), GENERAL_CHANNEL),
        other => panic!("expected CHANNEL_DELETE, got {other:?}"),
    }
    let general = serenity::ChannelId::new(GENERAL_CHANNEL);
    assert_eq!(
        discord_error(general.say(&http, "gone").await),
        (404, 10003)
    );
    assert_eq!(discord_error(http.get_channel(general).await), (404, 10003));

    fake.remove_bot_from_guild();
    let removed = loop {
        let frame = next_payload(&mut socket).await;
        if frame["t"] == "GUILD_DELETE" {
            break frame;
        }
    };
    assert!(
        removed["d"].get("unavailable").is_none(),
        "removed, not an outage"
    );
    match dispatched_event(&removed) {
        Event::GuildDelete(event) => {
            assert_eq!(event.guild.id.get(), GUILD_ID);
            assert!(!event.guild.unavailable);
        }
        other => panic!("expected GUILD_DELETE, got {other:?}"),
    }
    let thud = serenity::ChannelId::new(THUD_CHANNEL);
    assert_eq!(discord_error(thud.say(&http, "hello?").await), (403, 50001));
    assert_eq!(discord_error(http.get_channel(thud).await), (403, 50001));
    assert_eq!(
        discord_error(
            http.get_member(
                serenity::GuildId::new(GUILD_ID),
                serenity::UserId::new(ALICE.id)
            )
            .await
        ),
        (404, 10004)
    );
    assert_eq!(
        discord_error(
            serenity::GuildId::new(GUILD_ID)
                .set_commands(&http, vec![])
                .await
        ),
        (403, 50001)
    );
    assert!(matches!(
        fake.run_command(&SlashCommand::thud("pick").option("square", "F5"))
            .await,
        Err(FakeError::Rejected(_))
    ));
    let dm = serenity::UserId::new(ALICE.id)
        .create_dm_channel(&http)
        .await
        .expect("DMs are outside the guild");
    dm.id.say(&http, "still reachable").await.expect("DM sent");

    // A bot identifying afresh no longer gets the guild.
    let (_again, frames) = identify(&fake, 0).await;
    assert_eq!(frames[1]["d"]["guilds"], json!([]));
    assert!(fake.unexpected_requests().is_empty());
    assert!(fake.frames_serenity_cannot_read().is_empty());
}

#[tokio::test]
async fn threads_archive_on_the_test_clock_and_locked_threads_refuse_the_bot() {
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    http.set_application_id(serenity::ApplicationId::new(APPLICATION_ID));
    register_test_commands(&http).await;
    let (_socket, _) = identify(&fake, intent::GUILDS).await;
    assert_eq!(
        discord_error(
            http.create_thread(
                serenity::ChannelId::new(THUD_CHANNEL),
                &json!({"name": "x", "type": 11, "auto_archive_duration": 61}),
                None
            )
            .await
        ),
        (400, 50035)
    );
    let thread = start_thread(&http, THUD_CHANNEL, 60).await;
    let id = thread.id.get();
    let (_second, frames) = identify(&fake, intent::GUILDS).await;
    assert_eq!(
        frames[2]["d"]["threads"][0]["id"],
        json!(id.to_string()),
        "GUILD_CREATE lists the active thread"
    );

    fake.advance(Duration::from_secs(59 * 60));
    assert!(!fake.thread_is_archived(id));
    let kept = thread.id.say(&http, "a move").await.expect("posted");
    fake.advance(Duration::from_secs(59 * 60));
    assert!(
        !fake.thread_is_archived(id),
        "the message restarted the timer"
    );
    fake.advance(Duration::from_secs(2 * 60));
    assert!(fake.thread_is_archived(id), "an hour without activity");
    fake.wait_for_frame(
        |f| {
            f.payload["t"] == "THREAD_UPDATE"
                && f.payload["d"]["thread_metadata"]["archived"] == true
        },
        WAIT,
    )
    .await
    .expect("the archiving is announced");

    let in_thread = SlashCommand::thud("pick")
        .option("square", "F5")
        .in_channel(id);
    assert!(
        matches!(
            fake.run_command(&in_thread).await,
            Err(FakeError::Rejected(_))
        ),
        "no application commands in an archived thread"
    );
    assert_eq!(
        discord_error(
            thread
                .id
                .edit_message(&http, kept.id, serenity::EditMessage::new().content("x"))
                .await
        ),
        (400, 50083)
    );
    thread
        .id
        .say(&http, "a reminder")
        .await
        .expect("posting unarchives");
    assert!(!fake.thread_is_archived(id));
    fake.run_command(&in_thread)
        .await
        .expect("commands work again");

    // The bot created the thread: it may archive it and change its archive time, not lock it.
    let archived = http
        .edit_thread(thread.id, &json!({"archived": true}), None)
        .await
        .expect("the creator archives");
    assert!(archived.thread_metadata.expect("metadata").archived);
    let active = http
        .edit_thread(
            thread.id,
            &json!({"archived": false, "auto_archive_duration": 10080}),
            None,
        )
        .await
        .expect("a member unarchives");
    assert_eq!(
        active
            .thread_metadata
            .expect("metadata")
            .auto_archive_duration,
        serenity::AutoArchiveDuration::OneWeek
    );
    assert_eq!(
        discord_error(
            http.edit_thread(thread.id, &json!({"locked": true}), None)
                .await
        ),
        (403, 50013),
        "locking needs Manage Threads"
    );
    assert_eq!(
        discord_error(http.delete_channel(thread.id, None).await),
        (403, 50013)
    );

    fake.lock_thread(id).expect("a moderator locks it");
    assert_eq!(
        discord_error(thread.id.say(&http, "x").await),
        (403, 160005)
    );
    fake.archive_thread(id).expect("and archives it");
    assert_eq!(
        discord_error(
            http.edit_thread(thread.id, &json!({"archived": false}), None)
                .await
        ),
        (403, 160005),
        "a locked thread is unarchived only with Manage Threads"
    );
    assert_eq!(
        discord_error(thread.id.say(&http, "x").await),
        (403, 160005)
    );
    assert!(fake.thread_is_archived(id));
    thread
        .id
        .delete_message(&http, kept.id)
        .await
        .expect("deleting is allowed in an archived thread");
    assert!(fake.unexpected_requests().is_empty());
    assert!(fake.frames_serenity_cannot_read().is_empty());
}
