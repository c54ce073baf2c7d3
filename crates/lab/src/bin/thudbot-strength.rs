//! Strength benchmark for the computer player: match-pairs between levels and against two
//! baselines (a random mover and a greedy capturer).
//!
//! A pair is one opening (seeded random plies from the start) played twice, the sides swapped,
//! so neither player profits from a lucky opening or side. Battles between programs need not
//! end, so a battle stops at `--ply-cap` plies and is scored as it stands: the pieces on the
//! board (classic, original), a draw (Koom Valley, where only objectives win).
//!
//! `thudbot-strength --pairs 10 --pairings 1-random,2-1,3-2,4-3,5-4,5-greedy --time-scale 0.5`
//!
//! `--external '<command>'` adds a player `ext`: another engine run as a subprocess that reads
//! `go <milliseconds> <FEN>` lines and answers each with one move in this project's notation
//! (`dE6-H9xH9`, `TG7-F6xE5xF5`), e.g. `--pairings 5-ext`. Its moves are checked against the
//! rules; an illegal or unreadable answer stops the run.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use clap::Parser;
use thud_engine::computer::baseline::{greedy_move, random_move};
use thud_engine::computer::features::{SideWeights, Weights, FEATURES};
use thud_engine::computer::{think, Chance, Level};
use thud_engine::game::{Move, MoveText, Position, Side, Variant};

#[derive(Parser)]
#[command(about = "Plays match-pairs between computer levels and baselines")]
struct Args {
    /// Match-pairs per pairing.
    #[arg(long, default_value_t = 10)]
    pairs: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// classic, original or koom-valley.
    #[arg(long, default_value = "classic")]
    variant: String,
    /// Comma-separated `A-B` pairings; each side is a level 1..5, `random` or `greedy`.
    #[arg(long, default_value = "1-random,2-1,3-2,4-3,5-4,5-greedy")]
    pairings: String,
    /// Multiplies every level's time and node budget (1 = as played on Discord).
    #[arg(long, default_value_t = 1.0)]
    time_scale: f64,
    /// Plies after which a battle is stopped and scored as it stands.
    #[arg(long, default_value_t = 150)]
    ply_cap: usize,
    /// Plies without a capture after which a battle is stopped and scored (0: no such limit).
    #[arg(long, default_value_t = 0)]
    stall: usize,
    /// Random plies from the start that make each pair's opening.
    #[arg(long, default_value_t = 4)]
    opening_plies: usize,
    /// Print how each battle ended (plies, result, final position) on standard error.
    #[arg(long)]
    show: bool,
    /// Print every move and the position it led to on standard error.
    #[arg(long)]
    trace: bool,
    /// An external engine (a shell command) that plays as `ext`; see the module's comment.
    #[arg(long)]
    external: Option<String>,
    /// The external engine's time a move in milliseconds (default: level 5's, time-scaled).
    #[arg(long)]
    external_ms: Option<u64>,
    /// Comma-separated evaluation weights for players written `5w` (a level with these
    /// weights on both sides, in the order `thudbot-tune fit` prints) and `5d` (these weights
    /// as the dwarfs, `--troll-weights` as the trolls); `5h` plays with the hand-set weights.
    #[arg(long)]
    weights: Option<String>,
    /// The weights a `5d` player has as the trolls (default: those level 5 plays as the trolls).
    #[arg(long)]
    troll_weights: Option<String>,
    /// Play only the battle of each pair where A has the dwarfs (a screen of one side's play;
    /// the table then gives A's margin as the dwarfs).
    #[arg(long)]
    only_as_dwarfs: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Player {
    Random,
    Greedy,
    Computer(Level),
    /// A level with other evaluation weights: the hand-set ones, or those given with --weights.
    Weighted(Level, Other),
    External,
}

/// Which other weights a `Weighted` level plays with.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Other {
    /// The hand-set weights (`5h`).
    Hand,
    /// The --weights, on both sides (`5w`).
    Given,
    /// The --weights when it has the dwarfs, the --troll-weights when it has the trolls (`5d`).
    GivenAsDwarfs,
}

impl Player {
    fn parse(text: &str) -> Result<Player, String> {
        match text.trim() {
            "random" => Ok(Player::Random),
            "greedy" => Ok(Player::Greedy),
            "ext" => Ok(Player::External),
            other if other.ends_with(['h', 'w', 'd']) => {
                let kind = match other.chars().last() {
                    Some('h') => Other::Hand,
                    Some('w') => Other::Given,
                    _ => Other::GivenAsDwarfs,
                };
                other[..other.len() - 1]
                    .parse::<Level>()
                    .map(|level| Player::Weighted(level, kind))
                    .map_err(|e| e.to_string())
            }
            other => other
                .parse::<Level>()
                .map(Player::Computer)
                .map_err(|e| e.to_string()),
        }
    }

    fn name(self) -> String {
        match self {
            Player::Random => "random".into(),
            Player::Greedy => "greedy".into(),
            Player::External => "external".into(),
            Player::Weighted(level, Other::Hand) => format!("level {level} (hand-set weights)"),
            Player::Weighted(level, Other::Given) => format!("level {level} (--weights)"),
            Player::Weighted(level, Other::GivenAsDwarfs) => {
                format!("level {level} (--weights as the dwarfs)")
            }
            Player::Computer(level) => format!("level {level}"),
        }
    }
}

/// Time spent thinking, per level.
#[derive(Default)]
struct Clock {
    moves: u64,
    total: Duration,
    longest: Duration,
}

/// An engine in a subprocess, asked for one move at a time.
struct External {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    millis: u64,
}

impl External {
    fn start(command: &str, millis: u64) -> Result<External, String> {
        let mut child = Command::new("sh")
            .args(["-c", command])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start `{command}`: {e}"))?;
        let input = child.stdin.take().ok_or("no standard input")?;
        let output = BufReader::new(child.stdout.take().ok_or("no standard output")?);
        Ok(External {
            child,
            input,
            output,
            millis,
        })
    }

    /// The engine's move in `position`, checked against the rules.
    fn choose(&mut self, position: &Position) -> Result<Option<Move>, String> {
        if !position.has_legal_move() {
            return Ok(None);
        }
        writeln!(self.input, "go {} {}", self.millis, position.fen())
            .and_then(|()| self.input.flush())
            .map_err(|e| format!("the external engine stopped reading: {e}"))?;
        let mut line = String::new();
        self.output
            .read_line(&mut line)
            .map_err(|e| format!("no answer from the external engine: {e}"))?;
        let text: MoveText = line
            .trim()
            .parse()
            .map_err(|e| format!("the external engine answered `{}`: {e}", line.trim()))?;
        position.resolve(&text).map(Some).map_err(|e| {
            format!(
                "the external engine played `{}` in {position}: {e}",
                line.trim()
            )
        })
    }
}

impl Drop for External {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Bench {
    external: Option<External>,
    weights: Weights,
    troll_weights: Weights,
    scale: f64,
    ply_cap: usize,
    stall: usize,
    show: bool,
    trace: bool,
    clocks: BTreeMap<Player, Clock>,
}

impl Bench {
    fn choose(&mut self, player: Player, position: &Position, seed: u64) -> Option<Move> {
        let mut chance = Chance::new(seed);
        match player {
            Player::Random => random_move(position, &mut chance),
            Player::Greedy => greedy_move(position, &mut chance),
            Player::External => {
                let began = Instant::now();
                let answer = match self.external.as_mut() {
                    Some(engine) => engine.choose(position),
                    None => Err("`ext` needs --external '<command>'".to_string()),
                };
                let mv = answer.unwrap_or_else(|e| {
                    eprintln!("thudbot-strength: {e}");
                    std::process::exit(2);
                });
                self.clock(player, began.elapsed());
                mv
            }
            Player::Computer(level) | Player::Weighted(level, _) => {
                let began = Instant::now();
                let mut settings = level.settings(position.variant()).scaled(self.scale);
                match player {
                    Player::Weighted(_, Other::Hand) => {
                        settings.weights = SideWeights::both(Weights::HAND)
                    }
                    Player::Weighted(_, Other::Given) => {
                        settings.weights = SideWeights::both(self.weights)
                    }
                    Player::Weighted(_, Other::GivenAsDwarfs) => {
                        settings.weights = SideWeights {
                            dwarfs: self.weights,
                            trolls: self.troll_weights,
                        }
                    }
                    _ => {}
                }
                let mv = think(position, &settings, seed).map(|t| t.best);
                self.clock(player, began.elapsed());
                mv
            }
        }
    }

    fn clock(&mut self, player: Player, took: Duration) {
        let clock = self.clocks.entry(player).or_default();
        clock.moves += 1;
        clock.total += took;
        clock.longest = clock.longest.max(took);
    }

    /// Plays a battle from `opening`; returns the dwarfs' margin (pieces, or ±1 for a Koom
    /// Valley objective) and whether the ply cap stopped it.
    fn battle(
        &mut self,
        opening: &Position,
        dwarfs: Player,
        trolls: Player,
        seed: u64,
    ) -> (i32, bool) {
        let mut position = opening.clone();
        let mut plies = self.ply_cap;
        let mut quiet = 0;
        for ply in 0..self.ply_cap {
            if self.stall > 0 && quiet >= self.stall {
                plies = ply;
                break;
            }
            let player = match position.side_to_move() {
                Side::Dwarfs => dwarfs,
                Side::Trolls => trolls,
            };
            let Some(mv) =
                self.choose(player, &position, seed.wrapping_mul(1_000_003) ^ ply as u64)
            else {
                plies = ply;
                break;
            };
            quiet = if mv.capture_count() == 0 {
                quiet + 1
            } else {
                0
            };
            position = position.after(&mv);
            if self.trace {
                eprintln!("    {} {mv} {position}", ply + 1);
            }
        }
        let finished = !position.has_legal_move();
        if self.show {
            eprintln!(
                "  {} (dwarfs) vs {} (trolls): {:+} after {plies} plies{}, {position}",
                dwarfs.name(),
                trolls.name(),
                result(&position),
                if finished { "" } else { " (capped)" },
            );
        }
        (result(&position), !finished)
    }
}

/// The dwarfs' margin as the battle stands.
fn result(position: &Position) -> i32 {
    match (position.variant(), position.objective_reached()) {
        (Variant::KoomValley, Some(Side::Dwarfs)) => 1,
        (Variant::KoomValley, Some(Side::Trolls)) => -1,
        (Variant::KoomValley, None) => 0,
        _ => position.dwarfs().len() as i32 - 4 * position.trolls().len() as i32,
    }
}

/// Weights written `3,-12,...`, one for each count of the evaluation.
fn parse_weights(text: &str) -> Result<Weights, String> {
    let values = text
        .trim_matches(|c| c == '[' || c == ']' || c == ' ')
        .split(',')
        .map(|v| {
            v.trim()
                .parse::<i32>()
                .map_err(|_| format!("`{v}` is not a weight"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let weights: [i32; FEATURES] = values
        .try_into()
        .map_err(|_| format!("--weights needs {FEATURES} numbers"))?;
    Ok(Weights(weights))
}

/// The weights given on the command line, or `default`; bad ones end the run.
fn weights_arg(text: Option<&str>, default: Weights) -> Weights {
    match text.map(parse_weights) {
        None => default,
        Some(Ok(w)) => w,
        Some(Err(e)) => {
            eprintln!("thudbot-strength: {e}");
            std::process::exit(2);
        }
    }
}

/// An opening: `plies` random moves from the start that leave the battle going.
fn opening(variant: Variant, plies: usize, seed: u64) -> Position {
    let mut chance = Chance::new(seed);
    let mut position = variant.start();
    for _ in 0..plies {
        match random_move(&position, &mut chance) {
            Some(mv) if position.after(&mv).has_legal_move() => position = position.after(&mv),
            _ => break,
        }
    }
    position
}

fn main() {
    let args = Args::parse();
    let variant: Variant = match args.variant.parse() {
        Ok(v) => v,
        Err(e) => {
            eprintln!("thudbot-strength: {e}");
            std::process::exit(2);
        }
    };
    let mut pairings = Vec::new();
    for text in args.pairings.split(',') {
        let parsed = text
            .split_once('-')
            .ok_or_else(|| format!("`{text}` is not a pairing like 5-4"))
            .and_then(|(a, b)| Ok((Player::parse(a)?, Player::parse(b)?)));
        match parsed {
            Ok(p) => pairings.push(p),
            Err(e) => {
                eprintln!("thudbot-strength: {e}");
                std::process::exit(2);
            }
        }
    }
    let external = match &args.external {
        Some(command) => {
            let level5 = Level::STRONGEST.settings(variant).scaled(args.time_scale);
            let millis = args.external_ms.unwrap_or(level5.time.as_millis() as u64);
            match External::start(command, millis) {
                Ok(engine) => Some(engine),
                Err(e) => {
                    eprintln!("thudbot-strength: {e}");
                    std::process::exit(2);
                }
            }
        }
        None => None,
    };
    let weights = weights_arg(args.weights.as_deref(), Weights::TUNED);
    let troll_weights = weights_arg(
        args.troll_weights.as_deref(),
        SideWeights::for_play(variant).trolls,
    );
    let mut bench = Bench {
        external,
        weights,
        troll_weights,
        scale: args.time_scale,
        ply_cap: args.ply_cap,
        stall: args.stall,
        show: args.show,
        trace: args.trace,
        clocks: BTreeMap::new(),
    };
    println!(
        "{} pairs per pairing, {variant}, seed {}, time scale {}, {} opening plies, ply cap {}{} (a capped battle is scored as it stands{})",
        args.pairs,
        args.seed,
        args.time_scale,
        args.opening_plies,
        args.ply_cap,
        match args.stall {
            0 => String::new(),
            n => format!(" or {n} plies without a capture"),
        },
        if variant.wins_by_objective() { ": a draw" } else { ": the pieces on the board" }
    );
    println!("| pairing (A vs B) | pairs won–drawn–lost by A | A won | mean margin per pair for A (95% CI) | battles capped |");
    println!("|---|---|---|---|---|");
    for (a, b) in pairings {
        let began = Instant::now();
        let (mut won, mut drawn, mut lost, mut capped) = (0, 0, 0, 0);
        let mut margins = Vec::new();
        for pair in 0..args.pairs {
            let seed = args
                .seed
                .wrapping_mul(0x9E37_79B9)
                .wrapping_add(pair as u64);
            let start = opening(variant, args.opening_plies, seed);
            let (first, capped1) = bench.battle(&start, a, b, seed);
            let (second, capped2) = if args.only_as_dwarfs {
                (0, false)
            } else {
                bench.battle(&start, b, a, seed ^ 0x55)
            };
            let margin = first - second;
            capped += usize::from(capped1) + usize::from(capped2);
            match margin.signum() {
                1 => won += 1,
                0 => drawn += 1,
                _ => lost += 1,
            }
            margins.push(f64::from(margin));
            // With --only-as-dwarfs no battle was played as the trolls: none is reported.
            let as_trolls = if args.only_as_dwarfs {
                String::new()
            } else {
                format!(", as trolls {:+}", -second)
            };
            eprintln!(
                "{} vs {}: pair {} margin {margin:+} (as dwarfs {first:+}{as_trolls}), {:.0} s",
                a.name(),
                b.name(),
                pair + 1,
                began.elapsed().as_secs_f64()
            );
        }
        let n = margins.len().max(1) as f64;
        let mean = margins.iter().sum::<f64>() / n;
        let variance = margins.iter().map(|m| (m - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
        let half_width = 1.96 * (variance / n).sqrt();
        println!(
            "| {} vs {} | {won}–{drawn}–{lost} | {:.0}% | {mean:+.2} ({:+.2} to {:+.2}) | {capped} of {} |",
            a.name(),
            b.name(),
            100.0 * won as f64 / n,
            mean - half_width,
            mean + half_width,
            (if args.only_as_dwarfs { 1 } else { 2 }) * margins.len()
        );
    }
    println!();
    println!("| player | moves | mean time a move | longest |");
    println!("|---|---|---|---|");
    for (player, clock) in &bench.clocks {
        println!(
            "| {} | {} | {:.3} s | {:.3} s |",
            player.name(),
            clock.moves,
            clock.total.as_secs_f64() / clock.moves.max(1) as f64,
            clock.longest.as_secs_f64()
        );
    }
}
