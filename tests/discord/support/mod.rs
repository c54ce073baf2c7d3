//! Shared harness for the integration tests. Each test crate uses a different part of it.
#![allow(dead_code, unused_imports)]

pub mod bot;
pub mod probe;

// The fake Discord is a crate of its own (crates/fake-discord), named here as before.
pub use ::fake_discord;

use std::time::Duration;

use fake_discord::{FakeDiscord, TOKEN};

/// The serenity clients the tests aim at the fake, made as the bot makes its own (the fake
/// names nothing of the bot, so these live here).
pub trait BotHttp {
    /// The proxy set, the ratelimiter off, requests bounded by 10 s.
    fn http(&self) -> serenity::http::Http;
    /// Like [`BotHttp::http`], with requests bounded by `timeout`.
    fn http_with_timeout(&self, timeout: Duration) -> serenity::http::Http;
    /// The fake as a proxy with nothing in between (no relay, no rate limiter): every
    /// answer, 429s included, reaches the caller as the fake gave it.
    fn http_direct(&self) -> serenity::http::Http;
}

impl BotHttp for FakeDiscord {
    fn http(&self) -> serenity::http::Http {
        self.http_with_timeout(Duration::from_secs(10))
    }

    fn http_with_timeout(&self, timeout: Duration) -> serenity::http::Http {
        thudbot::discord::http(TOKEN, Some(self.rest_url()), timeout)
    }

    fn http_direct(&self) -> serenity::http::Http {
        serenity::http::HttpBuilder::new(TOKEN)
            .client(thudbot::discord::rest_client(Duration::from_secs(10)))
            .proxy(self.rest_url())
            .ratelimiter_disabled(true)
            .build()
    }
}
