//! End to end through serenity, for what the bot must be granted: Discord's implicit denials
//! (an interaction's `app_permissions` leaves them out), the permissions ban events need, and
//! the admin commands a server can gate per role.

use thudbot::store::ChannelId;

use crate::support::bot::*;
use crate::support::fake_discord::*;

#[tokio::test]
async fn a_challenge_where_the_bot_cannot_see_the_channel_is_refused_up_front() {
    let bot = start_bot(|_| {}).await;
    // The bot may not see #general; its Send Messages there still shows in app_permissions,
    // as Discord computes them without the implicit denials.
    bot.fake
        .deny_bot(GENERAL_CHANNEL, permission::VIEW_CHANNEL)
        .unwrap();
    for opponent in [THUDBOT, BOB] {
        let refused = bot
            .say(SlashCommand::thud("challenge").option("opponent", opponent))
            .await;
        assert!(refused.is_ephemeral(), "{}", refused.summary());
        assert!(
            content(&refused).contains("View Channel"),
            "{}",
            content(&refused)
        );
    }
    // Nothing was made: no match, no challenge, nothing posted or queued.
    let store = bot.service.store();
    assert!(store
        .latest_match_in(ChannelId(GENERAL_CHANNEL))
        .await
        .unwrap()
        .is_none());
    assert!(store.all_notices().await.unwrap().is_empty());
    let made = bot
        .say(
            SlashCommand::thud("challenge")
                .option("opponent", BOB)
                .in_channel(THUD_CHANNEL),
        )
        .await;
    assert!(!made.is_ephemeral(), "{}", made.summary());
    assert!(content(&made).contains("#1"), "{}", content(&made));
    bot.finish().await;
}

/// The permissions integer of the README's invite link.
fn readme_invite() -> u64 {
    let readme = include_str!("../../README.md");
    let link = readme
        .split("permissions=")
        .nth(1)
        .expect("the README has an invite link");
    let digits: String = link.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().expect("a permissions integer")
}

#[test]
fn the_readme_invites_what_the_fake_grants_and_promises_only_what_that_delivers() {
    let readme = include_str!("../../README.md");
    // The fake grants the bot's role exactly what the invite asks for.
    assert_eq!(readme_invite(), BOT_PERMISSIONS);
    // Discord sends GUILD_BAN_ADD only to a bot with Ban Members or View Audit Log. The invite
    // asks for neither, so a ban cannot be promised to withdraw a player at once unless the
    // README says what to grant for it.
    assert_eq!(
        readme_invite() & (permission::BAN_MEMBERS | permission::VIEW_AUDIT_LOG),
        0
    );
    for line in readme
        .lines()
        .filter(|l| l.contains("bans") || l.contains("banned"))
    {
        assert!(
            !line.contains("at once") || line.contains("View Audit Log"),
            "the README promises what the invite cannot deliver: {line}"
        );
    }
}
