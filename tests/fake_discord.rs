//! Self-test of the fake Discord: its payloads deserialize into serenity's models, it enforces
//! Discord's rules, and a real serenity + poise bot runs against it end to end.

mod support;

use std::io::Cursor;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use poise::serenity_prelude as serenity;
use serde_json::{json, Value};
use serenity::model::event::{Event, GatewayEvent};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use support::fake_discord::*;

const WAIT: Duration = Duration::from_secs(5);

// ----- a raw gateway client, to see exactly what the fake sends -----------------------------

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

async fn next_payload(socket: &mut Socket) -> Value {
    loop {
        let frame = tokio::time::timeout(WAIT, socket.next())
            .await
            .expect("a gateway frame within the wait")
            .expect("the gateway stays open")
            .expect("a readable frame");
        if let Message::Text(text) = frame {
            return serde_json::from_str(&text).expect("gateway frames are JSON");
        }
    }
}

/// Connects like serenity does and identifies; returns the socket and the frames up to READY
/// (and GUILD_CREATE when the GUILDS intent is asked for).
async fn identify(fake: &FakeDiscord, intents: u64) -> (Socket, Vec<Value>) {
    let url = format!("{}/?v=10", fake.gateway_url());
    let (mut socket, _) = tokio_tungstenite::connect_async(url)
        .await
        .expect("the gateway accepts");
    let hello = next_payload(&mut socket).await;
    let identify = json!({"op": 2, "d": {
        "token": fake.token(), "intents": intents, "shard": [0, 1], "compress": true,
        "large_threshold": 250, "properties": {"os": "linux", "browser": "test", "device": "test"},
    }});
    socket
        .send(Message::Text(identify.to_string()))
        .await
        .expect("IDENTIFY sent");
    let mut frames = vec![hello, next_payload(&mut socket).await];
    if intents & intent::GUILDS != 0 {
        frames.push(next_payload(&mut socket).await);
    }
    (socket, frames)
}

/// Decodes a frame exactly as serenity's shard does.
fn as_serenity_event(frame: &Value) -> GatewayEvent {
    serde_json::from_value(frame.clone())
        .unwrap_or_else(|e| panic!("serenity rejects {frame}: {e}"))
}

fn dispatched_event(frame: &Value) -> Event {
    match as_serenity_event(frame) {
        GatewayEvent::Dispatch(_, event) => event,
        other => panic!("expected a dispatch, got {other:?}"),
    }
}

/// The error code and HTTP status of a failed serenity call.
fn discord_error(result: Result<impl std::fmt::Debug, serenity::Error>) -> (u16, isize) {
    match result {
        Err(serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(response))) => {
            (response.status_code.as_u16(), response.error.code)
        }
        other => panic!("expected Discord to refuse, got {other:?}"),
    }
}

/// `/thud pick square:<text>`, `/thud duel opponent:<user>` registered through serenity's builders.
async fn register_test_commands(http: &serenity::Http) -> Vec<serenity::Command> {
    let pick = serenity::CreateCommandOption::new(
        serenity::CommandOptionType::SubCommand,
        "pick",
        "Pick a square",
    )
    .add_sub_option(
        serenity::CreateCommandOption::new(
            serenity::CommandOptionType::String,
            "square",
            "A square",
        )
        .required(true)
        .set_autocomplete(true),
    );
    let duel = serenity::CreateCommandOption::new(
        serenity::CommandOptionType::SubCommand,
        "duel",
        "Challenge someone",
    )
    .add_sub_option(
        serenity::CreateCommandOption::new(
            serenity::CommandOptionType::User,
            "opponent",
            "Who to challenge",
        )
        .required(true),
    )
    .add_sub_option(serenity::CreateCommandOption::new(
        serenity::CommandOptionType::Integer,
        "days",
        "Days per move",
    ));
    let thud = serenity::CreateCommand::new("thud")
        .description("Play Thud")
        .add_option(pick)
        .add_option(duel);
    serenity::GuildId::new(GUILD_ID)
        .set_commands(http, vec![thud])
        .await
        .expect("commands registered")
}

// ----- payload shapes -----------------------------------------------------------------------

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

// ----- Discord's rules ----------------------------------------------------------------------

#[tokio::test]
async fn discord_rules_are_enforced() {
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    http.set_application_id(serenity::ApplicationId::new(APPLICATION_ID));

    let nameless = serenity::CreateCommand::new("thud");
    let refused = serenity::GuildId::new(GUILD_ID)
        .set_commands(&http, vec![nameless])
        .await;
    assert_eq!(
        discord_error(refused),
        (400, 50035),
        "a slash command needs a description"
    );
    let last = fake.requests().pop().expect("the PUT was recorded");
    assert_eq!(
        last.response.as_ref().expect("an error body")["errors"]["0"]["description"]["_errors"][0]
            ["code"],
        "BASE_TYPE_BAD_LENGTH"
    );
    register_test_commands(&http).await;

    let (_socket, _) = identify(&fake, intent::GUILDS).await;
    let unknown_option = SlashCommand::thud("pick").option("colour", "red");
    assert!(matches!(
        fake.run_command(&unknown_option).await,
        Err(FakeError::Rejected(_))
    ));
    let missing_required = SlashCommand::thud("duel");
    assert!(matches!(
        fake.run_command(&missing_required).await,
        Err(FakeError::Rejected(_))
    ));

    let pick = fake
        .run_command(&SlashCommand::thud("pick").option("square", "F5"))
        .await
        .expect("delivered");
    let id = serenity::InteractionId::new(pick.id);
    let followup_first = http
        .create_followup_message(&pick.token, &json!({"content": "too early"}), vec![])
        .await;
    assert_eq!(
        discord_error(followup_first),
        (404, 10015),
        "no followup before the interaction is acknowledged"
    );
    let empty = http
        .create_interaction_response(
            id,
            &pick.token,
            &json!({"type": 4, "data": {"content": ""}}),
            vec![],
        )
        .await;
    assert_eq!(discord_error(empty), (400, 50006));
    let wrong_type = http
        .create_interaction_response(
            id,
            &pick.token,
            &json!({"type": 8, "data": {"choices": []}}),
            vec![],
        )
        .await;
    assert_eq!(
        discord_error(wrong_type),
        (400, 50035),
        "autocomplete results only answer autocomplete"
    );
    let both = json!({"type": 4, "data": {"content": "<@1>", "allowed_mentions": {"parse": ["users"], "users": ["1"]}}});
    assert_eq!(
        discord_error(
            http.create_interaction_response(id, &pick.token, &both, vec![])
                .await
        ),
        (400, 50035)
    );
    let too_many = json!({"type": 4, "data": {"content": "six buttons", "components": [{"type": 1, "components":
        (0..6).map(|i| json!({"type": 2, "style": 1, "label": "b", "custom_id": format!("b{i}")})).collect::<Vec<_>>()}]}});
    assert_eq!(
        discord_error(
            http.create_interaction_response(id, &pick.token, &too_many, vec![])
                .await
        ),
        (400, 50035)
    );
    http.create_interaction_response(
        id,
        &pick.token,
        &json!({"type": 4, "data": {"content": "F5"}}),
        vec![],
    )
    .await
    .expect("a proper answer is accepted");
    let twice = http
        .create_interaction_response(
            id,
            &pick.token,
            &json!({"type": 4, "data": {"content": "again"}}),
            vec![],
        )
        .await;
    assert_eq!(discord_error(twice), (400, 40060));
    let original = http
        .get_original_interaction_response(&pick.token)
        .await
        .expect("@original exists");
    assert_eq!(original.content, "F5");
    assert_eq!(original.webhook_id.map(|w| w.get()), Some(APPLICATION_ID));
    let png = board_png().expect("a picture");
    let picture = serenity::CreateAttachment::bytes(png, "board.png");
    let edited = http
        .edit_original_interaction_response(
            &pick.token,
            &json!({"content": "F5, confirmed"}),
            vec![picture],
        )
        .await
        .expect("@original edited with a new attachment");
    assert_eq!(
        (edited.id, edited.content.as_str()),
        (original.id, "F5, confirmed")
    );
    assert_eq!(
        edited.attachments.len(),
        1,
        "an upload is added to an edited message"
    );
    let followup = http
        .create_followup_message(
            &pick.token,
            &json!({"content": "and one more thing"}),
            vec![],
        )
        .await
        .expect("followup posted");
    assert_ne!(followup.id, original.id);
    let changed = http
        .edit_followup_message(
            &pick.token,
            followup.id,
            &json!({"content": "never mind"}),
            vec![],
        )
        .await
        .expect("followup edited");
    assert_eq!(changed.content, "never mind");
    assert_eq!(
        http.get_followup_message(&pick.token, followup.id)
            .await
            .expect("followup fetched")
            .content,
        "never mind"
    );
    http.delete_original_interaction_response(&pick.token)
        .await
        .expect("@original deleted");
    assert_eq!(
        discord_error(http.get_original_interaction_response(&pick.token).await),
        (404, 10008)
    );
    let elsewhere = http
        .get_followup_message(&pick.token, serenity::MessageId::new(42))
        .await;
    assert_eq!(
        discord_error(elsewhere),
        (404, 10008),
        "a token reaches only its own messages"
    );

    // An autocomplete result is limited to 25 choices.
    let typing = fake
        .run_command(&SlashCommand::thud("pick").autocomplete("square", ""))
        .await
        .expect("delivered");
    let choices: Vec<Value> = (0..26)
        .map(|i| json!({"name": format!("S{i}"), "value": format!("S{i}")}))
        .collect();
    let over = http
        .create_interaction_response(
            serenity::InteractionId::new(typing.id),
            &typing.token,
            &json!({"type": 8, "data": {"choices": choices}}),
            vec![],
        )
        .await;
    assert_eq!(discord_error(over), (400, 50035));

    // Deferred: the first followup fills in the "thinking" message.
    let slow = fake
        .run_command(&SlashCommand::thud("pick").option("square", "G7"))
        .await
        .expect("delivered");
    http.create_interaction_response(
        serenity::InteractionId::new(slow.id),
        &slow.token,
        &json!({"type": 5, "data": {"flags": 64}}),
        vec![],
    )
    .await
    .expect("deferred");
    let loading = fake.original_response(&slow).expect("a placeholder exists");
    assert_eq!(loading["flags"], 64 | 128);
    let filled = http
        .create_followup_message(&slow.token, &json!({"content": "G7 it is"}), vec![])
        .await
        .expect("followup");
    assert_eq!(
        filled.id.get(),
        snowflake(&loading["id"]).expect("an id"),
        "the followup edited the placeholder"
    );
    assert_eq!(fake.original_response(&slow).expect("stored")["flags"], 64);

    // Too late: Discord forgets an interaction not answered within 3 seconds.
    fake.set_response_deadline(Duration::ZERO);
    let late = fake
        .run_command(&SlashCommand::thud("pick").option("square", "H2"))
        .await
        .expect("delivered");
    tokio::time::sleep(Duration::from_millis(5)).await;
    let answer = http
        .create_interaction_response(
            serenity::InteractionId::new(late.id),
            &late.token,
            &json!({"type": 4, "data": {"content": "late"}}),
            vec![],
        )
        .await;
    assert_eq!(discord_error(answer), (404, 10062));
}

#[tokio::test]
async fn serenity_heartbeats_are_acknowledged() {
    let fake = FakeDiscord::start_with_heartbeat(200).await;
    let mut client =
        serenity::ClientBuilder::new_with_http(fake.http(), serenity::GatewayIntents::GUILDS)
            .await
            .expect("client built");
    let shard_manager = client.shard_manager.clone();
    let bot = tokio::spawn(async move { client.start().await });
    // serenity sends its first heartbeat one interval after IDENTIFY, and the next only if the
    // previous one was acknowledged (otherwise it reconnects): three heartbeats on the first
    // connection prove the acks are understood.
    let heartbeats = |frames: &[GatewayFrame]| {
        frames
            .iter()
            .filter(|f| f.direction == Direction::Received && f.payload["op"] == 1)
            .count()
    };
    let frames = fake
        .wait_for_frames(|frames| heartbeats(frames) >= 3, WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        frames.iter().all(|f| f.connection == 1),
        "serenity reconnected"
    );
    let first = frames
        .iter()
        .find(|f| f.payload["op"] == 1)
        .expect("a heartbeat");
    assert_eq!(
        first.payload["d"], 2,
        "the heartbeat carries the last sequence number (READY, GUILD_CREATE)"
    );
    let acks = frames
        .iter()
        .filter(|f| f.direction == Direction::Sent && f.payload["op"] == 11)
        .count();
    assert!(acks >= 2, "{acks} acks");
    shard_manager.shutdown_all().await;
    tokio::time::timeout(WAIT, bot)
        .await
        .expect("the client stops")
        .expect("no panic")
        .expect("clean stop");
    fake.wait_until_disconnected(WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
}

// ----- a real poise bot ---------------------------------------------------------------------

struct Data;
type Error = Box<dyn std::error::Error + Send + Sync>;
type Context<'a> = poise::Context<'a, Data, Error>;

const SQUARES: [&str; 5] = ["F1", "F5", "G7", "H2", "J15"];

/// Commands for the harness self-test
#[poise::command(
    slash_command,
    subcommands("ping", "square", "confirm", "picture"),
    subcommand_required
)]
async fn thud(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Check that the bot answers
#[poise::command(slash_command)]
async fn ping(ctx: Context<'_>) -> Result<(), Error> {
    ctx.send(
        poise::CreateReply::default()
            .content("Pong")
            .ephemeral(true),
    )
    .await?;
    Ok(())
}

async fn complete_square(_ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let typed = partial.to_uppercase();
    let choices = SQUARES
        .iter()
        .filter(|square| square.starts_with(&typed))
        .map(|square| serenity::AutocompleteChoice::new(*square, *square))
        .collect();
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}

/// Pick a square
#[poise::command(slash_command)]
async fn square(
    ctx: Context<'_>,
    #[description = "The square to pick"]
    #[autocomplete = "complete_square"]
    square: String,
) -> Result<(), Error> {
    ctx.say(format!("You picked {square}")).await?;
    Ok(())
}

fn confirm_button(disabled: bool) -> serenity::CreateActionRow {
    let button = serenity::CreateButton::new("confirm:1")
        .label("Confirm")
        .style(serenity::ButtonStyle::Success)
        .disabled(disabled);
    serenity::CreateActionRow::Buttons(vec![button])
}

/// Post a message with a confirm button
#[poise::command(slash_command)]
async fn confirm(ctx: Context<'_>) -> Result<(), Error> {
    ctx.send(
        poise::CreateReply::default()
            .content("Confirm the move?")
            .components(vec![confirm_button(false)]),
    )
    .await?;
    Ok(())
}

fn board_png() -> Result<Vec<u8>, Error> {
    let board = image::RgbaImage::from_fn(8, 6, |x, y| {
        if (x + y) % 2 == 0 {
            image::Rgba([200, 180, 140, 255])
        } else {
            image::Rgba([90, 60, 30, 255])
        }
    });
    let mut bytes = Vec::new();
    image::DynamicImage::ImageRgba8(board)
        .write_to(&mut Cursor::new(&mut bytes), image::ImageFormat::Png)?;
    Ok(bytes)
}

/// Post a board picture that pings only the player to move
#[poise::command(slash_command)]
async fn picture(
    ctx: Context<'_>,
    #[description = "The player to move"] player: serenity::User,
) -> Result<(), Error> {
    let content = format!("<@{}> to move against <@{}>", player.id, ctx.author().id);
    let reply = poise::CreateReply::default()
        .content(content)
        .attachment(serenity::CreateAttachment::bytes(board_png()?, "board.png"))
        .allowed_mentions(serenity::CreateAllowedMentions::new().users([player.id]));
    ctx.send(reply).await?;
    Ok(())
}

async fn on_event(
    framework: poise::FrameworkContext<'_, Data, Error>,
    event: &serenity::FullEvent,
) -> Result<(), Error> {
    if let serenity::FullEvent::InteractionCreate {
        interaction: serenity::Interaction::Component(click),
    } = event
    {
        if click.data.custom_id == "confirm:1" {
            let update = serenity::CreateInteractionResponseMessage::new()
                .content(format!("Confirmed by <@{}>", click.user.id))
                .components(vec![confirm_button(true)]);
            click
                .create_response(
                    framework.serenity_context,
                    serenity::CreateInteractionResponse::UpdateMessage(update),
                )
                .await?;
        }
    }
    Ok(())
}

#[tokio::test]
async fn poise_bot_runs_against_the_fake() {
    let logs = capture_logs();
    let fake = FakeDiscord::start().await;
    let framework = poise::Framework::builder()
        .options(poise::FrameworkOptions {
            commands: vec![thud()],
            event_handler: |framework, event| Box::pin(on_event(framework, event)),
            ..Default::default()
        })
        .setup(|ctx, _ready, framework| {
            Box::pin(async move {
                let guild = serenity::GuildId::new(GUILD_ID);
                poise::builtins::register_in_guild(ctx, &framework.options().commands, guild)
                    .await?;
                Ok(Data)
            })
        })
        .build();
    let intents = serenity::GatewayIntents::non_privileged();
    let mut client = serenity::ClientBuilder::new_with_http(fake.http(), intents)
        .framework(framework)
        .await
        .expect("client built");
    let shard_manager = client.shard_manager.clone();
    let bot = tokio::spawn(async move { client.start().await });

    // Registration: one /thud command with its four subcommands, all described.
    let registration = fake
        .wait_for(
            |r| {
                r.method == "PUT"
                    && r.path
                        == format!("/applications/{APPLICATION_ID}/guilds/{GUILD_ID}/commands")
            },
            WAIT,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(registration.status, 200);
    let startup: Vec<(String, String)> = fake
        .requests()
        .iter()
        .take(3)
        .map(|r| (r.method.clone(), r.path.clone()))
        .collect();
    let expected = [
        ("GET", "/gateway".to_string()),
        ("GET", "/oauth2/applications/@me".to_string()),
        (
            "PUT",
            format!("/applications/{APPLICATION_ID}/guilds/{GUILD_ID}/commands"),
        ),
    ];
    assert_eq!(
        startup,
        expected.map(|(m, p)| (m.to_string(), p)),
        "serenity asks for the gateway, poise for the owners, then setup registers"
    );
    let commands = registration.json().as_array().expect("a command list");
    assert_eq!(commands.len(), 1);
    assert_eq!(commands[0]["name"], "thud");
    assert_eq!(
        commands[0]["description"],
        "Commands for the harness self-test"
    );
    let subcommands = commands[0]["options"].as_array().expect("subcommands");
    let names: Vec<&str> = subcommands
        .iter()
        .filter_map(|o| o["name"].as_str())
        .collect();
    assert_eq!(names, ["ping", "square", "confirm", "picture"]);
    assert!(subcommands
        .iter()
        .all(|o| o["type"] == 1 && o["description"].as_str().is_some_and(|d| !d.is_empty())));
    let square_option = &subcommands[1]["options"][0];
    assert_eq!(
        (
            square_option["type"].clone(),
            square_option["autocomplete"].clone(),
            square_option["required"].clone()
        ),
        (json!(3), json!(true), json!(true))
    );
    assert_eq!(
        fake.identify().expect("IDENTIFY received")["intents"],
        intents.bits()
    );

    // An ephemeral reply.
    let ping = fake
        .run_command(&SlashCommand::thud("ping").by(BOB))
        .await
        .expect("delivered");
    let reply = fake
        .response_to(&ping, WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(reply.interaction_response_type(), Some(4));
    assert!(reply.is_ephemeral());
    assert_eq!(reply.content(), Some("Pong"));
    assert_eq!(reply.status, 204);

    // Autocomplete, then the finished command.
    let typing = fake
        .run_command(&SlashCommand::thud("square").autocomplete("square", "f"))
        .await
        .expect("delivered");
    let suggestions = fake
        .response_to(&typing, WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(suggestions.interaction_response_type(), Some(8));
    let offered: Vec<Value> = suggestions
        .choices()
        .iter()
        .map(|c| c["value"].clone())
        .collect();
    assert_eq!(offered, [json!("F1"), json!("F5")]);
    let picked = fake
        .run_command(&SlashCommand::thud("square").option("square", "F5"))
        .await
        .expect("delivered");
    let said = fake
        .response_to(&picked, WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        (
            said.interaction_response_type(),
            said.content(),
            said.is_ephemeral()
        ),
        (Some(4), Some("You picked F5"), false)
    );

    // A button, clicked by someone else, answered by updating the message.
    let ask = fake
        .run_command(&SlashCommand::thud("confirm"))
        .await
        .expect("delivered");
    let question = fake
        .response_to(&ask, WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let buttons = question.buttons();
    assert_eq!(buttons.len(), 1);
    assert_eq!(
        (buttons[0]["custom_id"].clone(), buttons[0]["style"].clone()),
        (json!("confirm:1"), json!(3))
    );
    let message = fake
        .original_response(&ask)
        .expect("the question is stored");
    let message_id = snowflake(&message["id"]).expect("an id");
    let click = fake
        .click_button(CAROL, message_id, "confirm:1")
        .await
        .expect("delivered");
    let update = fake
        .response_to(&click, WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(update.interaction_response_type(), Some(7));
    assert_eq!(
        update.content(),
        Some(format!("Confirmed by <@{}>", CAROL.id).as_str())
    );
    assert_eq!(update.buttons()[0]["disabled"], true);
    let stored = fake.message(message_id).expect("still stored");
    assert_eq!(stored["content"], format!("Confirmed by <@{}>", CAROL.id));
    assert!(
        matches!(
            fake.click_button(ALICE, message_id, "confirm:1").await,
            Err(FakeError::Rejected(_))
        ),
        "a disabled button cannot be clicked"
    );

    // A picture that pings only the player to move.
    let show = fake
        .run_command(
            &SlashCommand::thud("picture")
                .option("player", ALICE)
                .by(BOB),
        )
        .await
        .expect("delivered");
    let posted = fake
        .response_to(&show, WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(posted.interaction_response_type(), Some(4));
    assert_eq!(posted.attachments().len(), 1);
    let file = &posted.attachments()[0];
    assert_eq!(
        (
            file.field.as_str(),
            file.filename.as_str(),
            file.content_type.as_deref()
        ),
        ("files[0]", "board.png", Some("image/png"))
    );
    let picture = image::load_from_memory_with_format(&file.data, image::ImageFormat::Png)
        .expect("the attachment is a PNG");
    assert_eq!((picture.width(), picture.height()), (8, 6));
    assert_eq!(
        posted.allowed_mentions(),
        Some(&json!({"parse": [], "users": [ALICE.id.to_string()], "roles": []}))
    );
    assert_eq!(
        mentioned_users(posted.content().unwrap_or("")),
        vec![ALICE.id, BOB.id]
    );
    assert_eq!(posted.pinged_users(), vec![ALICE.id]);
    let shown = fake.original_response(&show).expect("stored");
    assert_eq!(
        (
            shown["attachments"][0]["width"].clone(),
            shown["attachments"][0]["height"].clone()
        ),
        (json!(8), json!(6))
    );

    assert_eq!(fake.frames_serenity_cannot_read(), Vec::<String>::new());
    assert!(
        fake.unexpected_requests().is_empty(),
        "unexpected calls: {:?}",
        fake.unexpected_requests()
    );
    assert!(
        fake.failed_requests().is_empty(),
        "refused calls: {:?}",
        fake.failed_requests()
            .iter()
            .map(RecordedRequest::summary)
            .collect::<Vec<_>>()
    );

    // Clean shutdown: the shard closes the gateway and `start` returns.
    shard_manager.shutdown_all().await;
    let finished = tokio::time::timeout(WAIT, bot)
        .await
        .expect("the client stops");
    finished
        .expect("the client task did not panic")
        .expect("the client stopped cleanly");
    fake.wait_until_disconnected(WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        logs.lines().is_empty(),
        "serenity or poise complained:\n{}",
        logs.lines().join("\n")
    );
}

// ----- failing like Discord ----------------------------------------------------------------

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

    // Interaction responses are webhooks: no channel permission is checked.
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
    http.create_followup_message(
        &pick.token,
        &json!({"content": "followed up"}),
        vec![serenity::CreateAttachment::bytes(
            vec![1, 2, 3],
            "board.png",
        )],
    )
    .await
    .expect("nor do followups");

    assert_eq!(fake.refused_with(50013).len(), 5);
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

#[tokio::test]
async fn injected_429s_5xx_and_dropped_connections() {
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    let general = serenity::ChannelId::new(GENERAL_CHANNEL);

    let normal = general.say(&http, "first").await.expect("posted");
    let answered = fake.requests().pop().expect("recorded");
    assert_eq!(answered.response_header("x-ratelimit-limit"), Some("5"));
    assert_eq!(answered.response_header("x-ratelimit-remaining"), Some("4"));
    assert!(answered.response_header("x-ratelimit-bucket").is_some());
    assert!(answered
        .response_header("x-ratelimit-reset-after")
        .is_some());

    fake.rate_limit("POST /channels/*/messages", 1, Duration::from_millis(500));
    assert_eq!(
        discord_error(general.say(&http, "limited").await).0,
        429,
        "with serenity's ratelimiter off the 429 reaches the caller"
    );
    let limited = fake.requests().pop().expect("recorded");
    assert!(limited.injected);
    assert_eq!(limited.response_header("retry-after"), Some("1"));
    assert_eq!(limited.response_header("x-ratelimit-scope"), Some("user"));
    assert_eq!(limited.response_header("x-ratelimit-remaining"), Some("0"));
    assert_eq!(
        limited.response,
        Some(
            json!({"message": "You are being rate limited.", "retry_after": 0.5, "global": false})
        )
    );

    fake.fail_with_status("/channels/*/messages", 1, 502);
    assert_eq!(
        discord_error(general.say(&http, "bad gateway").await),
        (502, 0)
    );
    fake.drop_connection("POST /channels/*/messages", 1);
    assert!(matches!(
        general.say(&http, "dropped").await,
        Err(serenity::Error::Http(serenity::HttpError::Request(_)))
    ));
    general.say(&http, "second").await.expect("posted");
    assert_eq!(
        fake.channel_messages(GENERAL_CHANNEL).len(),
        2,
        "failures post nothing"
    );
    assert_eq!(fake.injected_failures().len(), 3);
    assert!(
        fake.refused_with(0).is_empty(),
        "injected failures are not Discord's refusals"
    );

    // serenity's ratelimiter reads these headers as numbers (ratelimiting.rs, parse_header):
    // limit and remaining as i64, reset, reset-after and retry-after as f64. It cannot be run
    // against the fake itself: with the ratelimiter on, serenity 0.12 builds requests without the
    // proxy and so always calls https://discord.com.
    for request in [&answered, &limited] {
        for name in ["x-ratelimit-limit", "x-ratelimit-remaining"] {
            let value = request.response_header(name).expect("header");
            value.parse::<i64>().expect("an integer");
        }
        for name in ["x-ratelimit-reset", "x-ratelimit-reset-after"] {
            let value = request.response_header(name).expect("header");
            value.parse::<f64>().expect("a number");
        }
    }
    let global = Failure::RateLimited {
        retry_after: Duration::from_millis(1500),
        global: true,
    };
    fake.inject("**", 1, global);
    assert_eq!(discord_error(http.get_current_user().await).0, 429);
    let globally = fake.requests().pop().expect("recorded");
    assert_eq!(globally.response_header("x-ratelimit-global"), Some("true"));
    assert_eq!(
        globally.response_header("x-ratelimit-scope"),
        Some("global")
    );
    assert_eq!(globally.response_header("retry-after"), Some("2"));
    assert_ne!(normal.id.get(), 0);
    assert!(fake.unexpected_requests().is_empty());
}

#[tokio::test]
async fn interaction_tokens_expire_on_the_test_clock() {
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    http.set_application_id(serenity::ApplicationId::new(APPLICATION_ID));
    register_test_commands(&http).await;
    let (_socket, _) = identify(&fake, intent::GUILDS).await;
    let pick = SlashCommand::thud("pick").option("square", "F5");
    let answer = json!({"type": 4, "data": {"content": "ok"}});

    let late = fake.run_command(&pick).await.expect("delivered");
    fake.advance(Duration::from_secs(4));
    assert_eq!(
        discord_error(
            http.create_interaction_response(
                serenity::InteractionId::new(late.id),
                &late.token,
                &answer,
                vec![]
            )
            .await
        ),
        (404, 10062),
        "three seconds to answer"
    );

    let sent = fake.run_command(&pick).await.expect("delivered");
    http.create_interaction_response(
        serenity::InteractionId::new(sent.id),
        &sent.token,
        &answer,
        vec![],
    )
    .await
    .expect("answered in time");
    fake.advance(Duration::from_secs(14 * 60));
    http.create_followup_message(&sent.token, &json!({"content": "still valid"}), vec![])
        .await
        .expect("within 15 minutes");
    fake.advance(Duration::from_secs(61));
    assert_eq!(
        discord_error(
            http.create_followup_message(&sent.token, &json!({"content": "too late"}), vec![])
                .await
        ),
        (401, 50027)
    );
    assert_eq!(
        discord_error(
            http.edit_original_interaction_response(&sent.token, &json!({"content": "x"}), vec![])
                .await
        ),
        (401, 50027)
    );
    assert!(fake.unexpected_requests().is_empty());
}

#[tokio::test]
async fn uploads_nonces_and_closed_dms_follow_discord() {
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    let thud = serenity::ChannelId::new(THUD_CHANNEL);
    let file = |n: usize, size: usize| {
        serenity::CreateAttachment::bytes(vec![0; size], format!("f{n}.bin"))
    };

    let eleven = (0..11).fold(serenity::CreateMessage::new(), |m, n| {
        m.add_file(file(n, 1))
    });
    let refused = thud.send_message(&http, eleven).await;
    assert_eq!(discord_error(refused), (400, 50035));
    let ten = (0..10).fold(serenity::CreateMessage::new(), |m, n| {
        m.add_file(file(n, 1))
    });
    thud.send_message(&http, ten)
        .await
        .expect("ten files are fine");
    let limit = ATTACHMENT_SIZE_LIMIT as usize;
    let too_big = serenity::CreateMessage::new().add_file(file(0, limit + 1));
    assert_eq!(
        discord_error(thud.send_message(&http, too_big).await),
        (413, 40005)
    );
    let just_fits = serenity::CreateMessage::new().add_file(file(0, limit));
    thud.send_message(&http, just_fits)
        .await
        .expect("10 MiB fits");
    let described =
        serenity::CreateMessage::new().add_file(file(0, 1).description("x".repeat(1025)));
    assert_eq!(
        discord_error(thud.send_message(&http, described).await),
        (400, 50035)
    );
    fake.set_upload_limit(1000);
    let over = serenity::CreateMessage::new().add_file(file(0, 1001));
    assert_eq!(
        discord_error(thud.send_message(&http, over).await),
        (413, 40005)
    );
    let before = fake.channel_messages(THUD_CHANNEL).len();

    let notice = || {
        serenity::CreateMessage::new()
            .content("Bob, your move")
            .nonce(serenity::Nonce::String("notice-42".into()))
            .enforce_nonce(true)
    };
    let first = thud.send_message(&http, notice()).await.expect("posted");
    let again = thud.send_message(&http, notice()).await.expect("answered");
    assert_eq!(
        again.id, first.id,
        "the same nonce returns the same message"
    );
    assert_eq!(fake.channel_messages(THUD_CHANNEL).len(), before + 1);
    fake.advance(Duration::from_secs(6 * 60));
    let later = thud.send_message(&http, notice()).await.expect("posted");
    assert_ne!(
        later.id, first.id,
        "the nonce is forgotten after a few minutes"
    );
    let unenforced = || {
        serenity::CreateMessage::new()
            .content("x")
            .nonce(serenity::Nonce::String("plain".into()))
    };
    thud.send_message(&http, unenforced())
        .await
        .expect("posted");
    thud.send_message(&http, unenforced())
        .await
        .expect("posted");
    assert_eq!(fake.channel_messages(THUD_CHANNEL).len(), before + 4);

    fake.close_dms(BOB.id);
    let dm = serenity::UserId::new(BOB.id)
        .create_dm_channel(&http)
        .await
        .expect("the DM channel still opens");
    assert_eq!(
        discord_error(dm.id.say(&http, "your move").await),
        (403, 50007)
    );
    assert!(fake.unexpected_requests().is_empty());
}
