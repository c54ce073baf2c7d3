//! What happens to channels over time and by others' hands: threads archiving after their
//! archive time, moderators locking or archiving threads, channels and threads deleted, the bot
//! removed from the guild, and the guild as GUILD_CREATE shows it.

use chrono::{DateTime, Utc};
use serde_json::{json, Value};

use super::permissions::is_thread;
use super::{intent, parse_id, timestamp, World};
use crate::fixture::{self, GUILD_ID};
use crate::record::snowflake;

/// The archive times Discord accepts, in minutes (docs/resources/channel.md, thread metadata:
/// "auto_archive_duration ... can be set to: 60, 1440, 4320, 10080").
pub const ARCHIVE_DURATIONS: [u64; 4] = [60, 1440, 4320, 10080];

/// A change to a thread's metadata.
#[derive(Clone, Copy, Debug, Default)]
pub struct ThreadChange {
    pub archived: Option<bool>,
    pub locked: Option<bool>,
    pub auto_archive_duration: Option<u64>,
}

impl World {
    /// Archives every active thread idle for its whole `auto_archive_duration`, as Discord does
    /// (docs/topics/threads.md, "Active & Archived Threads": activity is a message, unarchiving
    /// or changing the archive time), each announced by THREAD_UPDATE. The archive timestamp is
    /// the moment the time ran out.
    pub fn archive_idle_threads(&mut self) {
        let now = self.now();
        let due: Vec<(u64, DateTime<Utc>)> = self
            .channels
            .iter()
            .filter(|(_, c)| is_thread(c) && c["thread_metadata"]["archived"] == false)
            .filter_map(|(id, c)| {
                let minutes = c["thread_metadata"]["auto_archive_duration"].as_u64()?;
                let last = *self.thread_activity.get(id)?;
                let at = last + chrono::Duration::minutes(minutes as i64);
                (at <= now).then_some((*id, at))
            })
            .collect();
        for (id, at) in due {
            self.change_thread(
                id,
                ThreadChange {
                    archived: Some(true),
                    ..ThreadChange::default()
                },
                at,
            );
        }
    }

    /// Records activity in a thread (its archive timer starts again).
    pub(super) fn touch_thread(&mut self, thread: u64) {
        if self.thread_activity.contains_key(&thread) {
            let now = self.now();
            self.thread_activity.insert(thread, now);
        }
    }

    /// Applies a change to a thread's metadata at `at` and announces it (THREAD_UPDATE).
    /// Archiving, unarchiving and a new archive time set `archive_timestamp`; unarchiving and a
    /// new archive time count as activity.
    pub(super) fn change_thread(&mut self, id: u64, change: ThreadChange, at: DateTime<Utc>) {
        let Some(thread) = self.channels.get_mut(&id) else {
            return;
        };
        let metadata = &mut thread["thread_metadata"];
        let was_archived = metadata["archived"] == true;
        let mut restart = false;
        if let Some(archived) = change.archived {
            if archived != was_archived {
                metadata["archived"] = json!(archived);
                metadata["archive_timestamp"] = json!(timestamp(at));
                restart |= !archived;
            }
        }
        if let Some(locked) = change.locked {
            metadata["locked"] = json!(locked);
        }
        if let Some(minutes) = change.auto_archive_duration {
            metadata["auto_archive_duration"] = json!(minutes);
            metadata["archive_timestamp"] = json!(timestamp(at));
            restart = true;
        }
        let event = thread.clone();
        if restart {
            self.thread_activity.insert(id, at);
        }
        self.dispatch(Some(GUILD_ID), intent::GUILDS, "THREAD_UPDATE", event);
    }

    /// A moderator locks or unlocks a thread.
    pub fn set_thread_locked(&mut self, id: u64, locked: bool) -> Result<(), String> {
        self.thread(id)?;
        let now = self.now();
        let change = ThreadChange {
            locked: Some(locked),
            ..ThreadChange::default()
        };
        self.change_thread(id, change, now);
        Ok(())
    }

    /// A moderator archives or unarchives a thread.
    pub fn set_thread_archived(&mut self, id: u64, archived: bool) -> Result<(), String> {
        self.thread(id)?;
        let now = self.now();
        let change = ThreadChange {
            archived: Some(archived),
            ..ThreadChange::default()
        };
        self.change_thread(id, change, now);
        Ok(())
    }

    fn thread(&self, id: u64) -> Result<&Value, String> {
        self.channels
            .get(&id)
            .filter(|c| is_thread(c))
            .ok_or_else(|| format!("no thread {id}"))
    }

    /// Deletes a channel (CHANNEL_DELETE) or a thread (THREAD_DELETE, with the partial thread
    /// Discord sends: id, guild_id, parent_id, type). A deleted channel's threads go with it.
    /// Later calls on them are answered 10003 Unknown Channel.
    pub fn delete_channel(&mut self, id: u64) -> Result<(), String> {
        let Some(channel) = self.channels.remove(&id) else {
            return Err(format!("no channel {id}"));
        };
        self.deleted_channels.insert(id);
        self.thread_activity.remove(&id);
        if is_thread(&channel) {
            let event = json!({
                "id": channel["id"],
                "guild_id": GUILD_ID.to_string(),
                "parent_id": channel["parent_id"],
                "type": channel["type"],
            });
            self.dispatch(Some(GUILD_ID), intent::GUILDS, "THREAD_DELETE", event);
            return Ok(());
        }
        let threads: Vec<u64> = self
            .channels
            .iter()
            .filter(|(_, c)| c["parent_id"].as_str().and_then(parse_id) == Some(id) && is_thread(c))
            .map(|(id, _)| *id)
            .collect();
        for thread in threads {
            self.channels.remove(&thread);
            self.thread_activity.remove(&thread);
            self.deleted_channels.insert(thread);
        }
        if channel.get("guild_id").is_some() {
            self.dispatch(Some(GUILD_ID), intent::GUILDS, "CHANNEL_DELETE", channel);
        }
        Ok(())
    }

    /// Whether a channel or thread was deleted.
    pub fn was_deleted(&self, id: u64) -> bool {
        self.deleted_channels.contains(&id)
    }

    /// The bot is kicked from the test guild: GUILD_DELETE without `unavailable` (which
    /// docs/topics/gateway-events.md, "Guild Delete", says means the user was removed), then
    /// every call into the guild is refused as for any guild the bot is not in.
    pub fn remove_bot_from_guild(&mut self) {
        if !self.bot_in_guild {
            return;
        }
        self.dispatch(
            Some(GUILD_ID),
            intent::GUILDS,
            "GUILD_DELETE",
            json!({"id": GUILD_ID.to_string()}),
        );
        self.bot_in_guild = false;
    }

    /// Whether the bot is (still) a member of the test guild.
    pub fn bot_in_guild(&self) -> bool {
        self.bot_in_guild
    }

    /// The user no longer accepts DMs from the bot (privacy settings, or a block).
    pub fn close_dms(&mut self, user: u64) {
        self.closed_dms.insert(user);
    }

    /// GUILD_CREATE's `d` for the guild as it is now: current roles, channels with their
    /// overwrites, and the active threads.
    pub fn guild_create_json(&self, with_all_members: bool) -> Value {
        let mut guild = fixture::guild_create_json(with_all_members);
        guild["roles"] = json!(self.roles_json());
        let mut channels = Vec::new();
        let mut threads = Vec::new();
        for channel in self.channels.values() {
            if channel.get("guild_id").is_none() {
                continue;
            }
            if is_thread(channel) {
                if channel["thread_metadata"]["archived"] == false {
                    threads.push(channel.clone());
                }
            } else {
                let mut channel = channel.clone();
                if let Some(map) = channel.as_object_mut() {
                    map.remove("guild_id");
                }
                channels.push(channel);
            }
        }
        guild["channels"] = json!(channels);
        guild["threads"] = json!(threads);
        guild
    }

    /// Starts the archive timer of a new thread.
    pub(super) fn thread_created(&mut self, thread: &Value) {
        if let Some(id) = snowflake(&thread["id"]) {
            let now = self.now();
            self.thread_activity.insert(id, now);
        }
    }
}
