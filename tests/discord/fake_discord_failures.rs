//! Self-test of the fake Discord failing like Discord on the wire: injected 429s, 5xx and
//! dropped connections, expiring interaction tokens, upload limits, nonces and closed DMs.

use crate::support::BotHttp;
use std::time::Duration;

use poise::serenity_prelude as serenity;
use serde_json::json;

use crate::support::fake_discord::*;
use crate::support::probe::{discord_error, identify, register_test_commands};

#[tokio::test]
async fn injected_429s_5xx_and_dropped_connections() {
    let fake = FakeDiscord::start().await;
    // Straight to the fake: the bot's own relay would wait the 429 out.
    let http = fake.http_direct();
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
        "with serenity's ratelimiter off and no relay the 429 reaches the caller"
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

#[tokio::test]
async fn enforced_rate_limits_share_a_bucket_between_posts_and_edits_and_refuse_without_acting() {
    let fake = FakeDiscord::start().await;
    fake.enforce_rate_limits(2, Duration::from_secs(30));
    let http = fake.http_direct();
    let general = serenity::ChannelId::new(GENERAL_CHANNEL);
    let first = general.say(&http, "first").await.expect("posted");
    let edit = serenity::EditMessage::new().content("edited");
    general
        .edit_message(&http, first.id, edit)
        .await
        .expect("edited");
    let answered = fake.requests();
    assert_eq!(
        answered[1].response_header("x-ratelimit-remaining"),
        Some("0")
    );
    assert_eq!(
        answered[0].response_header("x-ratelimit-bucket"),
        answered[1].response_header("x-ratelimit-bucket"),
        "a post and an edit in one channel share a bucket"
    );
    // The third write of the window, on either route, is refused and makes nothing.
    assert_eq!(discord_error(general.say(&http, "third").await).0, 429);
    let limited = fake.requests().pop().expect("recorded");
    assert!(!limited.injected, "the fake's own 429");
    assert_eq!(limited.response_header("x-ratelimit-scope"), Some("user"));
    assert_eq!(
        limited.response_header("x-ratelimit-bucket"),
        answered[0].response_header("x-ratelimit-bucket")
    );
    assert_eq!(fake.channel_messages(GENERAL_CHANNEL).len(), 1);
    // Another channel has a window of its own (its id is the major parameter).
    serenity::ChannelId::new(THUD_CHANNEL)
        .say(&http, "elsewhere")
        .await
        .expect("posted");
}
