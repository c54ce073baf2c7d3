//! What the bot may do in a channel, known before it acts: the `app_permissions` Discord sends
//! with every interaction, or, for posts nobody asked for (the computer's moves, reminders,
//! re-sent answers), the bot's permissions computed from the cache (roles and overwrites; a
//! thread takes its parent's).
//!
//! Since November 2023 edits of interaction responses and followups follow the bot's own
//! permissions (docs/change-log, "Fix Message Edit Interaction Response Permissions"), so a
//! channel where @everyone may not attach files refuses every board the bot posts there. A
//! reply is fitted to what the bot holds before it is sent: a board becomes its text board,
//! other files a sentence saying which permission to grant.

use poise::serenity_prelude as serenity;
use serenity::Permissions;

use crate::service::{boards_shown_as_text, file_not_attached, Refusal, Reply, Service};
use crate::store::{ChannelId, GuildId};

/// The name of the hint given once in a channel where boards go out as text.
const NO_FILES_HINT: &str = "attach-files";

/// What the bot needs to talk in `channel`: Send Messages, or Send Messages in Threads in a
/// thread (docs/topics/threads.md: "The SEND_MESSAGES permission has no effect in threads").
pub fn to_talk(thread: bool) -> Permissions {
    if thread {
        Permissions::SEND_MESSAGES_IN_THREADS
    } else {
        Permissions::SEND_MESSAGES
    }
}

/// `granted` as the bot may actually use it in a channel (`thread`: a thread): with Discord's
/// implicit denials applied, which `app_permissions` leaves out (docs/topics/permissions.md,
/// "Implicit Permissions": they "are not explicitly denied when doing permissions calculations,
/// but they are ignored"). Without View Channel nothing else counts; without the permission to
/// talk there, neither do mentioning everyone, text-to-speech, files and embeds.
pub fn effective(granted: Option<Permissions>, thread: bool) -> Option<Permissions> {
    granted.map(|p| {
        if p.contains(Permissions::ADMINISTRATOR) {
            p
        } else if !p.contains(Permissions::VIEW_CHANNEL) {
            Permissions::empty()
        } else if !p.contains(to_talk(thread)) {
            p - (Permissions::MENTION_EVERYONE
                | Permissions::SEND_TTS_MESSAGES
                | Permissions::ATTACH_FILES
                | Permissions::EMBED_LINKS)
        } else {
            p
        }
    })
}

/// The bot's permissions in a guild channel or thread, from the cache; `None` when the cache
/// does not know the guild, the channel or the bot's member (then the bot tries and reads
/// Discord's answer).
pub fn in_channel(
    cache: &serenity::Cache,
    guild: GuildId,
    channel: ChannelId,
) -> Option<(Permissions, bool)> {
    let guild = cache.guild(serenity::GuildId::new(guild.0.max(1)))?;
    let me = cache.current_user().id;
    let member = guild.members.get(&me)?;
    let id = serenity::ChannelId::new(channel.0.max(1));
    if let Some(c) = guild.channels.get(&id) {
        let granted = effective(Some(guild.user_permissions_in(c, member)), false)?;
        return Some((granted, false));
    }
    let thread = guild.threads.iter().find(|t| t.id == id)?;
    let parent = guild.channels.get(&thread.parent_id?)?;
    let granted = effective(Some(guild.user_permissions_in(parent, member)), true)?;
    Some((granted, true))
}

/// Where a match asked for here would be played: `Ok(true)` in a thread of its own (threads are
/// on, this is no thread, and the bot may open one and talk in it), `Ok(false)` in this
/// channel, or refused up front when the bot could not talk there, instead of a match that
/// pauses at its first notice. `granted` unknown: as if granted.
pub fn match_home(
    granted: Option<Permissions>,
    in_thread: bool,
    threads: bool,
) -> Result<bool, Refusal> {
    let granted = effective(granted, in_thread);
    let holds = |needed: Permissions| granted.is_none_or(|p| p.contains(needed));
    if !holds(Permissions::VIEW_CHANNEL) {
        return Err(Refusal::BotCannotPost {
            permission: "View Channel",
        });
    }
    if threads
        && !in_thread
        && holds(Permissions::CREATE_PUBLIC_THREADS | Permissions::SEND_MESSAGES_IN_THREADS)
    {
        return Ok(true);
    }
    if holds(to_talk(in_thread)) {
        Ok(false)
    } else {
        Err(Refusal::BotCannotPost {
            permission: if in_thread {
                "Send Messages in Threads"
            } else {
                "Send Messages"
            },
        })
    }
}

/// Whether `granted` lets the bot attach files.
pub fn may_attach(granted: Option<Permissions>) -> bool {
    granted.is_none_or(|p| p.contains(Permissions::ATTACH_FILES))
}

/// `reply` as the bot may post it in `channel` holding `granted` (`None`: not known, sent as
/// it is). Without Attach Files a board picture becomes its text board, the first time in a
/// channel with a word on which permission to grant, and any other file is replaced by a
/// sentence saying why it is missing.
pub async fn fit(
    service: &Service,
    channel: ChannelId,
    reply: Reply,
    granted: Option<Permissions>,
) -> Reply {
    if may_attach(granted) || reply.attachments.is_empty() {
        return reply;
    }
    let hint_given = match service.channels().first_hint(channel, NO_FILES_HINT).await {
        Ok(first) => !first,
        Err(e) => {
            tracing::warn!(error = %e, %channel, "could not read which hints a channel had");
            false
        }
    };
    without_files(reply, hint_given)
}

/// `reply` with its files taken out, as the bot must post it where it may not attach files.
pub fn without_files(mut reply: Reply, hint_given: bool) -> Reply {
    let mut text = std::mem::take(&mut reply.text);
    let mut board_as_text = false;
    for file in std::mem::take(&mut reply.attachments) {
        match &reply.board_text {
            Some(board) if file.filename.ends_with(".png") => {
                text = text.block(board.clone());
                board_as_text = true;
            }
            _ => {
                text = text.line().then(file_not_attached(file.filename));
            }
        }
    }
    if board_as_text && !hint_given {
        text = text.line().then(boards_shown_as_text());
    }
    reply.text = text;
    reply
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board_reply() -> Reply {
        let mut reply = Reply::public("alice plays dF1-F5.").attach("b.png", vec![1, 2, 3]);
        reply.board_text = Some("board".into());
        reply
    }

    #[test]
    fn without_attach_files_a_board_goes_out_as_its_text_board_with_a_hint_once() {
        let first = without_files(board_reply(), false);
        assert!(first.attachments.is_empty());
        let spans = format!("{:?}", first.text);
        assert!(spans.contains("Block(\"board\")"), "{spans}");
        assert!(spans.contains("Attach Files"), "{spans}");
        let later = without_files(board_reply(), true);
        assert!(!format!("{:?}", later.text).contains("Attach Files"));
        assert!(format!("{:?}", later.text).contains("Block(\"board\")"));
    }

    #[test]
    fn other_files_are_replaced_by_what_to_grant() {
        let reply = Reply::public("The record.").attach("thud-match-1.txt", vec![1]);
        let fitted = without_files(reply, true);
        assert!(fitted.attachments.is_empty());
        let spans = format!("{:?}", fitted.text);
        assert!(spans.contains("thud-match-1.txt") && spans.contains("Attach Files"));
    }

    #[test]
    fn a_match_is_refused_where_the_bot_could_not_talk() {
        let talk = Permissions::VIEW_CHANNEL | Permissions::SEND_MESSAGES;
        let threads = Permissions::CREATE_PUBLIC_THREADS | Permissions::SEND_MESSAGES_IN_THREADS;
        assert_eq!(match_home(Some(talk | threads), false, true), Ok(true));
        assert_eq!(match_home(Some(talk), false, true), Ok(false));
        assert_eq!(match_home(Some(talk | threads), false, false), Ok(false));
        assert_eq!(match_home(None, false, true), Ok(true));
        let refused = |permission| Err(Refusal::BotCannotPost { permission });
        assert_eq!(
            match_home(Some(Permissions::VIEW_CHANNEL), false, false),
            refused("Send Messages")
        );
        // Where the bot cannot see, nothing else it holds counts (app_permissions still
        // carries Send Messages there).
        assert_eq!(
            match_home(
                Some((talk - Permissions::VIEW_CHANNEL) | threads),
                false,
                true
            ),
            refused("View Channel")
        );
        // In a thread no thread opens, and Send Messages does not let the bot talk there.
        assert_eq!(match_home(Some(talk | threads), true, true), Ok(false));
        assert_eq!(
            match_home(Some(talk), true, true),
            refused("Send Messages in Threads")
        );
    }

    #[test]
    fn unknown_or_granted_permissions_keep_the_files() {
        assert!(may_attach(None));
        assert!(may_attach(Some(Permissions::ATTACH_FILES)));
        assert!(!may_attach(Some(Permissions::SEND_MESSAGES)));
    }
}
