//! Self-test of the fake Discord: its gateway frames and REST answers deserialize into
//! serenity's models.

use crate::support::BotHttp;
use futures_util::SinkExt;
use poise::serenity_prelude as serenity;
use serde_json::json;
use serenity::model::event::{Event, GatewayEvent};
use tokio_tungstenite::tungstenite::Message;

use crate::support::fake_discord::*;
use crate::support::probe::{
    as_serenity_event, discord_error, dispatched_event, identify, next_payload,
    register_test_commands,
};

#[tokio::test]
async fn gateway_payloads_deserialize_into_serenity_models() {
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    http.set_application_id(serenity::ApplicationId::new(APPLICATION_ID));
    let registered = register_test_commands(&http).await;
    assert_eq!(registered.len(), 1);
    assert_eq!(
        registered[0].guild_id,
        Some(serenity::GuildId::new(GUILD_ID))
    );

    let intents = intent::GUILDS | intent::GUILD_MESSAGES | intent::GUILD_PRESENCES;
    let (mut socket, frames) = identify(&fake, intents).await;

    assert!(matches!(
        as_serenity_event(&frames[0]),
        GatewayEvent::Hello(HEARTBEAT_INTERVAL_MS)
    ));

    let ready: serenity::Ready =
        serde_json::from_value(frames[1]["d"].clone()).expect("READY is a serenity Ready");
    assert_eq!(ready.user.id.get(), BOT_ID);
    assert!(ready.user.bot);
    assert_eq!(ready.application.id.get(), APPLICATION_ID);
    assert_eq!(ready.guilds.len(), 1);
    assert!(ready.guilds[0].unavailable);
    assert_eq!(ready.resume_gateway_url, fake.gateway_url());
    assert!(matches!(dispatched_event(&frames[1]), Event::Ready(_)));

    let guild: serenity::Guild =
        serde_json::from_value(frames[2]["d"].clone()).expect("GUILD_CREATE is a serenity Guild");
    assert_eq!(guild.id.get(), GUILD_ID);
    assert!(guild.roles[&serenity::RoleId::new(EVERYONE_ROLE)].name == "@everyone");
    assert!(guild.roles[&serenity::RoleId::new(MODERATOR_ROLE)]
        .permissions
        .manage_guild());
    assert!(!guild.roles[&serenity::RoleId::new(EVERYONE_ROLE)]
        .permissions
        .manage_guild());
    assert_eq!(
        guild.members.len(),
        MEMBERS.len(),
        "GUILD_PRESENCES asked for: every member is listed"
    );
    assert!(guild.members[&serenity::UserId::new(GOLEM.id)].user.bot);
    assert!(!guild.members[&serenity::UserId::new(ALICE.id)].user.bot);
    assert_eq!(
        guild.members[&serenity::UserId::new(VIMES.id)].roles,
        vec![serenity::RoleId::new(MODERATOR_ROLE)]
    );
    assert_eq!(guild.channels.len(), 3);
    assert_eq!(
        guild.channels[&serenity::ChannelId::new(GENERAL_CHANNEL)].kind,
        serenity::ChannelType::Text
    );
    match dispatched_event(&frames[2]) {
        Event::GuildCreate(event) => assert_eq!(
            event.guild.channels[&serenity::ChannelId::new(THUD_CHANNEL)]
                .guild_id
                .get(),
            GUILD_ID
        ),
        other => panic!("expected GUILD_CREATE, got {other:?}"),
    }

    // A slash command with a subcommand and a user option.
    let duel = SlashCommand::thud("duel")
        .option("opponent", BOB)
        .option("days", 3)
        .by(VIMES)
        .in_channel(THUD_CHANNEL);
    let sent = fake
        .run_command(&duel)
        .await
        .expect("the command is delivered");
    let frame = next_payload(&mut socket).await;
    assert_eq!(frame["t"], "INTERACTION_CREATE");
    let interaction: serenity::Interaction =
        serde_json::from_value(frame["d"].clone()).expect("a serenity Interaction");
    let serenity::Interaction::Command(command) = interaction else {
        panic!("expected a command interaction")
    };
    assert_eq!(command.id.get(), sent.id);
    assert_eq!(command.token, sent.token);
    assert_eq!(command.data.name, "thud");
    assert_eq!(command.data.id, registered[0].id);
    assert_eq!(command.channel_id.get(), THUD_CHANNEL);
    assert_eq!(
        command.user.id.get(),
        VIMES.id,
        "serenity fills `user` from `member.user`"
    );
    let member = command
        .member
        .as_ref()
        .expect("guild interactions carry the member");
    assert!(member
        .permissions
        .expect("interaction members carry permissions")
        .manage_guild());
    assert!(command
        .app_permissions
        .expect("app_permissions")
        .attach_files());
    let options = command.data.options();
    assert_eq!(options.len(), 1);
    assert_eq!(options[0].name, "duel");
    let serenity::ResolvedValue::SubCommand(inner) = &options[0].value else {
        panic!("expected a subcommand")
    };
    assert_eq!(inner.len(), 2);
    match &inner[0].value {
        serenity::ResolvedValue::User(user, member) => {
            assert_eq!(user.id.get(), BOB.id);
            assert!(
                member.is_some(),
                "resolved members are filled for user options"
            );
        }
        other => panic!("expected a resolved user, got {other:?}"),
    }
    assert!(matches!(
        inner[1].value,
        serenity::ResolvedValue::Integer(3)
    ));
    assert!(matches!(
        dispatched_event(&frame),
        Event::InteractionCreate(_)
    ));

    // An autocomplete request while typing `square`.
    let typing = SlashCommand::thud("pick").autocomplete("square", "F");
    fake.run_command(&typing)
        .await
        .expect("autocomplete is delivered");
    let frame = next_payload(&mut socket).await;
    let interaction: serenity::Interaction =
        serde_json::from_value(frame["d"].clone()).expect("a serenity Interaction");
    let serenity::Interaction::Autocomplete(autocomplete) = interaction else {
        panic!("expected autocomplete")
    };
    let focused = autocomplete.data.autocomplete().expect("a focused option");
    assert_eq!((focused.name, focused.value), ("square", "F"));

    // A button click on a message posted through REST.
    let button = serenity::CreateButton::new("accept:42").label("Accept");
    let posted = serenity::ChannelId::new(GENERAL_CHANNEL)
        .send_message(
            &http,
            serenity::CreateMessage::new()
                .content("A challenge")
                .button(button),
        )
        .await
        .expect("message posted");
    let created = next_payload(&mut socket).await;
    assert_eq!(
        created["t"], "MESSAGE_CREATE",
        "GUILD_MESSAGES asked for: the bot sees its own message"
    );
    assert!(matches!(
        dispatched_event(&created),
        Event::MessageCreate(_)
    ));
    fake.click_button(BOB, posted.id.get(), "accept:42")
        .await
        .expect("the click is delivered");
    let frame = next_payload(&mut socket).await;
    let interaction: serenity::Interaction =
        serde_json::from_value(frame["d"].clone()).expect("a serenity Interaction");
    let serenity::Interaction::Component(click) = interaction else {
        panic!("expected a component interaction")
    };
    assert_eq!(click.data.custom_id, "accept:42");
    assert!(matches!(
        click.data.kind,
        serenity::ComponentInteractionDataKind::Button
    ));
    assert_eq!(click.message.id, posted.id);
    assert_eq!(click.user.id.get(), BOB.id);

    // Edits, deletions and threads are announced in shapes serenity reads.
    serenity::ChannelId::new(GENERAL_CHANNEL)
        .edit_message(
            &http,
            posted.id,
            serenity::EditMessage::new().content("Accepted"),
        )
        .await
        .expect("message edited");
    assert_eq!(next_payload(&mut socket).await["t"], "MESSAGE_UPDATE");
    let thread = serenity::ChannelId::new(THUD_CHANNEL)
        .create_thread(&http, serenity::CreateThread::new("bob vs vimes"))
        .await
        .expect("thread created");
    assert_eq!(
        thread.kind,
        serenity::ChannelType::PrivateThread,
        "API v10 still defaults to a private thread"
    );
    let created = next_payload(&mut socket).await;
    assert_eq!(created["t"], "THREAD_CREATE");
    assert!(matches!(dispatched_event(&created), Event::ThreadCreate(_)));
    serenity::ChannelId::new(GENERAL_CHANNEL)
        .delete_message(&http, posted.id)
        .await
        .expect("message deleted");
    assert!(matches!(
        dispatched_event(&next_payload(&mut socket).await),
        Event::MessageDelete(_)
    ));
    assert_eq!(fake.frames_serenity_cannot_read(), Vec::<String>::new());

    // A payload serenity cannot read is reported, although serenity itself stays silent.
    let mut broken = fake
        .command_payload(&SlashCommand::thud("pick").option("square", "F1"))
        .expect("a payload");
    broken
        .as_object_mut()
        .expect("an object")
        .remove("attachment_size_limit");
    fake.dispatch_interaction(broken).await.expect("delivered");
    assert!(matches!(
        dispatched_event(&next_payload(&mut socket).await),
        Event::Unknown(_)
    ));
    let unreadable = fake.frames_serenity_cannot_read();
    assert_eq!(unreadable.len(), 1);
    assert!(
        unreadable[0].contains("INTERACTION_CREATE")
            && unreadable[0].contains("attachment_size_limit"),
        "{unreadable:?}"
    );

    // Heartbeats are acknowledged.
    socket
        .send(Message::Text(json!({"op": 1, "d": 4}).to_string()))
        .await
        .expect("heartbeat sent");
    let ack = next_payload(&mut socket).await;
    assert!(matches!(
        as_serenity_event(&ack),
        GatewayEvent::HeartbeatAck
    ));
}

#[tokio::test]
async fn guild_create_lists_only_the_bot_without_the_presence_intent() {
    let fake = FakeDiscord::start().await;
    let (_socket, frames) = identify(&fake, intent::GUILDS).await;
    let guild: serenity::Guild =
        serde_json::from_value(frames[2]["d"].clone()).expect("a serenity Guild");
    assert_eq!(
        guild.members.keys().map(|id| id.get()).collect::<Vec<_>>(),
        vec![BOT_ID]
    );
    assert_eq!(guild.member_count, MEMBERS.len() as u64);
}

#[tokio::test]
async fn rest_answers_deserialize_into_serenity_models() {
    let fake = FakeDiscord::start().await;
    let http = fake.http();

    let gateway = http.get_gateway().await.expect("GET /gateway");
    assert_eq!(gateway.url, fake.gateway_url());
    let bot_gateway = http.get_bot_gateway().await.expect("GET /gateway/bot");
    assert_eq!(bot_gateway.shards, 1);
    let me = http.get_current_user().await.expect("GET /users/@me");
    assert_eq!(me.id.get(), BOT_ID);
    let application = http
        .get_current_application_info()
        .await
        .expect("GET /oauth2/applications/@me");
    assert_eq!(application.id.get(), APPLICATION_ID);
    assert_eq!(application.owner.expect("an owner").id.get(), VETINARI.id);

    let channel = http
        .get_channel(serenity::ChannelId::new(THUD_CHANNEL))
        .await
        .expect("GET /channels/{id}");
    let serenity::Channel::Guild(channel) = channel else {
        panic!("a guild channel")
    };
    assert_eq!(channel.name, "thud");
    let member = http
        .get_member(
            serenity::GuildId::new(GUILD_ID),
            serenity::UserId::new(VIMES.id),
        )
        .await
        .expect("GET member");
    assert_eq!(member.roles, vec![serenity::RoleId::new(MODERATOR_ROLE)]);
    assert_eq!(
        discord_error(
            http.get_member(serenity::GuildId::new(GUILD_ID), serenity::UserId::new(42))
                .await
        ),
        (404, 10007)
    );

    let dm = serenity::UserId::new(ALICE.id)
        .create_dm_channel(&http)
        .await
        .expect("POST /users/@me/channels");
    assert_eq!(dm.recipient.id.get(), ALICE.id);
    let again = serenity::UserId::new(ALICE.id)
        .create_dm_channel(&http)
        .await
        .expect("the same DM again");
    assert_eq!(again.id, dm.id, "one DM channel per user");
    let note = dm.id.say(&http, "Your move").await.expect("DM sent");
    assert_eq!(note.channel_id, dm.id);
    let golem_dm = serenity::UserId::new(GOLEM.id)
        .create_dm_channel(&http)
        .await
        .expect("DM channel with a bot");
    assert_eq!(
        discord_error(golem_dm.id.say(&http, "hello").await),
        (403, 50007)
    );

    let posted = serenity::ChannelId::new(GENERAL_CHANNEL)
        .say(&http, "A match begins")
        .await
        .expect("message posted");
    assert_eq!(posted.author.id.get(), BOT_ID);
    let edited = serenity::ChannelId::new(GENERAL_CHANNEL)
        .edit_message(
            &http,
            posted.id,
            serenity::EditMessage::new().content("A match is on"),
        )
        .await
        .expect("message edited");
    assert_eq!(edited.content, "A match is on");
    assert!(edited.edited_timestamp.is_some());
    let fetched = serenity::ChannelId::new(GENERAL_CHANNEL)
        .message(&http, posted.id)
        .await
        .expect("message fetched");
    assert_eq!(fetched.content, "A match is on");

    let thread = serenity::ChannelId::new(GENERAL_CHANNEL)
        .create_thread_from_message(
            &http,
            posted.id,
            serenity::CreateThread::new("alice vs bob"),
        )
        .await
        .expect("thread from message");
    assert_eq!(
        thread.id.get(),
        posted.id.get(),
        "a thread started from a message takes its id"
    );
    assert_eq!(thread.kind, serenity::ChannelType::PublicThread);
    assert_eq!(
        thread.parent_id,
        Some(serenity::ChannelId::new(GENERAL_CHANNEL))
    );
    let standalone = serenity::ChannelId::new(THUD_CHANNEL)
        .create_thread(
            &http,
            serenity::CreateThread::new("carol vs vimes").kind(serenity::ChannelType::PublicThread),
        )
        .await
        .expect("thread without message");
    assert_eq!(standalone.kind, serenity::ChannelType::PublicThread);
    let in_thread = standalone
        .id
        .say(&http, "Battle 1")
        .await
        .expect("message in the thread");
    assert_eq!(in_thread.channel_id, standalone.id);

    let unknown = http
        .get_guild_with_counts(serenity::GuildId::new(GUILD_ID))
        .await;
    assert_eq!(discord_error(unknown), (404, 0));
    let flagged = fake.unexpected_requests();
    assert_eq!(
        flagged.len(),
        1,
        "GET /guilds/{{id}} is not modelled and is flagged"
    );
    assert_eq!(flagged[0].path, format!("/guilds/{GUILD_ID}"));
    assert_eq!(
        flagged[0].query,
        [("with_counts".to_string(), "true".to_string())],
        "serenity's `?&with_counts=true` is read as one pair"
    );

    let stranger = serenity::HttpBuilder::new("not-the-token")
        .proxy(fake.rest_url())
        .ratelimiter_disabled(true)
        .build();
    assert_eq!(discord_error(stranger.get_current_user().await), (401, 0));

    let first = &fake.requests()[0];
    assert_eq!(
        (first.method.as_str(), first.path.as_str()),
        ("GET", "/gateway")
    );
    assert_eq!(
        first
            .headers
            .iter()
            .find(|(n, _)| n == "authorization")
            .map(|(_, v)| v.as_str()),
        Some(format!("Bot {}", fake.token()).as_str())
    );
}
