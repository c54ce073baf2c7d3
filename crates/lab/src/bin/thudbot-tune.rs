//! Tuning the classic evaluation's weights on self-play or on battles against another engine
//! (a Texel-style fit).
//!
//! `selfplay` plays battles between two copies of the search at a fixed node budget from
//! random openings and writes every quiet position (the side to move has no capture) with the
//! battle's final margin. `fit` then finds the weights for which the evaluation's counts best
//! predict what the material will still become: the target of a position is its battle's final
//! margin (or with `--horizon`, the margin some plies on) less its material now, fitted by
//! least squares with a ridge towards the hand-set weights (or the tuned ones, or those levels 4
//! and 5 play as one side), so rare counts stay sane. Because the classic evaluation is
//! material plus weights times counts, the fitted weights can be pasted into `Weights`'
//! constants.
//!
//! `trace` takes the positions from battles against another engine instead, as the
//! strength benchmark traced them, so weights can be fitted to an opponent's play.
//!
//! ```sh
//! thudbot-tune selfplay --games 400 --nodes 4000 --seed 1 > /tmp/selfplay.tsv
//! thudbot-tune fit /tmp/selfplay.tsv
//! ```

use std::io::{BufRead, BufReader, Write};
use std::time::Duration;

use clap::{Parser, Subcommand};
use thud_engine::computer::baseline::random_move;
use thud_engine::computer::features::{
    classic_features, SideWeights, Weights, FEATURES, FEATURE_NAMES,
};
use thud_engine::computer::{think, Chance, Level};
use thud_engine::game::{Position, Side, Variant};

#[derive(Parser)]
#[command(about = "Fits the classic evaluation's weights to the results of battles")]
struct Args {
    #[command(subcommand)]
    command: Task,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum PlayedSide {
    Dwarfs,
    Trolls,
}

#[derive(Subcommand)]
enum Task {
    /// Plays battles and prints `FEN<TAB>final margin<TAB>margin HORIZON plies on` (for the
    /// dwarfs) for every quiet position.
    Selfplay {
        #[arg(long, default_value_t = 200)]
        games: usize,
        /// Positions searched a move (a fixed budget, so load does not change the games).
        #[arg(long, default_value_t = 4000)]
        nodes: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Random plies from the start before the search plays.
        #[arg(long, default_value_t = 6)]
        opening_plies: usize,
        /// A battle still going after this many plies is scored as it stands.
        #[arg(long, default_value_t = 150)]
        ply_cap: usize,
        /// The third column is the margin this many plies after the position (or at the end).
        #[arg(long, default_value_t = 20)]
        horizon: usize,
    },
    /// Reads what `thudbot-strength --trace --show` printed (its standard error) and prints
    /// the same columns as `selfplay` for every position of the battles whose dwarfs were
    /// played by `--dwarfs` (a player's name as the benchmark prints it, `level 5` or
    /// `external`), or whose trolls were played by `--trolls`; `fit` keeps the quiet ones.
    Trace {
        files: Vec<String>,
        #[arg(long)]
        dwarfs: Option<String>,
        #[arg(long)]
        trolls: Option<String>,
        #[arg(long, default_value_t = 20)]
        horizon: usize,
    },
    /// Fits the weights to a file written by `selfplay` or `trace` and prints them.
    Fit {
        data: String,
        /// Ridge penalty per weight (towards its hand-set value, its tuned one with
        /// `--from-tuned`, or a side's played one with `--from-played`), per position.
        #[arg(long, default_value_t = 1.0)]
        ridge: f64,
        /// Fit to the margin a horizon on (the third column) instead of the final one.
        #[arg(long)]
        horizon: bool,
        /// Pull the weights towards the tuned ones instead of the hand-set ones.
        #[arg(long)]
        from_tuned: bool,
        /// Pull the weights towards those levels 4 and 5 play as this side (`dwarfs` or
        /// `trolls`), to fit again on battles they played.
        #[arg(long, conflicts_with = "from_tuned")]
        from_played: Option<PlayedSide>,
    },
}

fn main() {
    let args = Args::parse();
    let outcome = match args.command {
        Task::Selfplay {
            games,
            nodes,
            seed,
            opening_plies,
            ply_cap,
            horizon,
        } => selfplay(games, nodes, seed, opening_plies, ply_cap, horizon),
        Task::Trace {
            files,
            dwarfs,
            trolls,
            horizon,
        } => trace(&files, dwarfs.as_deref(), trolls.as_deref(), horizon),
        Task::Fit {
            data,
            ridge,
            horizon,
            from_tuned,
            from_played,
        } => {
            let prior = match (from_played, from_tuned) {
                (Some(PlayedSide::Dwarfs), _) => SideWeights::for_play(Variant::Classic).dwarfs,
                (Some(PlayedSide::Trolls), _) => SideWeights::for_play(Variant::Classic).trolls,
                (None, true) => Weights::TUNED,
                (None, false) => Weights::HAND,
            };
            fit(&data, ridge, horizon, prior)
        }
    };
    if let Err(e) = outcome {
        eprintln!("thudbot-tune: {e}");
        std::process::exit(2);
    }
}

fn selfplay(
    games: usize,
    nodes: u64,
    seed: u64,
    opening_plies: usize,
    ply_cap: usize,
    horizon: usize,
) -> Result<(), String> {
    let settings = thud_engine::computer::Settings {
        time: Duration::from_secs(60),
        nodes,
        // As when the weights in docs/computer.md were fitted, so they reproduce.
        late_move_reductions: true,
        ..Level::STRONGEST.settings(Variant::Classic)
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for game in 0..games {
        let game_seed = seed.wrapping_mul(0x9E37_79B9).wrapping_add(game as u64);
        let mut chance = Chance::new(game_seed);
        let mut position = Variant::Classic.start();
        for _ in 0..opening_plies {
            match random_move(&position, &mut chance) {
                Some(mv) if position.after(&mv).has_legal_move() => position = position.after(&mv),
                _ => break,
            }
        }
        // Every ply's margin, and which plies were quiet.
        let mut margins = Vec::new();
        let mut quiet = Vec::new();
        for ply in 0..ply_cap {
            margins.push(margin(&position));
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            if !moves.iter().any(|m| !m.captured().is_empty()) {
                quiet.push((ply, position.fen()));
            }
            let Some(thought) = think(&position, &settings, game_seed ^ ply as u64) else {
                break;
            };
            position = position.after(&thought.best);
        }
        let margin = margin(&position);
        for (ply, fen) in quiet {
            let later = margins.get(ply + horizon).copied().unwrap_or(margin);
            writeln!(out, "{fen}\t{margin}\t{later}").map_err(|e| e.to_string())?;
        }
        eprintln!("game {} of {games}: {margin:+}", game + 1);
    }
    Ok(())
}

fn trace(
    files: &[String],
    dwarfs: Option<&str>,
    trolls: Option<&str>,
    horizon: usize,
) -> Result<(), String> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut battle: Vec<(String, i32)> = Vec::new();
    for path in files {
        let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
        for line in BufReader::new(file).lines() {
            let line = line.map_err(|e| e.to_string())?;
            // A move: `    <ply> <move> <position>`.
            if let Some(rest) = line.strip_prefix("    ") {
                let mut parts = rest.splitn(3, ' ');
                if let (Some(ply), Some(_), Some(fen)) = (parts.next(), parts.next(), parts.next())
                {
                    if ply.parse::<usize>().is_ok() {
                        let position = Position::from_fen(fen, Variant::Classic)
                            .map_err(|e| format!("{path}: {e} in `{line}`"))?;
                        battle.push((fen.to_string(), margin(&position)));
                    }
                }
                continue;
            }
            // The end of a battle: `  <player> (dwarfs) vs <player> (trolls): ...`.
            let Some((players, _)) = line.trim().split_once(" (trolls)") else {
                continue;
            };
            let Some((dwarfs_player, trolls_player)) = players.split_once(" (dwarfs) vs ") else {
                continue;
            };
            let wanted = dwarfs.is_some_and(|name| name == dwarfs_player)
                || trolls.is_some_and(|name| name == trolls_player);
            let moves = std::mem::take(&mut battle);
            let Some(&(_, last)) = moves.last() else {
                continue;
            };
            // The position the battle stopped in is left out: nothing was played from it.
            if wanted {
                for (ply, (fen, _)) in moves[..moves.len() - 1].iter().enumerate() {
                    let later = moves.get(ply + horizon).map_or(last, |(_, m)| *m);
                    writeln!(out, "{fen}\t{last}\t{later}").map_err(|e| e.to_string())?;
                }
            }
        }
    }
    Ok(())
}

/// The dwarfs' margin as the battle stands.
fn margin(position: &Position) -> i32 {
    position.dwarfs().len() as i32 - 4 * position.trolls().len() as i32
}

/// Besides the counts, the fit takes a constant, the dwarfs and trolls on the board and the
/// side to move: the material still to change depends on how much there is left to take,
/// and without these the counts would stand in for it. Their weights are not used.
const NUISANCES: usize = 4;

fn fit(path: &str, ridge: f64, horizon: bool, prior: Weights) -> Result<(), String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    // Normal equations of least squares over the counts and the nuisances.
    const N: usize = FEATURES + NUISANCES;
    let mut ata = [[0.0f64; N]; N];
    let mut atb = [0.0f64; N];
    let mut samples = Vec::new();
    for line in BufReader::new(file).lines() {
        let line = line.map_err(|e| e.to_string())?;
        let mut columns = line.split('\t');
        let (Some(fen), Some(last), later) = (columns.next(), columns.next(), columns.next())
        else {
            continue;
        };
        let result = if horizon { later.unwrap_or(last) } else { last };
        let position = Position::from_fen(fen, Variant::Classic).map_err(|e| e.to_string())?;
        // Only quiet positions: where the side to move can capture, the material about to
        // change is that capture, not what the counts describe. (`selfplay` writes no others;
        // a benchmark's trace holds every position.)
        if position.dwarfs().is_empty()
            || position.trolls().is_empty()
            || position.legal_moves().iter().any(|m| m.capture_count() > 0)
        {
            continue;
        }
        let result: f64 = result
            .trim()
            .parse()
            .map_err(|_| format!("bad result in `{line}`"))?;
        let target = 100.0 * (result - f64::from(margin(&position)));
        let features = classic_features(&position);
        let mut row = [1.0f64; N];
        for (slot, f) in row.iter_mut().zip(features) {
            *slot = f64::from(f);
        }
        row[FEATURES + 1] = position.dwarfs().len() as f64;
        row[FEATURES + 2] = position.trolls().len() as f64;
        row[FEATURES + 3] = f64::from(u8::from(position.side_to_move() == Side::Trolls));
        for i in 0..N {
            atb[i] += row[i] * target;
            for j in 0..N {
                ata[i][j] += row[i] * row[j];
            }
        }
        samples.push((row, target));
    }
    if samples.is_empty() {
        return Err(format!("{path} holds no positions"));
    }
    // The ridge pulls each weight towards its prior value, so a count the quiet positions
    // rarely show (a hurl threat, a double threat) keeps the value it had.
    for (i, row) in ata.iter_mut().enumerate().take(FEATURES) {
        row[i] += ridge * samples.len() as f64;
        atb[i] += ridge * samples.len() as f64 * f64::from(prior.0[i]);
    }
    // A nuisance the data never varies (no troll taken in short battles) would make the
    // system singular; a slight ridge towards 0 leaves it solvable and the rest unchanged.
    for (i, row) in ata.iter_mut().enumerate().skip(FEATURES) {
        row[i] += 1e-6 * samples.len() as f64;
    }
    let solution = solve(ata, atb).ok_or("the counts are linearly dependent; add data")?;
    let fitted = Weights(std::array::from_fn(|i| solution[i].round() as i32));
    let n = samples.len() as f64;
    let mean = samples.iter().map(|(_, t)| t).sum::<f64>() / n;
    let spread = (samples.iter().map(|(_, t)| (t - mean).powi(2)).sum::<f64>() / n).sqrt();
    let residual = (samples
        .iter()
        .map(|(row, t)| (t - row.iter().zip(&solution).map(|(x, w)| x * w).sum::<f64>()).powi(2))
        .sum::<f64>()
        / n)
        .sqrt();
    println!(
        "{} positions; nuisances: constant {:+.0}, per dwarf {:+.0}, per troll {:+.0}, trolls to move {:+.0}",
        samples.len(),
        solution[FEATURES],
        solution[FEATURES + 1],
        solution[FEATURES + 2],
        solution[FEATURES + 3]
    );
    println!("| count | hand | tuned | pulled towards | fitted |");
    println!("|---|---|---|---|---|");
    for (i, name) in FEATURE_NAMES.iter().enumerate() {
        println!(
            "| {name} | {} | {} | {} | {} |",
            Weights::HAND.0[i],
            Weights::TUNED.0[i],
            prior.0[i],
            fitted.0[i]
        );
    }
    println!(
        "root-mean-square of the material still to change: {spread:.0} around its mean, {residual:.0} after the fit (hundredths of a dwarf)"
    );
    println!("pub const TUNED: Weights = Weights({:?});", fitted.0);
    Ok(())
}

/// Gaussian elimination with partial pivoting; `None` when the system is singular.
fn solve<const N: usize>(mut a: [[f64; N]; N], mut b: [f64; N]) -> Option<[f64; N]> {
    for col in 0..N {
        let pivot = (col..N).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-9 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        let (done, rest) = a.split_at_mut(col + 1);
        let pivot_row = &done[col];
        for (offset, row) in rest.iter_mut().enumerate() {
            let factor = row[col] / pivot_row[col];
            for (cell, above) in row.iter_mut().zip(pivot_row).skip(col) {
                *cell -= factor * above;
            }
            b[col + 1 + offset] -= factor * b[col];
        }
    }
    let mut x = [0.0; N];
    for row in (0..N).rev() {
        let rest: f64 = (row + 1..N).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - rest) / a[row][row];
    }
    Some(x)
}
