//! Self-test of the fake Discord: it enforces Discord's rules on interactions, messages and
//! commands, and acknowledges serenity's heartbeats.

use crate::support::BotHttp;
use std::time::Duration;

use poise::serenity_prelude as serenity;
use serde_json::{json, Value};

use crate::support::fake_discord::*;
use crate::support::probe::{board_png, discord_error, identify, register_test_commands, WAIT};

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
