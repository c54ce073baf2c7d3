//! Analysis benchmark: how long the engine takes to look back at a battle, and how large the
//! graph is.
//!
//! Plays a battle of `--plies` plies between two computers at `--level` from a seeded random
//! opening (so it has captures on both sides), then judges every position with the bot's
//! standard budget on this one thread, as the bot's analysis worker does, and draws the graph
//! of two such battles. Prints the time per position and in all, the search's nodes and depth,
//! the costliest moves found, and the PNG's size.
//!
//! `thudbot-analysis --plies 150 --seed 1 [--graph graph.png]`

use std::time::Instant;

use clap::Parser;
use thud_engine::computer::analysis::{
    capture_plies, check, due, first_look, judge, mistakes, review, Budget, Judgement, Suspect,
    MISTAKE, NAMED,
};
use thud_engine::computer::baseline::random_move;
use thud_engine::computer::{choose_move, Chance, Level};
use thud_engine::game::{Battle, Side, Variant};
use thud_render::graph::{evaluation_graph, GraphBattle};

#[derive(Parser)]
#[command(about = "Times the analysis of a battle and measures its graph")]
struct Args {
    /// Plies of the battle analysed.
    #[arg(long, default_value_t = 150)]
    plies: usize,
    /// The level of both players of the battle.
    #[arg(long, default_value_t = 3)]
    level: u8,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Multiplies the standard budget's nodes.
    #[arg(long, default_value_t = 1.0)]
    budget_scale: f64,
    /// Writes the graph here.
    #[arg(long)]
    graph: Option<std::path::PathBuf>,
}

/// A battle of up to `plies` plies between two computers at `level`, after four random plies.
fn battle(plies: usize, level: Level, seed: u64) -> Battle {
    let mut chance = Chance::new(seed);
    let mut battle = Battle::new(Variant::Classic);
    for i in 0..plies {
        let position = battle.position().clone();
        let mv = if i < 4 {
            random_move(&position, &mut chance)
        } else {
            choose_move(&position, level, seed.wrapping_mul(1000) + i as u64)
        };
        match mv {
            Some(mv) if battle.play_move(mv).is_ok() => {}
            _ => break,
        }
    }
    battle
}

fn main() {
    let args = Args::parse();
    let Some(level) = Level::new(args.level) else {
        eprintln!("thudbot-analysis: --level is 1 to 5");
        std::process::exit(2);
    };
    let scale = if args.budget_scale.is_finite() && args.budget_scale > 0.0 {
        args.budget_scale
    } else {
        1.0
    };
    let budget = Budget {
        nodes: (Budget::STANDARD.nodes as f64 * scale) as u64,
    };
    let mut panels = Vec::new();
    for (k, seed) in [args.seed, args.seed + 1].into_iter().enumerate() {
        let battle = battle(args.plies, level, seed);
        let positions = battle.positions();
        let began = Instant::now();
        let mut slowest = 0f64;
        // As the bot's worker: the last position first, each move judged with the score of
        // the position it led to (and suspected when it seems to lose a point) ...
        let mut judged: Vec<Option<Judgement>> = vec![None; positions.len()];
        for ply in (0..positions.len()).rev() {
            let t = Instant::now();
            let after = judged.get(ply + 1).copied().flatten();
            judged[ply] = Some(match (battle.moves().get(ply), after) {
                (Some(mv), Some(after)) => first_look(&positions[ply], mv, after.score, &budget),
                _ => judge(&positions[ply], &budget),
            });
            slowest = slowest.max(t.elapsed().as_secs_f64());
        }
        // ... then the check of each side's costliest suspects, until none is due (a suspect
        // the screen clears makes way for the next).
        let suspected = judged
            .iter()
            .filter(|j| j.is_some_and(|j| j.suspicion.is_some()))
            .count();
        let checking = Instant::now();
        let (mut screened, mut deeper) = (0, 0);
        loop {
            let suspects: Vec<Suspect> = judged
                .iter()
                .enumerate()
                .filter_map(|(ply, j)| {
                    Some(Suspect {
                        battle: 1,
                        ply,
                        side: positions[ply].side_to_move(),
                        suspicion: j.as_ref()?.suspicion?,
                    })
                })
                .collect();
            let due = due(&suspects);
            if due.is_empty() {
                break;
            }
            for s in &due {
                if let (Some(j), Some(mv)) = (judged[s.ply], battle.moves().get(s.ply)) {
                    let after = judged.get(s.ply + 1).copied().flatten();
                    let verdict = check(&positions[s.ply], j, mv, after.as_ref(), &budget);
                    screened += 1;
                    if verdict.suspicion.is_some() {
                        deeper += 1;
                    }
                    judged[s.ply] = Some(verdict);
                }
            }
        }
        let checked = format!(
            "  {suspected} moves suspected at the first look, {screened} screened, {deeper} given the deeper look, in {:.1} s",
            checking.elapsed().as_secs_f64()
        );
        let judgements: Vec<Judgement> = judged.into_iter().flatten().collect();
        let took = began.elapsed().as_secs_f64();
        let nodes: u64 = judgements.iter().map(|j| j.nodes).sum();
        let depth: u64 = judgements.iter().map(|j| j.depth as u64).sum();
        let reviews = review(battle.start(), battle.moves(), &judgements);
        println!(
            "battle {} (seed {seed}): {} plies, {} positions judged in {took:.1} s ({:.0} ms a position, slowest {:.0} ms), {:.0} nodes and depth {:.1} a position on average",
            k + 1,
            battle.moves().len(),
            positions.len(),
            took * 1000.0 / positions.len() as f64,
            slowest * 1000.0,
            nodes as f64 / positions.len() as f64,
            depth as f64 / positions.len() as f64,
        );
        println!("{checked}");
        let mut marked = Vec::new();
        for side in [Side::Dwarfs, Side::Trolls] {
            for r in mistakes(&reviews, side, MISTAKE, NAMED) {
                println!(
                    "  {side} ply {} {} lost {:.1} points; better {}",
                    r.ply,
                    r.played,
                    r.cost as f64 / 100.0,
                    r.better.map(|m| m.to_string()).unwrap_or_default()
                );
                marked.push((r.ply, side));
            }
        }
        panels.push(GraphBattle {
            title: format!("Battle {} · level {level} v level {level}", k + 1),
            scores: judgements.iter().map(|j| j.score).collect(),
            captures: capture_plies(&reviews),
            mistakes: marked,
        });
    }
    let began = Instant::now();
    let png = evaluation_graph(&panels);
    println!(
        "graph of both battles: {} bytes, drawn in {:.0} ms",
        png.len(),
        began.elapsed().as_secs_f64() * 1000.0
    );
    if let Some(path) = args.graph {
        if let Err(e) = std::fs::write(&path, &png) {
            eprintln!("thudbot-analysis: cannot write {}: {e}", path.display());
            std::process::exit(1);
        }
    }
}
