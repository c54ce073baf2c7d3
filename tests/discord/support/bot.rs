//! A bot over a scratch database connected to a fresh fake Discord, and the steps the
//! end-to-end tests take with it.

use crate::support::BotHttp;
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, TimeZone, Utc};
use thudbot::config::Shards;
use thudbot::discord::{self, BotOptions, RunningBot, DEFER_AFTER};
use thudbot::service::{ManualClock, Service, ServiceConfig};
use thudbot::store::{ScratchDatabase, Store};

use super::fake_discord::*;
use poise::serenity_prelude as serenity;

/// The time every bot's clock starts at.
pub fn start_time() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 22, 12, 0, 0)
        .single()
        .unwrap_or_default()
}

pub const WAIT: Duration = Duration::from_secs(10);

/// A bot over a scratch database, connected to a fresh fake Discord.
pub struct Bot {
    pub fake: FakeDiscord,
    pub running: Option<RunningBot>,
    pub clock: Arc<ManualClock>,
    pub service: Arc<Service>,
    pub db: ScratchDatabase,
    pub logs: CapturedLogs,
}

pub async fn start_bot(adjust: impl FnOnce(&mut BotOptions)) -> Bot {
    start_bot_with(FakeDiscord::http, adjust).await
}

/// A bot whose REST client `http` makes for the fake (e.g. with serenity's rate limiter on).
pub async fn start_bot_with(
    http: impl FnOnce(&FakeDiscord) -> serenity::http::Http,
    adjust: impl FnOnce(&mut BotOptions),
) -> Bot {
    let logs = capture_logs();
    let fake = FakeDiscord::start().await;
    let db = ScratchDatabase::create().await.expect("a scratch database");
    let clock = Arc::new(ManualClock::new(start_time()));
    // The analysis at a budget small enough for tests (the standard one is for release builds).
    let service = Arc::new(
        Service::new(
            Store::new(db.pool().clone()),
            crate::common::renderer(),
            clock.clone(),
            ServiceConfig::default(),
        )
        .with_analysis_budget(thudbot::computer::analysis::Budget { nodes: 1_500 }),
    );
    let mut options = BotOptions {
        development_guild: Some(GUILD_ID),
        threads: false,
        clock_interval: Duration::from_millis(50),
        shards: Shards::Auto,
        defer_after: DEFER_AFTER,
        startup_patience: Duration::from_secs(5),
        delivery_interval: Duration::from_millis(50),
        members_intent: false,
        seat_batch: thudbot::discord::SEAT_BATCH,
    };
    adjust(&mut options);
    let running = discord::start(http(&fake), service.clone(), options)
        .await
        .expect("the bot starts");
    fake.wait_for(|r| r.method == "PUT" && r.path.ends_with("/commands"), WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    // Connected, so that a test that asks nothing of the gateway still stops cleanly.
    fake.wait_until_connected(WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    Bot {
        fake,
        running: Some(running),
        clock,
        service,
        db,
        logs,
    }
}

impl Bot {
    /// Delivers a command and returns the interaction and its callback.
    pub async fn command(&self, command: SlashCommand) -> (Dispatched, RecordedRequest) {
        let sent = self
            .fake
            .run_command(&command)
            .await
            .unwrap_or_else(|e| panic!("{}: {e}", command.display()));
        let reply = self
            .fake
            .response_to(&sent, WAIT)
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(
            reply.status < 300,
            "{} was refused: {}",
            command.display(),
            reply.summary()
        );
        (sent, reply)
    }

    /// A command answered by one message (type 4); returns that request.
    pub async fn say(&self, command: SlashCommand) -> RecordedRequest {
        let (_, reply) = self.command(command).await;
        assert_eq!(
            reply.interaction_response_type(),
            Some(4),
            "{}",
            reply.summary()
        );
        reply
    }

    /// The id of the message a command posted (once a deferred answer is filled in).
    pub async fn message_id(&self, sent: &Dispatched) -> u64 {
        let token = sent.token.clone();
        self.fake
            .wait_for(
                |r| {
                    (r.webhook_token() == Some(token.as_str()) && answers(r))
                        || (r
                            .interaction_callback()
                            .is_some_and(|(id, _)| id == sent.id)
                            && r.interaction_response_type() == Some(4))
                },
                WAIT,
            )
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        let message = self
            .fake
            .original_response(sent)
            .expect("the response is stored");
        snowflake(&message["id"]).expect("a message id")
    }

    /// `user` presses the button whose custom id starts with `prefix`; returns the interaction
    /// and its callback.
    pub async fn press(
        &self,
        user: TestUser,
        message: u64,
        prefix: &str,
    ) -> (Dispatched, RecordedRequest) {
        let stored = self.fake.message(message).expect("the message is stored");
        let id = buttons_of(stored["components"].as_array().expect("buttons"))
            .iter()
            .filter_map(|b| b["custom_id"].as_str().map(str::to_string))
            .find(|id| id.starts_with(prefix))
            .unwrap_or_else(|| panic!("no {prefix} button on {stored}"));
        let click = self
            .fake
            .click_button(user, message, &id)
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        let reply = self
            .fake
            .response_to(&click, WAIT)
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        (click, reply)
    }

    /// The first message of an interaction after its first response: a followup, or the edit
    /// that fills in a deferred response (an edit that only spends buttons does not count).
    pub async fn followup(&self, interaction: &Dispatched) -> RecordedRequest {
        let token = interaction.token.clone();
        self.fake
            .wait_for(
                |r| r.webhook_token() == Some(token.as_str()) && answers(r),
                WAIT,
            )
            .await
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// The first request since `mark` that `wanted` accepts, waiting for it while moving the
    /// bot's clock on by `step` between looks (the outbox's pauses before a retry run on that
    /// clock); panics after `WAIT * 3` saying it never saw `what`, with the requests it did.
    pub async fn wait_advancing(
        &self,
        mark: usize,
        step: chrono::Duration,
        what: &str,
        wanted: impl Fn(&RecordedRequest) -> bool,
    ) -> RecordedRequest {
        let deadline = tokio::time::Instant::now() + WAIT * 3;
        loop {
            let since = self.fake.requests().into_iter().skip(mark);
            if let Some(found) = since.clone().find(|r| wanted(r)) {
                return found;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "never saw {what}: {:#?}",
                since.map(|r| r.summary()).collect::<Vec<_>>()
            );
            self.clock.advance(step);
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// Stops the bot the way SIGTERM does, and checks that nothing went wrong on the wire.
    pub async fn finish(self) {
        self.stop(|_| false, false).await
    }

    /// Like [`Bot::finish`] for a test that made Discord fail: the refused or injected calls
    /// `expected` accepts are allowed, and so are the warnings they caused.
    pub async fn finish_expecting(self, expected: impl Fn(&RecordedRequest) -> bool) {
        self.stop(expected, true).await
    }

    async fn stop(mut self, expected: impl Fn(&RecordedRequest) -> bool, warnings: bool) {
        let running = self.running.take().expect("running");
        tokio::time::timeout(WAIT * 3, running.shutdown())
            .await
            .expect("shutdown finishes")
            .expect("the client stopped cleanly");
        self.fake
            .wait_until_disconnected(WAIT)
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            self.fake.frames_serenity_cannot_read(),
            Vec::<String>::new()
        );
        self.fake.assert_spec_kept();
        let unexpected: Vec<String> = self
            .fake
            .unexpected_requests()
            .iter()
            .map(RecordedRequest::summary)
            .collect();
        assert!(unexpected.is_empty(), "unexpected calls: {unexpected:#?}");
        let failed: Vec<String> = self
            .fake
            .failed_requests()
            .iter()
            .filter(|r| !expected(r))
            .map(RecordedRequest::summary)
            .collect();
        assert!(failed.is_empty(), "refused calls: {failed:#?}");
        assert!(
            warnings || self.logs.lines().is_empty(),
            "warnings were logged:\n{}",
            self.logs.lines().join("\n")
        );
    }
}

/// Whether a request on an interaction's webhook carries an answer: a followup, or an edit of
/// the original response with content.
pub fn answers(request: &RecordedRequest) -> bool {
    request.method == "POST"
        || (request.method == "PATCH"
            && request.path.ends_with("/messages/@original")
            && request.content().is_some())
}

/// The PNG attached to a request, decoded.
pub fn picture(request: &RecordedRequest) -> image::DynamicImage {
    let files = request.attachments();
    assert_eq!(files.len(), 1, "one attachment: {}", request.summary());
    assert_eq!(files[0].content_type.as_deref(), Some("image/png"));
    assert!(files[0].filename.ends_with(".png"));
    image::load_from_memory_with_format(&files[0].data, image::ImageFormat::Png)
        .expect("the attachment decodes as a PNG")
}

pub fn content(request: &RecordedRequest) -> String {
    request.content().unwrap_or_default().to_string()
}

pub fn custom_ids(request: &RecordedRequest) -> Vec<String> {
    request
        .buttons()
        .iter()
        .filter_map(|b| b["custom_id"].as_str().map(str::to_string))
        .collect()
}

pub fn choice_values(request: &RecordedRequest) -> Vec<String> {
    request
        .choices()
        .iter()
        .filter_map(|c| c["value"].as_str().map(str::to_string))
        .collect()
}

/// Challenges BOB as ALICE (dwarfs first) in `channel` and accepts by button; returns the
/// followup that starts the match.
pub async fn start_match(bot: &Bot, channel: u64) -> RecordedRequest {
    let (sent, _) = bot
        .command(
            SlashCommand::thud("challenge")
                .option("opponent", BOB)
                .option("side", 0i64)
                .in_channel(channel),
        )
        .await;
    let message = bot.message_id(&sent).await;
    let (click, update) = bot.press(BOB, message, "thud:accept:").await;
    // 7 updates the message at once; 6 acknowledges first when the answer is slow.
    assert!(matches!(update.interaction_response_type(), Some(6 | 7)));
    let begins = bot.followup(&click).await;
    let stored = bot.fake.message(message).expect("the challenge is stored");
    assert!(
        buttons_of(stored["components"].as_array().expect("rows"))
            .iter()
            .all(|b| b["disabled"] == true),
        "the challenge's buttons are spent: {stored}"
    );
    begins
}
