//! Swiss pairing of 200 players (target: a round under a second): the first round, where
//! everyone has the same score, and round 8 of 9 after random results, where rematches are
//! ruled out and the score groups are many. Run with `cargo bench --bench tournament`.

use criterion::{criterion_group, criterion_main, Criterion};
use thud_engine::tournament::{pair_swiss, Contender, HalfPoints, Pairing};

/// A deterministic pseudo-random sequence, so every run pairs the same field.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % below
    }
}

fn field(players: usize) -> Vec<Contender> {
    (0..players)
        .map(|player| Contender {
            player,
            score: HalfPoints(0),
            had_bye: false,
            opponents: Vec::new(),
        })
        .collect()
}

/// The field after `rounds` rounds paired by the Swiss with random results.
fn after(players: usize, rounds: u32) -> Vec<Contender> {
    let mut field = field(players);
    let mut rng = Lcg(22);
    for _ in 0..rounds {
        let pairings = pair_swiss(&field).expect("a young Swiss pairs");
        for pairing in pairings {
            match pairing {
                Pairing::Match { first, second } => {
                    let (a, b) = match rng.next(5) {
                        0 => (1, 1),
                        1 | 2 => (2, 0),
                        _ => (0, 2),
                    };
                    field[first].score.0 += a;
                    field[second].score.0 += b;
                    field[first].opponents.push(second);
                    field[second].opponents.push(first);
                }
                Pairing::Bye(p) => {
                    field[p].score.0 += 2;
                    field[p].had_bye = true;
                }
            }
        }
    }
    field
}

fn bench_swiss(c: &mut Criterion) {
    let mut group = c.benchmark_group("swiss");
    group.sample_size(10);
    let first = field(200);
    group.bench_function("200 players, round 1", |b| {
        b.iter(|| pair_swiss(&first).expect("pairs"))
    });
    let late = after(200, 7);
    group.bench_function("200 players, round 8", |b| {
        b.iter(|| pair_swiss(&late).expect("pairs"))
    });
    let odd = after(199, 7);
    group.bench_function("199 players, round 8", |b| {
        b.iter(|| pair_swiss(&odd).expect("pairs"))
    });
    group.finish();
}

criterion_group!(benches, bench_swiss);
criterion_main!(benches);
