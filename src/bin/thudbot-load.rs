//! Load test: many matches played through the service on PostgreSQL.
//!
//! Uses the server at `DATABASE_URL` (a fresh database is made on it and dropped afterwards),
//! or a throwaway local server when unset. Prints two figures:
//! - the storage part of one move (lock and load the match, insert the move, update the
//!   clock, commit), one client, with `--matches` matches in play;
//! - whole moves through the service (validate, store, draw the board PNG) from `--clients`
//!   concurrent clients: moves per second and latency; with `--computer-matches N`, while N
//!   matches against the computer at level 5 are played alongside by the bot's own worker,
//!   to show the searches do not slow the other players' commands; with `--analyses N`, while
//!   N finished matches of `--analysis-moves` moves are analysed by the bot's analysis worker
//!   (one position at a time, as the judging worker does).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Parser;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use thudbot::game::{Match, Move, MoveText};
use thudbot::render::Renderer;
use thudbot::service::{
    Actor, ChallengeOptions, MoveRequest, Place, Service, ServiceConfig, SystemClock,
};
use thudbot::store::{ChannelId, GuildId, ScratchDatabase, SideChoice, Store, TurnClock, UserId};
use tokio::sync::Mutex;

#[derive(Parser)]
#[command(about = "Plays many Thud matches through the service and reports throughput and latency")]
struct Args {
    /// Matches kept in play.
    #[arg(long, default_value_t = 1000)]
    matches: u64,
    /// Moves written through the storage path alone (one client).
    #[arg(long, default_value_t = 20_000)]
    storage_moves: usize,
    /// Moves played through the service.
    #[arg(long, default_value_t = 10_000)]
    moves: usize,
    /// Concurrent clients for the service phase.
    #[arg(long, default_value_t = 2)]
    clients: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Matches against the computer (level 5) played alongside the service phase.
    #[arg(long, default_value_t = 0)]
    computer_matches: u64,
    /// Finished matches analysed alongside the service phase.
    #[arg(long, default_value_t = 0)]
    analyses: u64,
    /// Moves of each match analysed alongside.
    #[arg(long, default_value_t = 100)]
    analysis_moves: usize,
}

const GUILD: GuildId = GuildId(1);

fn players(channel: u64) -> (Actor, Actor) {
    (
        Actor::new(UserId(2 * channel + 1), format!("p{}", 2 * channel + 1)),
        Actor::new(UserId(2 * channel + 2), format!("p{}", 2 * channel + 2)),
    )
}

fn place(channel: u64) -> Place {
    Place {
        guild: GUILD,
        channel: ChannelId(channel),
    }
}

async fn start_match(service: &Service, channel: u64) -> anyhow::Result<()> {
    let (a, b) = players(channel);
    service
        .matches()
        .challenge(place(channel), &a, &b, &dwarfs_first())
        .await
        .map_err(|e| anyhow::anyhow!("challenge: {e}"))?;
    service
        .matches()
        .accept(place(channel), &b, None, None)
        .await
        .map_err(|e| anyhow::anyhow!("accept: {e}"))?;
    Ok(())
}

/// The challenger commands the dwarfs first, so a restarted match's seats are known.
fn dwarfs_first() -> ChallengeOptions {
    ChallengeOptions {
        side: Some(SideChoice::Dwarfs),
        ..ChallengeOptions::default()
    }
}

/// Plays `n` matches against the computer at level 5 in channels after `first`: the bot's
/// worker plays the computer's moves (as in `discord::computer_worker`), and the player
/// answers each at once with a random legal move. Returns the computer's moves played once
/// `stop` is set.
async fn computer_matches(
    service: Arc<Service>,
    first: u64,
    n: u64,
    stop: Arc<std::sync::atomic::AtomicBool>,
) -> anyhow::Result<usize> {
    use std::sync::atomic::Ordering;
    let computer = Actor::with_kind(UserId(1), "thudbot", true);
    for channel in first..first + n {
        let (player, _) = players(channel);
        service
            .matches()
            .challenge_computer(
                place(channel),
                &player,
                &computer,
                Some(5),
                &dwarfs_first(),
                None,
            )
            .await
            .map_err(|e| anyhow::anyhow!("challenge the computer: {e}"))?;
    }
    let worker = {
        let service = service.clone();
        let stop = stop.clone();
        tokio::spawn(async move {
            let mut played = 0;
            while !stop.load(Ordering::Relaxed) {
                match service.matches().play_computer_turns().await {
                    Ok(0) => tokio::time::sleep(Duration::from_millis(20)).await,
                    Ok(n) => played += n,
                    Err(e) => return Err(anyhow::anyhow!("computer: {e}")),
                }
            }
            anyhow::Ok(played)
        })
    };
    let mut rng = StdRng::seed_from_u64(7);
    while !stop.load(Ordering::Relaxed) {
        for channel in first..first + n {
            let (player, _) = players(channel);
            let Some(m) = service.store().active_match_in(ChannelId(channel)).await? else {
                continue;
            };
            if m.player_to_move() != Some(player.id) {
                continue;
            }
            let moves = m.game.current_battle().position().legal_moves();
            let Some(mv) = moves.choose(&mut rng) else {
                continue;
            };
            let request = MoveRequest::Notation(mv.to_string());
            let _ = service
                .matches()
                .play(place(channel), &player, &request)
                .await;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    worker.await?
}

/// Plays `n` matches of `moves` random moves in channels after `first`, ends them, asks for
/// their analyses, then judges positions as the bot's worker does until `stop` is set.
/// Returns the positions judged.
async fn analyses(
    ready: tokio::sync::oneshot::Sender<()>,
    service: Arc<Service>,
    first: u64,
    n: u64,
    moves: usize,
    stop: Arc<std::sync::atomic::AtomicBool>,
) -> anyhow::Result<usize> {
    use std::sync::atomic::Ordering;
    let mut rng = StdRng::seed_from_u64(11);
    for channel in first..first + n {
        start_match(&service, channel).await?;
        let (a, b) = players(channel);
        for _ in 0..moves {
            let Some(m) = service.store().active_match_in(ChannelId(channel)).await? else {
                break;
            };
            let who = if m.player_to_move() == Some(a.id) {
                &a
            } else {
                &b
            };
            let legal = m.game.current_battle().position().legal_moves();
            let Some(mv) = legal.choose(&mut rng) else {
                break;
            };
            let request = MoveRequest::Notation(mv.to_string());
            service
                .matches()
                .play(place(channel), who, &request)
                .await
                .map_err(|e| anyhow::anyhow!("move {mv}: {e:?}"))?;
        }
        if service
            .store()
            .active_match_in(ChannelId(channel))
            .await?
            .is_some()
        {
            service
                .matches()
                .resign(place(channel), &a, None)
                .await
                .map_err(|e| anyhow::anyhow!("resign: {e:?}"))?;
        }
        service
            .analysis()
            .ask(place(channel), None)
            .await
            .map_err(|e| anyhow::anyhow!("analysis: {e:?}"))?;
    }
    let _ = ready.send(());
    let mut judged = 0;
    while !stop.load(Ordering::Relaxed) {
        match service.analysis().analyse_some(1).await {
            Ok(0) => tokio::time::sleep(Duration::from_millis(20)).await,
            Ok(k) => judged += k,
            Err(e) => return Err(anyhow::anyhow!("analysis: {e}")),
        }
    }
    Ok(judged)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let db = ScratchDatabase::create().await?;
    let store = Store::new(db.pool().clone());
    let service = Arc::new(Service::new(
        store.clone(),
        Arc::new(Renderer::new()),
        Arc::new(SystemClock),
        ServiceConfig::default(),
    ));
    let server = if std::env::var("DATABASE_URL").is_ok() {
        "the server at DATABASE_URL"
    } else {
        "a throwaway local server (no fsync)"
    };
    println!("database: {} on {server}", db.name());

    let began = Instant::now();
    for channel in 1..=args.matches {
        start_match(&service, channel).await?;
    }
    println!(
        "started {} matches in {:.1} s",
        store.count_active_matches().await?,
        began.elapsed().as_secs_f64()
    );

    // Storage: the part of a move that touches the database, from one client.
    let mut rng = StdRng::seed_from_u64(args.seed);
    let mut storage = Vec::with_capacity(args.storage_moves);
    for i in 0..args.storage_moves {
        let channel = (i as u64 % args.matches) + 1;
        let t = Instant::now();
        let mut tx = store.begin().await?;
        let mut m = tx
            .lock_active_match(ChannelId(channel))
            .await?
            .ok_or_else(|| anyhow::anyhow!("no match in channel {channel}"))?;
        let seat = m
            .game
            .seat_to_move()
            .ok_or_else(|| anyhow::anyhow!("match over"))?;
        // Quiet moves keep every battle going, so this phase measures storage alone.
        let quiet: Vec<Move> = m
            .game
            .current_battle()
            .position()
            .legal_moves()
            .into_iter()
            .filter(|mv| mv.captured().is_empty())
            .collect();
        let mv = *quiet
            .choose(&mut rng)
            .ok_or_else(|| anyhow::anyhow!("no quiet move"))?;
        let battle = m.current_battle().clone();
        m.game
            .play(seat, &MoveText::new(mv.from(), mv.to(), vec![]))
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        let now = chrono::Utc::now();
        tx.insert_move(
            battle.id,
            battle.stamps.len() as u32 + 1,
            &mv,
            m.player(seat),
            now,
        )
        .await?;
        let next = m.player(seat.other());
        tx.set_clock(
            m.id,
            &TurnClock {
                player: next,
                turn_started_at: now,
                deadline: now + chrono::Duration::days(3),
                remind_at: now + chrono::Duration::days(3) - chrono::Duration::hours(18),
                vacation_since: None,
                reminder_sent_at: None,
                paused_at: None,
            },
        )
        .await?;
        tx.commit().await?;
        storage.push(t.elapsed());
    }
    storage.sort();
    println!(
        "storage part of a move (lock + load + replay, insert move, update clock, commit), {} moves, 1 client: median {:.2} ms, p99 {:.2} ms",
        storage.len(),
        ms(percentile(&storage, 0.5)),
        ms(percentile(&storage, 0.99))
    );

    // Service: whole moves, each client owning its own matches.
    let mut mirrors: HashMap<u64, ([UserId; 2], Match)> = HashMap::new();
    for channel in 1..=args.matches {
        let m = store
            .active_match_in(ChannelId(channel))
            .await?
            .ok_or_else(|| anyhow::anyhow!("no match in channel {channel}"))?;
        mirrors.insert(channel, (m.players, m.game));
    }
    let mirrors = Arc::new(Mutex::new(mirrors));
    let per_client = args.moves / args.clients.max(1);
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let alongside = (args.computer_matches > 0).then(|| {
        tokio::spawn(computer_matches(
            service.clone(),
            args.matches + 1,
            args.computer_matches,
            stop.clone(),
        ))
    });
    let (ready_tx, ready) = tokio::sync::oneshot::channel();
    let ready = (args.analyses > 0).then_some(ready);
    let analysed = (args.analyses > 0).then(|| {
        tokio::spawn(analyses(
            ready_tx,
            service.clone(),
            args.matches + args.computer_matches + 1,
            args.analyses,
            args.analysis_moves,
            stop.clone(),
        ))
    });
    // The analyses' matches are played first, so the service phase runs beside the judging
    // alone.
    if let Some(ready) = ready {
        ready.await?;
    }
    let began = Instant::now();
    let mut tasks = Vec::new();
    for client in 0..args.clients.max(1) {
        let service = service.clone();
        let mirrors = mirrors.clone();
        let matches = args.matches;
        let clients = args.clients.max(1) as u64;
        let seed = args.seed + 1 + client as u64;
        tasks.push(tokio::spawn(async move {
            let mut rng = StdRng::seed_from_u64(seed);
            let mine: Vec<u64> = (1..=matches)
                .filter(|c| c % clients == client as u64)
                .collect();
            let mut latencies = Vec::with_capacity(per_client);
            let mut restarted = 0usize;
            while latencies.len() < per_client {
                let channel = mine[rng.gen_range(0..mine.len())];
                let (players, game) = {
                    let guard = mirrors.lock().await;
                    guard[&channel].clone()
                };
                let Some(seat) = game.seat_to_move() else {
                    continue;
                };
                let moves = game.current_battle().position().legal_moves();
                let mv = *moves.choose(&mut rng).expect("a battle in play has a move");
                let who = players[usize::from(seat == thudbot::game::Seat::Second)];
                let actor = Actor::new(who, format!("p{who}"));
                let t = Instant::now();
                let reply = service
                    .matches()
                    .play(
                        place(channel),
                        &actor,
                        &MoveRequest::Notation(mv.to_string()),
                    )
                    .await;
                let took = t.elapsed();
                reply.map_err(|e| anyhow::anyhow!("move {mv} in channel {channel}: {e:?}"))?;
                latencies.push(took);
                let mut game = game;
                let text: MoveText = mv.to_string().parse().expect("notation reads back");
                game.play(seat, &text).map_err(|e| anyhow::anyhow!("{e}"))?;
                if game.is_over() {
                    start_match(&service, channel).await?;
                    restarted += 1;
                    game = Match::new(thudbot::game::Variant::Classic);
                }
                mirrors.lock().await.insert(channel, (players, game));
            }
            anyhow::Ok((latencies, restarted))
        }));
    }
    let mut all = Vec::new();
    let mut restarted = 0;
    for t in tasks {
        let (l, r) = t.await??;
        all.extend(l);
        restarted += r;
    }
    let wall = began.elapsed();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    if let Some(alongside) = alongside {
        let played = alongside.await??;
        println!(
            "alongside: {} matches against the computer at level 5, {played} computer moves played in {:.1} s",
            args.computer_matches,
            wall.as_secs_f64()
        );
    }
    if let Some(analysed) = analysed {
        let judged = analysed.await??;
        println!(
            "alongside: {} finished matches analysed, {judged} positions judged in {:.1} s",
            args.analyses,
            wall.as_secs_f64()
        );
    }
    all.sort();
    println!(
        "service moves (validate, store, draw the PNG), {} moves, {} clients, {} matches in play ({} finished and replaced): {:.0} moves/s, median {:.2} ms, p99 {:.2} ms",
        all.len(),
        args.clients.max(1),
        store.count_active_matches().await?,
        restarted,
        all.len() as f64 / wall.as_secs_f64(),
        ms(percentile(&all, 0.5)),
        ms(percentile(&all, 0.99))
    );
    Ok(())
}
