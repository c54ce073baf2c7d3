//! Level-5 self-play for the analysis: plays battles, judges them as the bot's analysis does,
//! fits the calibration (search score → expected final margin in points) and measures it, and
//! counts the mistakes the analysis finds in a strong player's battles.
//!
//! ```sh
//! thudbot-selfplay play --battles 20 --seed 1 --out selfplay.txt     # one battle a line
//! thudbot-selfplay judge --battles selfplay.txt --out judged.csv     # every position judged
//! thudbot-selfplay fit judged.csv                                    # the knots, as Rust
//! thudbot-selfplay measure judged.csv                                # calibration and mistakes
//! ```
//!
//! Level 5 plays with its own search and evaluation, but stops at a number of positions
//! searched (`--nodes`) instead of its clock, so a run gives the same battles on any machine.
//! A battle ends when the side to move has no move, or is stopped and scored as it stands (the
//! pieces on the board, as an end by agreement is) after `--stall` plies without a capture or
//! `--cap` plies. Classic rules.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::{Parser, Subcommand};
use thud_engine::computer::analysis::{
    confirm_by, judge, margin, mistakes, review, Budget, Judgement, Look, DEEPER, MISTAKE,
};
use thud_engine::computer::baseline::random_move;
use thud_engine::computer::calibration::{forecast, knot_weights, Knot, FITTED, KNOTS};
use thud_engine::computer::features::SideWeights;
use thud_engine::computer::{think, Chance, Level};
use thud_engine::game::{Battle, MoveText, Position, Side, Variant};

/// The random plies `play` opens with unless told otherwise, and `measure` counts apart.
const OPENING_PLIES: usize = 4;

#[derive(Parser)]
#[command(about = "Level-5 self-play: battles, judgements, calibration and mistakes")]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Plays battles of level 5 against itself after a few random plies.
    Play {
        #[arg(long, default_value_t = 20)]
        battles: u64,
        /// Battle `i` uses seed `seed + i` for its opening and its choices between equals.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Positions level 5 searches a move.
        #[arg(long, default_value_t = 250_000)]
        nodes: u64,
        /// Random plies before level 5 plays, so the battles differ.
        #[arg(long, default_value_t = OPENING_PLIES)]
        opening_plies: usize,
        #[arg(long, default_value_t = 40)]
        stall: usize,
        #[arg(long, default_value_t = 200)]
        cap: usize,
        #[arg(long)]
        out: PathBuf,
    },
    /// Judges every position of the battles as the bot's analysis does (the last first, each
    /// move with its deeper look) and writes one CSV row a position.
    Judge {
        #[arg(long)]
        battles: PathBuf,
        /// The analysis budget's nodes (default: the bot's standard budget).
        #[arg(long, default_value_t = Budget::STANDARD.nodes)]
        nodes: u64,
        /// Takes each position's standard judgement from an earlier `judge` run at the same
        /// budget (the same, as judging is deterministic) and makes only the deeper looks, with
        /// the calibration compiled in now.
        #[arg(long)]
        reuse: Option<PathBuf>,
        /// The standard look only (for fitting the calibration; no mistakes are judged).
        #[arg(long)]
        standard_only: bool,
        /// What a move must lose at both looks to be a mistake, in hundredths of a point
        /// (default: the bot's margin).
        #[arg(long, default_value_t = MISTAKE)]
        margin: i32,
        /// How many times the budget the deeper look gets (default: the bot's).
        #[arg(long, default_value_t = DEEPER)]
        deeper: u64,
        /// Makes the deeper look at every suspected move, without first scoring the two moves
        /// alike at the standard budget (the bot's look before the screen).
        #[arg(long)]
        unscreened: bool,
        #[arg(long)]
        out: PathBuf,
    },
    /// Fits the calibration's knots by least squares on judged battles: offsets alone (the
    /// search's score kept whole), then offsets and shares.
    Fit { judged: Vec<PathBuf> },
    /// Calibration error by phase, raw and calibrated, and mistakes a side a battle.
    Measure {
        judged: Vec<PathBuf>,
        /// Other knots than those compiled in, `offset:share` five times, comma-separated.
        #[arg(long)]
        knots: Option<String>,
        /// The random plies `play` opened the battles with: those moves are not level 5's,
        /// so their mistakes are counted apart.
        #[arg(long, default_value_t = OPENING_PLIES)]
        opening_plies: usize,
    },
}

fn main() {
    let args = Args::parse();
    let outcome = match args.command {
        Command::Play {
            battles,
            seed,
            nodes,
            opening_plies,
            stall,
            cap,
            out,
        } => play(battles, seed, nodes, opening_plies, stall, cap, &out),
        Command::Judge {
            battles,
            nodes,
            reuse,
            standard_only,
            margin,
            deeper,
            unscreened,
            out,
        } => {
            let look = Look {
                mistake: margin,
                deeper,
                screen: !unscreened,
            };
            judge_battles(&battles, nodes, reuse.as_ref(), standard_only, &look, &out)
        }
        Command::Fit { judged } => read_rows(&judged).map(|rows| fit(&rows)),
        Command::Measure {
            judged,
            knots,
            opening_plies,
        } => {
            let knots = match knots.as_deref().map(parse_knots) {
                Some(Ok(k)) => k,
                Some(Err(e)) => {
                    eprintln!("thudbot-selfplay: {e}");
                    std::process::exit(2);
                }
                None => FITTED,
            };
            read_rows(&judged).map(|rows| measure(&rows, &knots, opening_plies))
        }
    };
    if let Err(message) = outcome {
        eprintln!("thudbot-selfplay: {message}");
        std::process::exit(1);
    }
}

/// Level 5's settings, with a node budget in place of its clock, and on both sides the weights
/// the analysis judges with: the battles docs/analysis.md measures were played with them,
/// before level 5 got a set for each side.
fn level_five(nodes: u64) -> thud_engine::computer::Settings {
    thud_engine::computer::Settings {
        nodes,
        time: Duration::from_secs(86_400),
        weights: SideWeights::for_variant(Variant::Classic),
        // The search the analysis judges with, so docs/analysis.md's figures reproduce.
        late_move_reductions: true,
        ..Level::STRONGEST.settings(Variant::Classic)
    }
}

fn play(
    battles: u64,
    seed: u64,
    nodes: u64,
    opening: usize,
    stall: usize,
    cap: usize,
    out: &PathBuf,
) -> Result<(), String> {
    let settings = level_five(nodes);
    let mut file =
        std::fs::File::create(out).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    for i in 0..battles {
        let seed = seed + i;
        let began = Instant::now();
        let mut chance = Chance::new(seed);
        let mut battle = Battle::new(Variant::Classic);
        let mut quiet = 0;
        while battle.moves().len() < cap && quiet < stall {
            let position = battle.position().clone();
            let mv = if battle.moves().len() < opening {
                random_move(&position, &mut chance)
            } else {
                think(
                    &position,
                    &settings,
                    seed * 1000 + battle.moves().len() as u64,
                )
                .map(|t| t.best)
            };
            let Some(mv) = mv else { break };
            quiet = if mv.captured().is_empty() {
                quiet + 1
            } else {
                0
            };
            battle.play_move(mv).map_err(|e| e.to_string())?;
        }
        let end = points_on_board(battle.position());
        let moves: Vec<String> = battle.moves().iter().map(|m| m.to_string()).collect();
        // Each battle as it ends, so a long run stopped halfway keeps what it played.
        std::io::Write::write_all(
            &mut file,
            format!("{seed}\t{}\n", moves.join(" ")).as_bytes(),
        )
        .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
        eprintln!(
            "battle {seed}: {} plies, {} dwarfs and {} trolls left, margin {end:+} for the dwarfs, {:.0} s",
            battle.moves().len(),
            battle.position().dwarfs().len(),
            battle.position().trolls().len(),
            began.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

/// The pieces on the board as the rules count them, from the dwarfs' side, in points.
fn points_on_board(position: &Position) -> i32 {
    position.dwarfs().len() as i32 - 4 * position.trolls().len() as i32
}

/// The battles of a `play` file: each line's seed and battle.
fn read_battles(path: &PathBuf) -> Result<Vec<(u64, Battle)>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut battles = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let (seed, moves) = line.split_once('\t').unwrap_or((line, ""));
        let seed: u64 = seed.parse().map_err(|_| format!("bad seed in `{line}`"))?;
        let mut battle = Battle::new(Variant::Classic);
        for mv in moves.split_whitespace() {
            let text: MoveText = mv.parse().map_err(|e| format!("{mv}: {e}"))?;
            battle.play(&text).map_err(|e| format!("{mv}: {e}"))?;
        }
        battles.push((seed, battle));
    }
    Ok(battles)
}

/// One judged position.
#[derive(Clone, Debug)]
struct Row {
    seed: u64,
    ply: usize,
    dwarfs: i32,
    trolls: i32,
    /// The search's score, hundredths of a point (the CSV's `score` is the expected margin
    /// the analysis gave with the calibration of its day; `measure` recomputes it).
    raw: i32,
    /// The battle's final margin, in points.
    last: i32,
    /// The move from this position, and whether the analysis calls it a mistake.
    side: Option<Side>,
    mistake: bool,
    /// The battle is over here: scored by the rules, not forecast.
    over: bool,
    /// The search's move at the standard look, in notation.
    best: String,
}

fn judge_battles(
    path: &PathBuf,
    nodes: u64,
    reuse: Option<&PathBuf>,
    standard_only: bool,
    look: &Look,
    out: &PathBuf,
) -> Result<(), String> {
    let mistake = look.mistake;
    let budget = Budget { nodes };
    let earlier: HashMap<(u64, usize), Row> = match reuse {
        Some(path) => read_rows(std::slice::from_ref(path))?
            .into_iter()
            .map(|r| ((r.seed, r.ply), r))
            .collect(),
        None => HashMap::new(),
    };
    let mut csv = String::from("seed,ply,dwarfs,trolls,raw,score,final,side,mistake,over,best\n");
    for (seed, battle) in read_battles(path)? {
        let began = Instant::now();
        let positions = battle.positions();
        let moves = battle.moves();
        // As the bot's worker does: the last position first, each move judged with the score
        // of the position it led to.
        let mut judgements: Vec<Option<Judgement>> = vec![None; positions.len()];
        let mut standard_best = vec![String::new(); positions.len()];
        for ply in (0..positions.len()).rev() {
            let position = &positions[ply];
            let standard = match earlier.get(&(seed, ply)) {
                Some(row) => Judgement {
                    score: if row.over {
                        row.raw
                    } else {
                        margin(position, row.raw)
                    },
                    raw: row.raw,
                    best: position
                        .legal_moves()
                        .into_iter()
                        .find(|m| m.to_string() == row.best),
                    depth: 0,
                    nodes: 0,
                    suspicion: None,
                },
                None => judge(position, &budget),
            };
            standard_best[ply] = standard.best.map(|m| m.to_string()).unwrap_or_default();
            judgements[ply] = Some(match (moves.get(ply), &judgements.get(ply + 1)) {
                (Some(mv), Some(Some(after))) if !standard_only => {
                    confirm_by(position, standard, mv, after.score, &budget, look)
                }
                _ => standard,
            });
        }
        let judgements: Vec<Judgement> = judgements.into_iter().flatten().collect();
        let reviews = review(battle.start(), moves, &judgements);
        let mut flagged = Vec::new();
        for side in [Side::Dwarfs, Side::Trolls] {
            flagged.extend(
                mistakes(&reviews, side, mistake, usize::MAX)
                    .iter()
                    .map(|r| r.ply),
            );
        }
        let last = points_on_board(battle.position());
        for (ply, (position, j)) in positions.iter().zip(&judgements).enumerate() {
            let side = moves.get(ply).map(|_| position.side_to_move());
            let _ = writeln!(
                csv,
                "{seed},{ply},{},{},{},{},{last},{},{},{},{}",
                position.dwarfs().len(),
                position.trolls().len(),
                j.raw,
                j.score,
                side.map_or("", |s| if s == Side::Dwarfs { "d" } else { "t" }),
                u8::from(flagged.contains(&(ply + 1))),
                u8::from(j.best.is_none()),
                standard_best[ply],
            );
        }
        eprintln!(
            "battle {seed}: {} positions judged in {:.1} s, {} flagged",
            positions.len(),
            began.elapsed().as_secs_f64(),
            match flagged.len() {
                1 => "1 mistake".to_string(),
                n => format!("{n} mistakes"),
            }
        );
    }
    std::fs::write(out, csv).map_err(|e| format!("cannot write {}: {e}", out.display()))
}

fn read_rows(paths: &[PathBuf]) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        for line in text.lines().skip(1) {
            let f: Vec<&str> = line.split(',').collect();
            let bad = || format!("bad row `{line}` in {}", path.display());
            let num = |i: usize| f.get(i).and_then(|v| v.parse::<i64>().ok()).ok_or_else(bad);
            rows.push(Row {
                seed: num(0)? as u64,
                ply: num(1)? as usize,
                dwarfs: num(2)? as i32,
                trolls: num(3)? as i32,
                raw: num(4)? as i32,
                last: num(6)? as i32,
                side: match f.get(7) {
                    Some(&"d") => Some(Side::Dwarfs),
                    Some(&"t") => Some(Side::Trolls),
                    _ => None,
                },
                mistake: f.get(8) == Some(&"1"),
                over: f.get(9) == Some(&"1"),
                best: f.get(10).unwrap_or(&"").to_string(),
            });
        }
    }
    if rows.is_empty() {
        return Err("no judged positions".into());
    }
    Ok(rows)
}

fn material(row: &Row) -> i32 {
    100 * (row.dwarfs - 4 * row.trolls)
}

fn parse_knots(text: &str) -> Result<[Knot; 5], String> {
    let mut knots = [Knot {
        offset: 0,
        share: 100,
    }; 5];
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() != 5 {
        return Err("--knots needs five `offset:share` pairs".into());
    }
    for (knot, part) in knots.iter_mut().zip(parts) {
        let (o, s) = part.split_once(':').ok_or("a knot is `offset:share`")?;
        knot.offset = o.trim().parse().map_err(|_| format!("bad offset `{o}`"))?;
        knot.share = s.trim().parse().map_err(|_| format!("bad share `{s}`"))?;
    }
    Ok(knots)
}

fn fit(rows: &[Row]) {
    // Offsets alone: the mean of `final − score` at each knot, weighted.
    let (mut sum, mut weight) = ([0.0f64; 5], [0.0f64; 5]);
    for row in rows.iter().filter(|r| !r.over) {
        let w = knot_weights(row.dwarfs);
        for k in 0..5 {
            sum[k] += w[k] * f64::from(100 * row.last - row.raw);
            weight[k] += w[k];
        }
    }
    println!("offsets alone (the search's score kept whole):");
    let offsets: Vec<String> = (0..5)
        .map(|k| {
            let o = if weight[k] > 0.0 {
                sum[k] / weight[k]
            } else {
                0.0
            };
            format!("{}:100", o.round() as i32)
        })
        .collect();
    println!("  --knots {}", offsets.join(","));
    println!("offsets and shares:");
    fit_shares(rows);
}

/// Least squares: `final − material = Σ w_k(dwarfs) (offset_k + share_k (raw − material))`.
fn fit_shares(rows: &[Row]) {
    const N: usize = 10;
    let mut a = [[0.0f64; N]; N];
    let mut b = [0.0f64; N];
    for row in rows.iter().filter(|r| !r.over) {
        let x = f64::from(row.raw - material(row));
        let y = f64::from(100 * row.last - material(row));
        let w = knot_weights(row.dwarfs);
        let mut features = [0.0; N];
        for k in 0..5 {
            features[2 * k] = w[k];
            features[2 * k + 1] = w[k] * x;
        }
        for i in 0..N {
            b[i] += features[i] * y;
            for j in 0..N {
                a[i][j] += features[i] * features[j];
            }
        }
    }
    // A little ridge towards "offset 0, all of the score": knots no position reaches stay so.
    for k in 0..5 {
        a[2 * k][2 * k] += 1.0;
        a[2 * k + 1][2 * k + 1] += 1e4;
        b[2 * k + 1] += 1e4;
    }
    let solved = solve(a, b);
    let knots: Vec<String> = (0..5)
        .map(|k| {
            format!(
                "{}:{}",
                solved[2 * k].round() as i32,
                (solved[2 * k + 1] * 100.0).round() as i32
            )
        })
        .collect();
    println!("  --knots {}", knots.join(","));
    println!(
        "(knots at {:?} dwarfs; {} positions)",
        KNOTS,
        rows.iter().filter(|r| !r.over).count()
    );
}

/// Gaussian elimination with partial pivoting.
fn solve<const N: usize>(mut a: [[f64; N]; N], mut b: [f64; N]) -> [f64; N] {
    for col in 0..N {
        let pivot = (col..N)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        b.swap(col, pivot);
        if a[col][col].abs() < 1e-12 {
            continue;
        }
        for row in col + 1..N {
            let f = a[row][col] / a[col][col];
            let pivot_row = a[col];
            for (cell, p) in a[row].iter_mut().zip(pivot_row).skip(col) {
                *cell -= f * p;
            }
            b[row] -= f * b[col];
        }
    }
    let mut x = [0.0; N];
    for col in (0..N).rev() {
        let rest: f64 = (col + 1..N).map(|k| a[col][k] * x[k]).sum();
        x[col] = if a[col][col].abs() < 1e-12 {
            0.0
        } else {
            (b[col] - rest) / a[col][col]
        };
    }
    x
}

/// The phases the error is told by: dwarfs on the board.
const PHASES: [(&str, i32, i32); 4] = [
    ("opening (29-32 dwarfs)", 29, 32),
    ("middle (21-28 dwarfs)", 21, 28),
    ("late (13-20 dwarfs)", 13, 20),
    ("end (0-12 dwarfs)", 0, 12),
];

fn measure(rows: &[Row], knots: &[Knot; 5], opening: usize) {
    // Recomputed from the raw score with the knots compiled in, so a new fit is measured
    // without judging again; a battle over (the last row, when no move follows) is its result.
    let knots_now = |row: &Row| -> i32 {
        if row.over {
            row.raw
        } else {
            forecast(row.dwarfs, material(row), row.raw, knots)
        }
    };
    println!("| phase | positions | raw score: mean abs. error | calibrated: mean abs. error | calibrated: mean error |");
    println!("|---|---|---|---|---|");
    let mut all = (0usize, 0f64, 0f64, 0f64);
    for (name, lo, hi) in PHASES {
        let of: Vec<&Row> = rows
            .iter()
            .filter(|r| r.dwarfs >= lo && r.dwarfs <= hi)
            .collect();
        let n = of.len();
        let raw: f64 = of
            .iter()
            .map(|r| f64::from((r.raw - 100 * r.last).abs()))
            .sum();
        let cal: f64 = of
            .iter()
            .map(|r| f64::from((knots_now(r) - 100 * r.last).abs()))
            .sum();
        let bias: f64 = of
            .iter()
            .map(|r| f64::from(knots_now(r) - 100 * r.last))
            .sum();
        all = (all.0 + n, all.1 + raw, all.2 + cal, all.3 + bias);
        let per = |x: f64| x / 100.0 / n.max(1) as f64;
        println!(
            "| {name} | {n} | {:.2} | {:.2} | {:+.2} |",
            per(raw),
            per(cal),
            per(bias)
        );
    }
    let per = |x: f64| x / 100.0 / all.0.max(1) as f64;
    println!(
        "| all | {} | {:.2} | {:.2} | {:+.2} |",
        all.0,
        per(all.1),
        per(all.2),
        per(all.3)
    );
    let mut seeds: Vec<u64> = rows.iter().map(|r| r.seed).collect();
    seeds.dedup();
    // Row `ply` is the position before move `ply + 1`: the first `opening` moves were random.
    let count = |side: Side, random: bool| {
        rows.iter()
            .filter(|r| r.side == Some(side) && r.mistake && (r.ply < opening) == random)
            .count()
    };
    let battles = seeds.len().max(1) as f64;
    for (random, whose) in [
        (false, "level 5's moves"),
        (true, "the random opening moves"),
    ] {
        let (d, t) = (count(Side::Dwarfs, random), count(Side::Trolls, random));
        println!(
            "{} battles, {whose}: mistakes flagged (at the margin `judge` was given): dwarfs {d} ({:.2} a battle), trolls {t} ({:.2} a battle), {:.2} a side a battle",
            seeds.len(),
            d as f64 / battles,
            t as f64 / battles,
            (d + t) as f64 / battles / 2.0
        );
    }
    let finals: Vec<i32> = rows.iter().filter(|r| r.ply == 0).map(|r| r.last).collect();
    let starts: Vec<i32> = rows.iter().filter(|r| r.ply == 0).map(knots_now).collect();
    println!(
        "final margins (dwarfs' side): mean {:+.2}; the start judged {:+.2} on average",
        f64::from(finals.iter().sum::<i32>()) / finals.len().max(1) as f64,
        f64::from(starts.iter().sum::<i32>()) / 100.0 / starts.len().max(1) as f64
    );
}
