//! The test's hands on the fake: its clock, permissions, deletions, threads, DMs, uploads and
//! injected failures.

use std::time::Duration;

use super::fixture::BOT_ID;
use super::record::RecordedRequest;
use super::world::{self, Failure, Overwrite, World};
use super::{FakeDiscord, FakeError};

/// The pseudo-event that tells a gateway connection to close (see [`FakeDiscord::drop_gateway`]).
pub(super) const DROP_CONNECTION: &str = "__drop_connection__";

impl FakeDiscord {
    // ----- the gateway -------------------------------------------------------------------

    /// Closes every gateway connection with close code 4000 ("Unknown error", after which
    /// Discord lets a client reconnect and resume), as a restart of Discord's gateway would.
    pub fn drop_gateway(&self) {
        self.shared.with_world(|w| {
            for session in &w.sessions {
                let _ = session
                    .events
                    .send((DROP_CONNECTION.to_string(), serde_json::Value::Null));
            }
        });
    }

    /// While `lost`, gateway events are not delivered: an outage after which Discord cannot
    /// resume the session (this fake answers every RESUME with INVALID_SESSION), so the bot
    /// never hears of what happened meanwhile and learns the state again from GUILD_CREATE.
    pub fn lose_events(&self, lost: bool) {
        self.shared.with_world(|w| {
            w.events_lost = lost;
            if lost {
                w.resumable.clear();
                w.sessions_invalidated = true;
            }
        });
    }

    /// While `held`, new gateway connections wait before their HELLO, as when Discord's gateway
    /// is slow to come back: a bot that dropped stays away, and what happens meanwhile is kept
    /// for its session to resume.
    pub fn hold_gateway(&self, held: bool) {
        self.shared.with_world(|w| w.gateway_held = held);
    }

    // ----- the clock ---------------------------------------------------------------------

    /// Now on the fake's clock (real time plus every `advance`).
    pub fn now(&self) -> chrono::DateTime<chrono::Utc> {
        self.shared.with_world(|world| world.now())
    }

    /// Moves the fake's clock forward: threads idle past their archive time archive
    /// (THREAD_UPDATE), interactions pass their 3-second and 15-minute limits, nonces expire.
    pub fn advance(&self, by: Duration) {
        self.shared.with_world(|world| world.advance(by));
        self.notify();
    }

    /// Sets the fake's clock (it runs on with real time from there).
    pub fn set_now(&self, now: chrono::DateTime<chrono::Utc>) {
        self.shared.with_world(|world| world.set_now(now));
        self.notify();
    }

    // ----- permissions -------------------------------------------------------------------

    /// A member's permissions in a channel or thread as Discord computes them now.
    pub fn permissions_in(&self, user: u64, channel: u64) -> u64 {
        self.shared
            .with_world(|world| world.permissions_in(user, channel))
    }

    /// Sets a role or member overwrite on a guild channel (replacing one for the same id);
    /// announced as CHANNEL_UPDATE. Threads follow their parent's overwrites.
    pub fn set_overwrite(&self, channel: u64, overwrite: Overwrite) -> Result<(), FakeError> {
        self.world_change(|world| world.set_overwrite(channel, overwrite))
    }

    /// Removes the overwrite for a role or member from a guild channel.
    pub fn remove_overwrite(&self, channel: u64, id: u64) -> Result<(), FakeError> {
        self.world_change(|world| world.remove_overwrite(channel, id))
    }

    /// Denies the bot these permissions in a channel (a member overwrite for the bot), e.g.
    /// `fake.deny_bot(THUD_CHANNEL, permission::SEND_MESSAGES)`.
    pub fn deny_bot(&self, channel: u64, bits: u64) -> Result<(), FakeError> {
        self.set_overwrite(channel, Overwrite::member(BOT_ID, 0, bits))
    }

    /// Changes what a role grants guild-wide (GUILD_ROLE_UPDATE), e.g. the bot's `BOT_ROLE`.
    pub fn set_role_permissions(&self, role: u64, bits: u64) -> Result<(), FakeError> {
        self.world_change(|world| world.set_role_permissions(role, bits))
    }

    // ----- members -----------------------------------------------------------------------

    /// A moderator gives `user` a role (GUILD_MEMBER_UPDATE, with GUILD_MEMBERS): their next
    /// interactions carry it.
    pub fn give_role(&self, user: u64, role: u64) -> Result<(), FakeError> {
        self.world_change(|world| world.give_role(user, role))
    }

    /// `user` leaves the guild (GUILD_MEMBER_REMOVE, with GUILD_MEMBERS); `GET` of their
    /// member gets 10007 Unknown Member from then on.
    pub fn remove_member(&self, user: u64) -> Result<(), FakeError> {
        self.world_change(|world| world.remove_member(user))
    }

    /// A moderator bans `user` (GUILD_BAN_ADD with GUILD_MODERATION to a bot holding Ban
    /// Members or View Audit Log, then as
    /// [`FakeDiscord::remove_member`]).
    pub fn ban(&self, user: u64) -> Result<(), FakeError> {
        self.world_change(|world| world.ban(user))
    }

    /// The application's owner enables the privileged GUILD_MEMBERS intent in the developer
    /// portal; until then an IDENTIFY asking for it is closed with 4014.
    pub fn enable_members_intent(&self) {
        self.shared.with_world(|w| w.members_intent_enabled = true);
    }

    // ----- deletions and removal ---------------------------------------------------------

    /// Deletes a guild channel (CHANNEL_DELETE, its threads go too) or a thread
    /// (THREAD_DELETE); later calls on it get 10003 Unknown Channel.
    pub fn delete_channel(&self, id: u64) -> Result<(), FakeError> {
        self.world_change(|world| world.delete_channel(id))
    }

    /// Deletes a thread (THREAD_DELETE).
    pub fn delete_thread(&self, id: u64) -> Result<(), FakeError> {
        let is_thread = self.channel(id).is_some_and(|c| world::is_thread(&c));
        if !is_thread {
            return Err(FakeError::Rejected(format!("no thread {id}")));
        }
        self.delete_channel(id)
    }

    /// Kicks the bot from the test guild (GUILD_DELETE without `unavailable`): from then on its
    /// calls into the guild get 50001 Missing Access (channels, guild commands) or 10004
    /// Unknown Guild (guild routes), and no interaction comes from the guild.
    pub fn remove_bot_from_guild(&self) {
        self.shared.with_world(World::remove_bot_from_guild);
        self.notify();
    }

    /// A moderator deletes message `id` (MESSAGE_DELETE); editing it then gets 10008 Unknown
    /// Message.
    pub fn delete_message(&self, id: u64) -> Result<(), FakeError> {
        self.world_change(|world| {
            world.delete_message(id);
            Ok(())
        })
    }

    // ----- threads -----------------------------------------------------------------------

    /// A moderator locks a thread (THREAD_UPDATE): the bot, without MANAGE_THREADS, gets 160005
    /// "Thread is locked" when it posts or edits there, and cannot unarchive it.
    pub fn lock_thread(&self, id: u64) -> Result<(), FakeError> {
        self.world_change(|world| world.set_thread_locked(id, true))
    }

    /// A moderator unlocks a thread.
    pub fn unlock_thread(&self, id: u64) -> Result<(), FakeError> {
        self.world_change(|world| world.set_thread_locked(id, false))
    }

    /// A moderator archives a thread (THREAD_UPDATE).
    pub fn archive_thread(&self, id: u64) -> Result<(), FakeError> {
        self.world_change(|world| world.set_thread_archived(id, true))
    }

    /// Whether a thread is archived now.
    pub fn thread_is_archived(&self, id: u64) -> bool {
        self.channel(id)
            .is_some_and(|c| c["thread_metadata"]["archived"] == true)
    }

    /// Whether a channel or thread was deleted.
    pub fn was_deleted(&self, id: u64) -> bool {
        self.shared.with_world(|world| world.was_deleted(id))
    }

    // ----- DMs and uploads ---------------------------------------------------------------

    /// The user stops accepting DMs from the bot: posts into that DM get 50007.
    pub fn close_dms(&self, user: u64) {
        self.shared.with_world(|world| world.close_dms(user));
    }

    /// The guild's upload limit per file (default 10 MiB); interactions report it as
    /// `attachment_size_limit`.
    pub fn set_active_thread_limit(&self, threads: usize) {
        self.shared
            .with_world(|world| world.active_thread_limit = threads);
    }

    /// The largest file a message may carry (Discord's default: 10 MiB).
    pub fn set_upload_limit(&self, bytes: u64) {
        self.shared.with_world(|world| world.upload_limit = bytes);
    }

    // ----- injected failures -------------------------------------------------------------

    /// Fails the next `times` requests matching `route` (`"POST /channels/*/messages"`, `*` one
    /// segment, a final `**` any rest, no method for any) with `failure`, before Discord looks
    /// at them: nothing changes, and the request is recorded with `injected` set.
    pub fn inject(&self, route: &str, times: usize, failure: Failure) {
        let fault = world::Fault::new(route, times, failure);
        self.shared.with_world(|world| world.faults.push(fault));
    }

    /// `times` 429s on `route` with Discord's headers, `retry_after` in the body (the
    /// `Retry-After` header in whole seconds, rounded up).
    pub fn rate_limit(&self, route: &str, times: usize, retry_after: Duration) {
        self.inject(
            route,
            times,
            Failure::RateLimited {
                retry_after,
                global: false,
            },
        );
    }

    /// `times` answers with a server error (500, 502, 503, ...) on `route`.
    pub fn fail_with_status(&self, route: &str, times: usize, status: u16) {
        self.inject(route, times, Failure::Status(status));
    }

    /// `times` requests on `route` whose connection is closed without an answer.
    pub fn drop_connection(&self, route: &str, times: usize) {
        self.inject(route, times, Failure::Disconnect);
    }

    /// Changes the body of the fake's next `times` answers on `route` with `change` (the fake
    /// answers and acts as usual first): an answer off Discord's spec, for the tests that the
    /// spec check catches one.
    pub fn corrupt_answer(&self, route: &str, times: usize, change: fn(&mut serde_json::Value)) {
        self.inject(route, times, Failure::Corrupt(change));
    }

    /// The server shows command `name` to everyone under *Integrations*, whatever the
    /// permissions it was registered with.
    pub fn show_command_to_everyone(&self, name: &str) {
        let name = name.to_string();
        self.shared
            .with_world(|world| world.commands_shown_to_everyone.insert(name));
    }

    /// The application's owner enables User Install (developer portal, Installation): users
    /// can then run commands that allow it in guilds without the bot.
    pub fn enable_user_install(&self) {
        self.shared.with_world(|world| world.user_install = true);
    }

    /// `times` requests on `route` that are never answered.
    pub fn hang(&self, route: &str, times: usize) {
        self.inject(route, times, Failure::Hang);
    }

    /// `times` requests on `route` that Discord carries out but whose answers never arrive:
    /// the client times out on a change that was made.
    pub fn lose_answer(&self, route: &str, times: usize) {
        self.inject(route, times, Failure::AnswerLost);
    }

    /// Forgets the failures injected and not yet used up.
    pub fn clear_failures(&self) {
        self.shared.with_world(|world| world.faults.clear());
    }

    /// The per-route limit advertised in rate-limit headers: `limit` requests a `window`
    /// (default 5 a second; not enforced, inject 429s to see one).
    pub fn set_advertised_rate_limit(&self, limit: u32, window: Duration) {
        self.shared.with_world(|world| {
            world.rate_limits.limit = limit;
            world.rate_limits.window = window;
        });
    }

    /// Counts rate limits as Discord does instead of only advertising them: `limit` requests a
    /// `window` per bucket and major parameter, a channel's message posts and edits sharing one
    /// bucket, and a request over the limit answered 429 (scope `user`) without being carried
    /// out. Interactions and webhooks are not limited.
    pub fn enforce_rate_limits(&self, limit: u32, window: Duration) {
        self.shared.with_world(|world| {
            world.rate_limits.limit = limit;
            world.rate_limits.window = window;
            world.rate_limits.enforced = true;
        });
    }

    /// Requests Discord refused with this JSON error code (50013, 50001, 10003, 160005, ...).
    pub fn refused_with(&self, code: u64) -> Vec<RecordedRequest> {
        self.requests()
            .into_iter()
            .filter(|r| !r.injected && r.error_code() == Some(code))
            .collect()
    }

    /// Requests answered with a failure the test injected.
    pub fn injected_failures(&self) -> Vec<RecordedRequest> {
        self.requests().into_iter().filter(|r| r.injected).collect()
    }

    fn world_change(
        &self,
        change: impl FnOnce(&mut World) -> Result<(), String>,
    ) -> Result<(), FakeError> {
        let result = self.shared.with_world(change);
        self.notify();
        result.map_err(FakeError::Rejected)
    }

    fn notify(&self) {
        self.shared.notify();
    }
}
