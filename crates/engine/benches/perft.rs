//! Engine speed: perft from the starts, and listing and counting legal moves in the shared
//! positions. Run with `cargo bench --bench perft`; perft(4) from the classic start takes
//! seconds, too long for sampling, so it is timed by `examples/perft_timing.rs` instead.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use thud_engine::game::{perft, Position, Variant, CLASSIC_START, KOOM_VALLEY_START};

/// The shared classic positions (one JSON object a line, with a `fen` field).
const POSITIONS: &str = include_str!("../../../tests/data/positions.jsonl");

fn shared_positions() -> Vec<Position> {
    POSITIONS
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let value: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            let fen = value["fen"].as_str().expect("a fen field");
            Position::from_fen(fen, Variant::Classic).expect("a valid position")
        })
        .collect()
}

fn perft_from_the_starts(c: &mut Criterion) {
    let classic = Variant::Classic.start();
    assert_eq!(classic.to_string(), CLASSIC_START);
    let koom_valley = Variant::KoomValley.start();
    assert_eq!(koom_valley.to_string(), KOOM_VALLEY_START);
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    group.bench_function("classic start depth 3 (14,142,624)", |b| {
        b.iter(|| perft(black_box(&classic), 3))
    });
    group.bench_function("koom-valley start depth 3 (12,973,988)", |b| {
        b.iter(|| perft(black_box(&koom_valley), 3))
    });
    group.finish();
}

fn moves_in_shared_positions(c: &mut Criterion) {
    let positions = shared_positions();
    let mut group = c.benchmark_group("legal moves");
    for (i, position) in positions.iter().enumerate() {
        let side = position.side_to_move();
        group.bench_function(format!("position {} ({side}) legal_moves", i + 1), |b| {
            b.iter(|| black_box(position).legal_moves())
        });
        group.bench_function(
            format!("position {} ({side}) count_legal_moves", i + 1),
            |b| b.iter(|| black_box(position).count_legal_moves()),
        );
    }
    group.finish();
}

/// Loading a match replays its moves, so a stored game's length is paid on every move.
fn replaying_a_long_battle(c: &mut Criterion) {
    use thud_engine::game::{Battle, BattleRecord, Variant};
    // 300 quiet moves chosen by a fixed pseudo-random sequence.
    let mut battle = Battle::new(Variant::Classic);
    let mut seed = 7u64;
    while battle.moves().len() < 300 && !battle.is_over() {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let quiet: Vec<_> = battle
            .position()
            .legal_moves()
            .into_iter()
            .filter(|m| m.captured().is_empty())
            .collect();
        let mv = quiet[(seed >> 33) as usize % quiet.len()];
        battle.play_move(mv).expect("a listed move is legal");
    }
    let record = BattleRecord::from(battle);
    c.bench_function("replay a 300-move battle from its record", |b| {
        b.iter(|| Battle::try_from(black_box(record.clone())).expect("the record replays"))
    });
}

criterion_group!(
    benches,
    perft_from_the_starts,
    moves_in_shared_positions,
    replaying_a_long_battle
);
criterion_main!(benches);
