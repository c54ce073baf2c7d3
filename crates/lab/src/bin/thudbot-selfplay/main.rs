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
use thud_engine::computer::calibration::FITTED;
use thud_engine::computer::features::SideWeights;
use thud_engine::computer::{think, Chance, Level};
use thud_engine::game::{Battle, MoveText, Position, Side, Variant};

mod fit;

use fit::{fit, measure, parse_knots, read_rows};

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
        /// Level 5 as the bot plays it now (a set of weights for each side, its own search)
        /// rather than with the analysis's weights and search.
        #[arg(long)]
        as_played: bool,
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
        /// The screen and the deeper look judge with the standard look's eye (one set of
        /// weights for both sides) rather than level 5's as it plays the side that moved (the
        /// bot's before 2026-12-07).
        #[arg(long)]
        standard_eye: bool,
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
            as_played,
            out,
        } => {
            let settings = match as_played {
                true => level_five_as_played(nodes),
                false => level_five(nodes),
            };
            play(battles, seed, settings, opening_plies, stall, cap, &out)
        }
        Command::Judge {
            battles,
            nodes,
            reuse,
            standard_only,
            margin,
            deeper,
            unscreened,
            standard_eye,
            out,
        } => {
            let look = Look {
                mistake: margin,
                deeper,
                screen: !unscreened,
                players_eye: !standard_eye,
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

/// Level 5's settings as the bot plays classic now, with a node budget in place of its clock.
fn level_five_as_played(nodes: u64) -> thud_engine::computer::Settings {
    thud_engine::computer::Settings {
        nodes,
        time: Duration::from_secs(86_400),
        ..Level::STRONGEST.settings(Variant::Classic)
    }
}

fn play(
    battles: u64,
    seed: u64,
    settings: thud_engine::computer::Settings,
    opening: usize,
    stall: usize,
    cap: usize,
    out: &PathBuf,
) -> Result<(), String> {
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
