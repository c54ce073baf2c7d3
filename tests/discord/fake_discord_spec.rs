//! Self-test of the fake Discord's spec check (`support/fake_discord/spec`): every REST exchange
//! is held to Discord's OpenAPI description, the bot's request and the fake's answer alike; a
//! departure names the operation, the JSON pointer and the reason, and fails the test.

use crate::support::BotHttp;
use std::panic::{catch_unwind, AssertUnwindSafe};

use poise::serenity_prelude as serenity;
use serde_json::{json, Value};

use crate::support::fake_discord::*;
use crate::support::probe::{discord_error, identify, register_test_commands};

/// The panic message of a failed drop.
fn panic_message(payload: Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

#[tokio::test]
async fn an_answer_off_the_spec_is_caught_and_fails_the_test() {
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    let general = serenity::ChannelId::new(GENERAL_CHANNEL);
    general.say(&http, "fits").await.expect("posted");
    assert_eq!(fake.spec_violations(), vec![]);

    // A message answer whose author is null: Discord's message always has its author.
    fake.corrupt_answer("POST /channels/*/messages", 1, |message| {
        message["author"] = Value::Null;
    });
    let _ = general.say(&http, "corrupted").await;
    let violations = fake.spec_violations();
    assert_eq!(violations.len(), 1, "{violations:#?}");
    let found = &violations[0];
    assert_eq!(
        (
            found.operation.as_str(),
            found.side,
            found.status,
            found.pointer.as_str()
        ),
        ("create_message", "response", 200, "/author"),
        "{found}"
    );
    assert!(
        found.reason.contains("null is not of type \"object\""),
        "{found}"
    );

    // The fake fails the test that caused it when it goes, whatever the test asserted.
    let failure = catch_unwind(AssertUnwindSafe(move || drop(fake)))
        .expect_err("dropping a fake with violations fails the test");
    let message = panic_message(failure);
    assert!(
        message.contains("create_message") && message.contains("\"/author\""),
        "the failure names the operation and the pointer: {message}"
    );
}

#[tokio::test]
async fn a_request_the_spec_refuses_is_caught_when_the_fake_accepts_it() {
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    let general = serenity::ChannelId::new(GENERAL_CHANNEL);
    // `tts` is a boolean. The fake does not look at it; Discord's spec does.
    let loud = json!({"content": "hello", "tts": "loud"});
    http.send_message(general, vec![], &loud)
        .await
        .expect("the fake posts it");
    let sent = fake.requests().pop().expect("recorded");
    assert_eq!(sent.spec_verdict, Some(SpecVerdict::AcceptedAgainstSpec));
    let violations = fake.take_spec_violations();
    assert_eq!(violations.len(), 1, "{violations:#?}");
    assert_eq!(
        (
            violations[0].operation.as_str(),
            violations[0].side,
            violations[0].pointer.as_str()
        ),
        ("create_message", "request", "/tts"),
        "{}",
        violations[0]
    );
}

#[tokio::test]
async fn what_the_fake_refuses_on_purpose_the_spec_refuses_or_discords_docs_do() {
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    http.set_application_id(serenity::ApplicationId::new(APPLICATION_ID));
    register_test_commands(&http).await;
    let (_socket, _) = identify(&fake, intent::GUILDS).await;
    let pick = fake
        .run_command(&SlashCommand::thud("pick").option("square", "F5"))
        .await
        .expect("delivered");
    let id = serenity::InteractionId::new(pick.id);
    let verdict = |fake: &FakeDiscord| fake.requests().pop().and_then(|r| r.spec_verdict);

    // Six buttons in a row: the spec's action row holds five.
    let six = json!({"type": 4, "data": {"content": "six", "components": [{"type": 1, "components":
        (0..6).map(|i| json!({"type": 2, "style": 1, "label": "b", "custom_id": format!("b{i}")})).collect::<Vec<_>>()}]}});
    let refused = http
        .create_interaction_response(id, &pick.token, &six, vec![])
        .await;
    assert_eq!(discord_error(refused), (400, 50035));
    assert_eq!(verdict(&fake), Some(SpecVerdict::RefusedAsSpecRefuses));

    // 26 autocomplete choices: the spec allows 25.
    let many = json!({"type": 8, "data": {"choices":
        (0..26).map(|i| json!({"name": i.to_string(), "value": i.to_string()})).collect::<Vec<_>>()}});
    let refused = http
        .create_interaction_response(id, &pick.token, &many, vec![])
        .await;
    assert_eq!(discord_error(refused).0, 400);
    assert_eq!(verdict(&fake), Some(SpecVerdict::RefusedAsSpecRefuses));

    // 2,001 characters in an interaction's answer: the spec allows 2,000 there.
    let long = json!({"type": 4, "data": {"content": "x".repeat(2001)}});
    let refused = http
        .create_interaction_response(id, &pick.token, &long, vec![])
        .await;
    assert_eq!(discord_error(refused), (400, 50035));
    assert_eq!(verdict(&fake), Some(SpecVerdict::RefusedAsSpecRefuses));

    // Rules of Discord's docs that the schema does not carry: 2,000 characters in a channel
    // message (the schema says 4,000, a Nitro user's limit), and `parse: ["users"]` beside a
    // `users` list.
    let general = serenity::ChannelId::new(GENERAL_CHANNEL);
    let long = json!({"content": "x".repeat(2001)});
    let refused = http.send_message(general, vec![], &long).await;
    assert_eq!(discord_error(refused), (400, 50035));
    assert_eq!(verdict(&fake), Some(SpecVerdict::RefusedBeyondSpec));
    let both = json!({"type": 4, "data": {"content": "<@1>", "allowed_mentions": {"parse": ["users"], "users": ["1"]}}});
    let refused = http
        .create_interaction_response(id, &pick.token, &both, vec![])
        .await;
    assert_eq!(discord_error(refused), (400, 50035));
    assert_eq!(verdict(&fake), Some(SpecVerdict::RefusedBeyondSpec));

    let fine = json!({"type": 4, "data": {"content": "F5"}});
    http.create_interaction_response(id, &pick.token, &fine, vec![])
        .await
        .expect("a proper answer is accepted");
    assert_eq!(verdict(&fake), Some(SpecVerdict::Fits));
    fake.assert_spec_kept();
}

#[tokio::test]
async fn the_fakes_answers_have_discords_shapes() {
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    http.set_application_id(serenity::ApplicationId::new(APPLICATION_ID));

    // The application as poise asks for it at startup: every field the spec requires.
    http.get_current_application_info()
        .await
        .expect("the application");
    let application = fake
        .requests()
        .pop()
        .and_then(|r| r.response)
        .expect("JSON");
    for field in [
        "flags_new",
        "approximate_user_authorization_count",
        "explicit_content_filter",
        "eligible_oauth2_scopes",
    ] {
        assert!(application.get(field).is_some(), "{field} in {application}");
    }

    // Registered commands come back without the nulls and empty lists poise sends.
    register_test_commands(&http).await;
    let registered = fake
        .requests()
        .pop()
        .and_then(|r| r.response)
        .expect("JSON");
    let mut options: Vec<Value> = registered[0]["options"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    while let Some(option) = options.pop() {
        for (key, value) in option.as_object().into_iter().flatten() {
            assert!(!value.is_null(), "{key} is null in {option}");
            assert!(
                value.as_array().is_none_or(|a| !a.is_empty()) || key == "options",
                "{key} is empty in {option}"
            );
        }
        options.extend(option["options"].as_array().cloned().unwrap_or_default());
    }

    // A message's components each carry a numeric id, as Discord numbers them.
    let buttons = serenity::CreateMessage::new()
        .content("choose")
        .button(serenity::CreateButton::new("a").label("A"))
        .button(serenity::CreateButton::new("b").label("B"));
    let posted = serenity::ChannelId::new(GENERAL_CHANNEL)
        .send_message(&http, buttons)
        .await
        .expect("posted");
    let stored = fake.message(posted.id.get()).expect("stored");
    let row = &stored["components"][0];
    assert_eq!(row["id"], 1, "{stored}");
    assert_eq!(row["components"][0]["id"], 2, "{stored}");
    assert_eq!(row["components"][1]["id"], 3, "{stored}");
    fake.assert_spec_kept();
}
