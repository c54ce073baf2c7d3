//! The delivery worker's Discord side (the worker is the outbox's, `service::notices::worker`):
//! posts the outbox's notices, at least once (what may
//! succeed later is tried again) and at most once on Discord's side (every post carries the
//! notice's nonce with `enforce_nonce`, so a retry after a post whose answer was lost returns
//! the message already made instead of making another).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{DateTime, Utc};
use poise::serenity_prelude as serenity;

use super::repair::{archive_if_thread, classify, missing_permissions, status_of, TOKEN_HOLD};
use super::{permissions, post};
use crate::service::{Deliverer, Delivery, DeliveryFailure, Reply, Service};
use crate::store::{ChannelId, Recipient};

/// What the worker reaches Discord with: the REST client and the gateway's cache (for the
/// bot's permissions in a channel), and whether Discord refused the bot's token.
#[derive(Clone)]
pub(super) struct Discord {
    pub http: Arc<serenity::Http>,
    pub cache: Arc<serenity::Cache>,
    pub token: Arc<TokenHold>,
}

/// Sending held after Discord answered 401 (the token was reset or revoked): nothing the
/// bot sends can succeed until the operator gives it a new token, and no match is to blame,
/// so notices wait (none is marked undeliverable, no clock is paused) and the operator is
/// told once, in the log, until a send succeeds again.
/// The times are the service's clock's, as the outbox's own retries are.
#[derive(Default)]
pub(super) struct TokenHold {
    until: Mutex<Option<DateTime<Utc>>>,
    said: AtomicBool,
}

impl TokenHold {
    /// How long sending is still held at `now`.
    fn left(&self, now: DateTime<Utc>) -> Option<Duration> {
        let until = (*self.until.lock().unwrap_or_else(|p| p.into_inner()))?;
        (until - now).to_std().ok().filter(|left| !left.is_zero())
    }

    /// Discord refused the token at `now`: hold sending, and say so the first time.
    fn refused(&self, now: DateTime<Utc>) {
        let until = now + chrono::Duration::seconds(TOKEN_HOLD.as_secs() as i64);
        *self.until.lock().unwrap_or_else(|p| p.into_inner()) = Some(until);
        if !self.said.swap(true, Ordering::SeqCst) {
            tracing::error!(
                "Discord refused the bot's token (401 Unauthorized): nothing can be sent until \
                 `thudbot` runs with a valid token. Notices wait in the outbox and no match is \
                 paused; sending is tried again every {} minutes.",
                TOKEN_HOLD.as_secs() / 60
            );
        }
    }

    /// A send went through: the token works.
    fn accepted(&self) {
        if self.said.swap(false, Ordering::SeqCst) {
            tracing::info!("Discord accepts the bot's token again; sending goes on");
        }
        *self.until.lock().unwrap_or_else(|p| p.into_inner()) = None;
    }
}

/// Discord's channels and direct messages as a way of telling players.
pub(super) struct Poster {
    pub service: Arc<Service>,
    pub discord: Discord,
}

impl Deliverer for Poster {
    async fn deliver(&self, delivery: &Delivery) -> Result<Option<u64>, DeliveryFailure> {
        if let Some(left) = self.discord.token.left(self.service.now()) {
            return Err(DeliveryFailure::Transient {
                reason: "Discord refused the bot's token; sending is held".into(),
                retry_after: Some(left),
            });
        }
        if let Some(tournament) = delivery.shows_field {
            let http = &self.discord.http;
            return super::announcement::show(&self.service, http, tournament).await;
        }
        if let Some(name) = &delivery.clears_room {
            let http = &self.discord.http;
            return super::rooms::clear_unused(&self.service, http, delivery, name).await;
        }
        if let Some(id) = delivery.shows_analysis {
            let discord = (&*self.discord.http, &*self.discord.cache);
            return super::analysis::show(&self.service, discord, delivery, id).await;
        }
        let last = match send(&self.service, &self.discord, delivery).await {
            Ok(last) => {
                self.discord.token.accepted();
                last
            }
            Err(e) => {
                if status_of(&e) == Some(401) {
                    self.discord.token.refused(self.service.now());
                }
                return Err(classify(&e));
            }
        };
        Ok(last)
    }
}

/// Posts one notice, each part of a long one with a nonce of its own, and returns the id of
/// its last message; a finished match's thread is archived instead. Where the bot may not
/// attach files (known from the cache, or learnt from Discord's 50013) the notice goes out
/// with its board as text.
async fn send(
    service: &Service,
    discord: &Discord,
    delivery: &Delivery,
) -> Result<Option<u64>, serenity::Error> {
    let http = &*discord.http;
    let (channel, granted) = match delivery.to {
        // Opening a direct message channel is idempotent: Discord returns the existing one.
        Recipient::Dm(player) => {
            let dm = serenity::UserId::new(player.0.max(1))
                .create_dm_channel(http)
                .await?;
            (dm.id, None)
        }
        Recipient::Channel(channel) => (
            serenity::ChannelId::new(channel.0.max(1)),
            permissions::in_channel(&discord.cache, delivery.guild, channel).map(|(p, _)| p),
        ),
    };
    if delivery.reopens_thread {
        let reopen = serenity::EditThread::new().archived(false);
        channel.edit_thread(http, reopen).await?;
        tracing::info!(%channel, "reopened the archived thread of a match in play");
        return Ok(None);
    }
    if delivery.closes_thread {
        if let Err(e) = service
            .outbox()
            .closing_thread(ChannelId(channel.get()))
            .await
        {
            tracing::warn!(error = %e, %channel, "could not note that the bot archives a thread");
        }
        archive_if_thread(http, channel).await?;
        return Ok(None);
    }
    let ours = ChannelId(channel.get());
    let reply = permissions::fit(service, ours, delivery.reply.clone(), granted).await;
    match post_reply(http, channel, &reply, &delivery.nonce).await {
        Err(e) if missing_permissions(&e) && !reply.attachments.is_empty() => {
            // The files were refused; the words may not be. The refused post made nothing,
            // so the same nonces still guard against doubles.
            let none = Some(serenity::Permissions::empty());
            let reply = permissions::fit(service, ours, reply, none).await;
            post_reply(http, channel, &reply, &delivery.nonce).await
        }
        sent => sent,
    }
}

async fn post_reply(
    http: &serenity::Http,
    channel: serenity::ChannelId,
    reply: &Reply,
    nonce: &str,
) -> Result<Option<u64>, serenity::Error> {
    let mut last = None;
    for (part, message) in post::messages(reply).into_iter().enumerate() {
        let nonce = format!("{nonce}p{part}");
        let message = message
            .channel()
            .nonce(serenity::Nonce::String(nonce))
            .enforce_nonce(true);
        last = Some(channel.send_message(http, message).await?.id.get());
    }
    Ok(last)
}
