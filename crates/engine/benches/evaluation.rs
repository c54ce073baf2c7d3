//! The evaluation's counts, most of a search's time: every position of 40 seeded random
//! classic battles of up to 150 plies, counted once per iteration. Run with
//! `cargo bench --bench evaluation` (docs/analysis.md, "Eighth round").

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use thud_engine::computer::features::classic_features;
use thud_engine::computer::Chance;
use thud_engine::game::{Position, Variant};

fn random_battles() -> Vec<Position> {
    let mut positions = Vec::new();
    for seed in 0..40 {
        let mut chance = Chance::new(seed);
        let mut pos = Variant::Classic.start();
        for _ in 0..150 {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.dwarfs().is_empty() || pos.trolls().is_empty() {
                break;
            }
            pos = pos.after(&moves[chance.below(moves.len())]);
            positions.push(pos.clone());
        }
    }
    positions
}

fn counts_of_random_battles(c: &mut Criterion) {
    let positions = random_battles();
    c.bench_function(
        &format!("classic_features, {} positions", positions.len()),
        |b| {
            b.iter(|| {
                for pos in &positions {
                    black_box(classic_features(black_box(pos)));
                }
            })
        },
    );
}

criterion_group!(benches, counts_of_random_battles);
criterion_main!(benches);
