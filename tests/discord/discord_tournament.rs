//! A small tournament run end to end through serenity against the fake Discord: created by a
//! moderator, joined, started, each pairing played in a thread the bot opens, resigned through
//! `/thud resign`, rounds paired by the clock, the winner announced, the standings picture;
//! the organisers' role a server names; players banned or gone from the server withdrawn.

use crate::support::BotHttp;
use std::collections::HashMap;

use crate::discord_delivery::posts_to;
use crate::support::bot::*;
use crate::support::fake_discord::*;
use thudbot::store::{ChannelId, MatchId};

pub(crate) fn tournament(subcommand: &str) -> SlashCommand {
    // Organising is under `/thud-admin`, playing under `/thud`.
    let command = match subcommand {
        "create" | "start" | "cancel" | "organisers" => "thud-admin",
        _ => "thud",
    };
    SlashCommand::new(command)
        .group("tournament")
        .subcommand(subcommand)
        .in_channel(THUD_CHANNEL)
}

/// The matches of round `round`, waiting until the bot has seated `count` of them.
pub(crate) async fn round_matches(bot: &Bot, round: u32, count: usize) -> Vec<MatchId> {
    let deadline = std::time::Instant::now() + WAIT;
    loop {
        let t = bot
            .service
            .store()
            .latest_tournament_in(ChannelId(THUD_CHANNEL))
            .await
            .expect("the store")
            .expect("a tournament");
        let mut tx = bot.service.store().begin().await.expect("a transaction");
        let games = tx.games(t.id).await.expect("the games");
        tx.rollback().await.expect("rolled back");
        let seated: Vec<MatchId> = games
            .iter()
            .filter(|g| g.round == round)
            .filter_map(|g| g.match_id)
            .collect();
        if seated.len() == count {
            return seated;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "round {round}: {} of {count} games seated",
            seated.len()
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_round_robin_of_four_is_run_through_discord() {
    let bot = start_bot(|o| o.threads = true).await;
    // The server shows `/thud-admin` to everyone: the bot's own checks still hold.
    bot.fake.show_command_to_everyone("thud-admin");
    let users: HashMap<u64, TestUser> = [ALICE, BOB, CAROL, VETINARI]
        .into_iter()
        .map(|u| (u.id, u))
        .collect();

    // Only an organiser (Manage Server) creates; the refusal is private. Format 1 is
    // round-robin.
    let refused = bot
        .say(
            tournament("create")
                .option("name", "Ankh Cup")
                .option("format", 1i64)
                .by(CAROL),
        )
        .await;
    assert!(refused.is_ephemeral(), "{}", refused.summary());
    let (announced, created) = bot
        .command(
            tournament("create")
                .option("name", "Ankh Cup")
                .option("format", 1i64)
                .by(VIMES),
        )
        .await;
    assert!(!created.is_ephemeral());
    assert!(
        content(&created).contains("Ankh Cup"),
        "{}",
        content(&created)
    );

    // Two join with the command, two with the announcement's Join button.
    // A join is said to the joiner alone: a big field would fill the channel otherwise.
    for user in [ALICE, BOB] {
        let joined = bot.say(tournament("join").by(user)).await;
        assert!(joined.is_ephemeral(), "{}", joined.summary());
    }
    let announcement = bot.message_id(&announced).await;
    for user in [CAROL, VETINARI] {
        let (_, joined) = bot.press(user, announcement, "thud:join:").await;
        assert_eq!(joined.interaction_response_type(), Some(4));
        assert!(
            content(&joined).contains("joins Ankh Cup"),
            "{}",
            content(&joined)
        );
    }
    let twice = bot.say(tournament("join").by(ALICE)).await;
    assert!(twice.is_ephemeral());
    assert!(content(&twice).contains("already in this tournament"));
    let not_yours = bot.say(tournament("start").by(ALICE)).await;
    assert!(not_yours.is_ephemeral());

    let started = bot.say(tournament("start").by(VIMES)).await;
    assert!(
        content(&started).contains("Round 1 of Ankh Cup** is paired"),
        "{}",
        content(&started)
    );

    for round in 1..=3 {
        // The bot opens a thread per game and begins the match there.
        for id in round_matches(&bot, round, 2).await {
            let m = bot
                .service
                .store()
                .load_match(id)
                .await
                .expect("the store")
                .expect("the match");
            let thread = m.channel.0;
            assert_ne!(thread, THUD_CHANNEL, "a thread of its own");
            // The opening pings both players, which adds both to the thread at once.
            let opening = bot
                .fake
                .wait_for(posts_to(thread), WAIT)
                .await
                .unwrap_or_else(|e| panic!("{e}"));
            let mut pinged = opening.pinged_users();
            pinged.sort();
            let mut players = vec![m.players[0].0, m.players[1].0];
            players.sort();
            assert_eq!(pinged, players, "{}", opening.summary());
            // The second player resigns in the thread, through /thud resign and its button.
            let loser = users[&m.players[1].0];
            let (prompt, _) = bot
                .command(SlashCommand::thud("resign").in_channel(thread).by(loser))
                .await;
            let (confirm, _) = bot
                .press(loser, bot.message_id(&prompt).await, "thud:resign:")
                .await;
            let result = bot.followup(&confirm).await;
            assert!(content(&result).contains("resign"), "{}", content(&result));
        }
        if round < 3 {
            bot.fake
                .wait_for(
                    |r| {
                        r.method == "POST"
                            && r.path == format!("/channels/{THUD_CHANNEL}/messages")
                            && content(r)
                                .contains(&format!("Round {} of Ankh Cup** is paired", round + 1))
                    },
                    WAIT,
                )
                .await
                .unwrap_or_else(|e| panic!("round {}: {e}", round + 1));
        }
    }
    let last = bot
        .fake
        .wait_for(
            |r| {
                r.method == "POST"
                    && r.path == format!("/channels/{THUD_CHANNEL}/messages")
                    && content(r).contains("**Ankh Cup is over.**")
            },
            WAIT,
        )
        .await
        .unwrap_or_else(|e| panic!("the final announcement: {e}"));
    assert!(content(&last).contains("wins it"), "{}", content(&last));

    let (sent, _) = bot.command(tournament("standings").by(CAROL)).await;
    bot.message_id(&sent).await;
    let reply = bot
        .fake
        .requests()
        .into_iter()
        .rev()
        .find(|r| {
            !r.attachments().is_empty()
                && (r.webhook_token() == Some(sent.token.as_str())
                    || r.interaction_callback()
                        .is_some_and(|(id, _)| id == sent.id))
        })
        .expect("the standings with their picture");
    assert!(
        content(&reply).contains("standings, finished"),
        "{}",
        content(&reply)
    );
    let image = picture(&reply).to_rgb8();
    assert!(image.width() > 400, "{:?}", image.dimensions());
    bot.finish().await;
}

#[tokio::test]
async fn without_threads_a_tournament_is_refused() {
    let bot = start_bot(|o| o.threads = false).await;
    let refused = bot
        .say(tournament("create").option("name", "Ankh Cup").by(VIMES))
        .await;
    assert!(refused.is_ephemeral(), "{}", refused.summary());
    assert!(
        content(&refused).contains("need match threads"),
        "{}",
        content(&refused)
    );
    bot.finish().await;
}

/// The match of `round` that `user` plays in.
async fn match_of(bot: &Bot, round: u32, count: usize, user: TestUser) -> MatchId {
    for id in round_matches(bot, round, count).await {
        let m = bot.service.store().load_match(id).await.unwrap().unwrap();
        if m.players.iter().any(|p| p.0 == user.id) {
            return id;
        }
    }
    panic!("{} plays no match in round {round}", user.name)
}

/// Waits for the bot to post a message containing `text` in the tournament channel.
async fn announced(bot: &Bot, text: &str) -> RecordedRequest {
    bot.fake
        .wait_for(
            |r| {
                r.method == "POST"
                    && r.path == format!("/channels/{THUD_CHANNEL}/messages")
                    && content(r).contains(text)
            },
            WAIT,
        )
        .await
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// VIMES creates a Swiss of three rounds, `players` join, VIMES starts it.
pub(crate) async fn swiss_started(bot: &Bot, players: &[TestUser]) {
    swiss_joined(bot, players).await;
    start(bot).await;
}

/// VIMES creates a Swiss of three rounds and `players` join.
async fn swiss_joined(bot: &Bot, players: &[TestUser]) {
    let created = bot
        .say(
            tournament("create")
                .option("name", "Ankh Cup")
                .option("rounds", 3i64)
                .by(VIMES),
        )
        .await;
    assert!(!created.is_ephemeral(), "{}", created.summary());
    for user in players {
        let joined = bot.say(tournament("join").by(*user)).await;
        assert!(joined.is_ephemeral(), "{}", joined.summary());
    }
}

/// VIMES starts the tournament: round 1 is paired.
async fn start(bot: &Bot) {
    let started = bot.say(tournament("start").by(VIMES)).await;
    assert!(
        content(&started).contains("Round 1 of Ankh Cup** is paired"),
        "{}",
        content(&started)
    );
}

#[tokio::test]
async fn members_of_the_organisers_role_named_by_the_server_may_organise() {
    let bot = start_bot(|o| o.threads = true).await;
    // The server shows `/thud-admin` to its organisers' role (here: to everyone).
    bot.fake.show_command_to_everyone("thud-admin");
    let arbiters = || tournament("organisers").option("role", OptionValue::Role(ARBITER_ROLE));
    let refused = bot.say(arbiters().by(ALICE)).await;
    assert!(refused.is_ephemeral());
    assert!(
        content(&refused).contains("Only a member with the Manage Server permission"),
        "{}",
        content(&refused)
    );
    let named = bot.say(arbiters().by(VIMES)).await;
    assert!(named.is_ephemeral());
    assert!(content(&named).contains("Arbiter"), "{}", content(&named));

    // Carol does not hold the role yet: the refusal names it.
    let create = || tournament("create").option("name", "Ankh Cup").by(CAROL);
    let refused = bot.say(create()).await;
    assert!(refused.is_ephemeral());
    assert!(
        content(&refused).contains("or the Arbiter role"),
        "{}",
        content(&refused)
    );
    // A moderator gives her the role: her next command carries it.
    bot.fake.give_role(CAROL.id, ARBITER_ROLE).expect("given");
    let created = bot.say(create()).await;
    assert!(!created.is_ephemeral(), "{}", created.summary());
    assert!(
        content(&created).contains("Ankh Cup"),
        "{}",
        content(&created)
    );
    let cancelled = bot.say(tournament("cancel").by(CAROL)).await;
    assert!(!cancelled.is_ephemeral(), "{}", cancelled.summary());
    bot.finish().await;
}

#[tokio::test]
async fn a_player_banned_mid_tournament_is_withdrawn_and_the_next_round_skips_them() {
    let bot = start_bot(|o| o.threads = true).await;
    swiss_started(&bot, &[ALICE, BOB, CAROL, VETINARI]).await;
    let banned = match_of(&bot, 1, 2, BOB).await;
    let other = round_matches(&bot, 1, 2)
        .await
        .into_iter()
        .find(|id| *id != banned)
        .expect("the other match");

    // GUILD_BAN_ADD comes with GUILD_MODERATION, which the bot always asks for, to a bot the
    // server allowed to view its audit log (the README's optional grant).
    bot.fake
        .set_role_permissions(BOT_ROLE, BOT_PERMISSIONS | permission::VIEW_AUDIT_LOG)
        .unwrap();
    bot.fake.ban(BOB.id).expect("banned");
    announced(
        &bot,
        "was banned from this server and is withdrawn from Ankh Cup",
    )
    .await;
    let m = bot
        .service
        .store()
        .load_match(banned)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(m.state, thudbot::store::MatchState::Finished);
    assert!(m.winner.is_some_and(|w| w.0 != BOB.id));

    // The other match is resigned; round 2 pairs the three left: one match and a bye.
    let m = bot
        .service
        .store()
        .load_match(other)
        .await
        .unwrap()
        .unwrap();
    let loser = [ALICE, CAROL, VETINARI]
        .into_iter()
        .find(|u| u.id == m.players[1].0)
        .expect("a player");
    let (prompt, _) = bot
        .command(
            SlashCommand::thud("resign")
                .in_channel(m.channel.0)
                .by(loser),
        )
        .await;
    let (confirm, _) = bot
        .press(loser, bot.message_id(&prompt).await, "thud:resign:")
        .await;
    bot.followup(&confirm).await;
    let paired = announced(&bot, "Round 2 of Ankh Cup** is paired").await;
    // The standings still list Bob as withdrawn; the pairings below them leave him out.
    let text = content(&paired);
    let pairings = text.split("is paired").nth(1).unwrap_or_default();
    assert!(pairings.contains("a bye"), "{text}");
    assert!(!pairings.contains("Bob"), "{text}");
    let seated = round_matches(&bot, 2, 1).await;
    let m = bot
        .service
        .store()
        .load_match(seated[0])
        .await
        .unwrap()
        .unwrap();
    assert!(m.players.iter().all(|p| p.0 != BOB.id));
    bot.finish().await;
}

#[tokio::test]
async fn a_player_who_left_unheard_is_withdrawn_before_their_game_gets_a_thread() {
    // Without the members intent the bot does not hear Carol leave; before opening her game's
    // thread it asks Discord for her membership, gets 10007 Unknown Member, and withdraws her.
    let bot = start_bot(|o| o.threads = true).await;
    swiss_joined(&bot, &[ALICE, BOB, CAROL, VETINARI]).await;
    bot.fake.remove_member(CAROL.id).expect("left");
    start(&bot).await;
    announced(
        &bot,
        "is no longer a member of this server and is withdrawn from Ankh Cup",
    )
    .await;
    let seated = round_matches(&bot, 1, 1).await;
    let m = bot
        .service
        .store()
        .load_match(seated[0])
        .await
        .unwrap()
        .unwrap();
    assert!(m.players.iter().all(|p| p.0 != CAROL.id));
    bot.fake
        .wait_for(
            |r| r.path == format!("/guilds/{GUILD_ID}/members/{}", CAROL.id) && r.status == 404,
            WAIT,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    bot.finish_expecting(|r| r.status == 404 && r.path.contains("/members/"))
        .await;
}

#[tokio::test]
async fn with_the_invites_permissions_a_banned_player_is_withdrawn_when_their_game_is_seated() {
    // The invite grants neither Ban Members nor View Audit Log, so Discord sends no
    // GUILD_BAN_ADD: the bot learns of the ban as of anyone gone, when the game is seated.
    let bot = start_bot(|o| o.threads = true).await;
    swiss_joined(&bot, &[ALICE, BOB, CAROL, VETINARI]).await;
    let mark = bot.fake.mark();
    bot.fake.ban(CAROL.id).expect("banned");
    start(&bot).await;
    announced(
        &bot,
        "is no longer a member of this server and is withdrawn from Ankh Cup",
    )
    .await;
    let seated = round_matches(&bot, 1, 1).await;
    let m = bot
        .service
        .store()
        .load_match(seated[0])
        .await
        .unwrap()
        .unwrap();
    assert!(m.players.iter().all(|p| p.0 != CAROL.id));
    // Nothing claimed a ban the bot could not have heard of.
    assert!(bot
        .fake
        .requests()
        .iter()
        .skip(mark)
        .all(|r| !content(r).contains("banned")));
    bot.finish_expecting(|r| r.status == 404 && r.path.contains("/members/"))
        .await;
}

#[tokio::test]
async fn with_the_members_intent_a_player_who_leaves_is_withdrawn_at_once() {
    let bot = start_bot_with(
        |fake| {
            fake.enable_members_intent();
            fake.http()
        },
        |o| {
            o.threads = true;
            o.members_intent = true;
        },
    )
    .await;
    swiss_started(&bot, &[ALICE, BOB, CAROL, VETINARI]).await;
    let gone = match_of(&bot, 1, 2, ALICE).await;
    bot.fake.remove_member(ALICE.id).expect("left");
    announced(
        &bot,
        "is no longer a member of this server and is withdrawn from Ankh Cup",
    )
    .await;
    let m = bot.service.store().load_match(gone).await.unwrap().unwrap();
    assert_eq!(m.state, thudbot::store::MatchState::Finished);
    bot.finish().await;
}

#[tokio::test]
async fn a_tournament_is_refused_in_a_thread_where_its_games_could_never_be_seated() {
    let bot = start_bot(|o| o.threads = true).await;
    let (thread, _) = crate::discord_delivery::thread_match(&bot, None).await;
    let refused = bot
        .say(
            tournament("create")
                .option("name", "Ankh Cup")
                .by(VIMES)
                .in_channel(thread),
        )
        .await;
    assert!(refused.is_ephemeral(), "{}", refused.summary());
    let said = content(&refused);
    assert!(said.contains("A tournament cannot run here"), "{said}");
    assert!(said.contains("ordinary text channel"), "{said}");
    let made = bot
        .service
        .store()
        .latest_tournament_in(ChannelId(thread))
        .await
        .expect("the store");
    assert!(made.is_none(), "nothing was created");
    bot.finish().await;
}

/// A round's games are seated a batch after another while every game of a batch is seated,
/// not a batch a round of the seating worker: with batches of one and a worker that comes
/// round every four seconds, both games of round 1 get their threads together.
#[tokio::test]
async fn a_rounds_games_are_seated_batch_after_batch_not_a_batch_a_round_of_the_worker() {
    let bot = start_bot(|o| {
        o.threads = true;
        o.clock_interval = std::time::Duration::from_secs(4);
        o.seat_batch = 1;
    })
    .await;
    let mark = bot.fake.mark();
    swiss_started(&bot, &[ALICE, BOB, CAROL, VETINARI]).await;
    let threads = format!("/channels/{THUD_CHANNEL}/threads");
    let opened = |r: &RecordedRequest| r.method == "POST" && r.path == threads && r.status == 201;
    let first = bot
        .fake
        .wait_for_since(mark, opened, WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let seen = tokio::time::Instant::now();
    bot.fake
        .wait_for_since(first.seq + 1, opened, WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let apart = seen.elapsed();
    assert!(
        apart < std::time::Duration::from_secs(2),
        "the second game waited {apart:?} for the worker's next round"
    );
    round_matches(&bot, 1, 2).await;
    bot.finish().await;
}
