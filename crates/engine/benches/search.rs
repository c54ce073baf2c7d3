//! Level 5's search to a fixed depth: the same work each run, so a change to the search's
//! speed shows as time (a change to its order shows as positions too, printed once). The
//! positions come from battles of level 3 against itself after four seeded random plies:
//! openings and middle games as they are played, not the scatter of random moves. Run with
//! `cargo bench --bench search` (docs/computer.md, "Speed of the search").

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use thud_engine::computer::{think, Chance, Level};
use thud_engine::game::{Position, Variant};

/// Positions at plies 12, 24 and 36 of three battles: both sides to move, nine in all.
fn played_positions() -> Vec<Position> {
    let mut positions = Vec::new();
    for seed in 1..=3 {
        let mut chance = Chance::new(seed);
        let mut pos = Variant::Classic.start();
        for ply in 1..=36 {
            let mv = if ply <= 4 {
                let moves = pos.legal_moves();
                moves[chance.below(moves.len())]
            } else {
                let settings = Level::DEFAULT.settings(Variant::Classic);
                match think(&pos, &settings, seed) {
                    Some(thought) => thought.best,
                    None => break,
                }
            };
            pos = pos.after(&mv);
            if ply % 12 == 0 {
                positions.push(pos.clone());
            }
        }
    }
    positions
}

fn level_5_to_depth(c: &mut Criterion, depth: u8) {
    let positions = played_positions();
    let mut settings = Level::STRONGEST.settings(Variant::Classic);
    settings.depth = depth;
    settings.time = Duration::from_secs(3600);
    let nodes: u64 = positions
        .iter()
        .filter_map(|pos| think(pos, &settings, 1))
        .map(|thought| thought.nodes)
        .sum();
    println!(
        "level 5 to depth {depth}: {nodes} positions searched over {} positions",
        positions.len()
    );
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    group.bench_function(
        format!("level 5 to depth {depth}, {} positions", positions.len()),
        |b| {
            b.iter(|| {
                for pos in &positions {
                    black_box(think(black_box(pos), &settings, 1));
                }
            })
        },
    );
    group.finish();
}

fn search(c: &mut Criterion) {
    level_5_to_depth(c, 4);
}

criterion_group!(benches, search);
criterion_main!(benches);
