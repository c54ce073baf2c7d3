//! Times perft from the classic start at one depth, single-threaded, best of several runs:
//! the measurement behind the README's "Engine figures".
//!
//! `cargo run --release --example perft_timing -- [DEPTH] [RUNS]` (defaults: 4 and 3).

use std::time::{Duration, Instant};

use thudbot::game::{perft, Variant};

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(4);
    let runs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(3).max(1);
    let start = Variant::Classic.start();
    let mut times: Vec<Duration> = Vec::with_capacity(runs);
    let mut nodes = 0;
    for run in 1..=runs {
        let began = Instant::now();
        nodes = perft(&start, depth);
        let took = began.elapsed();
        println!(
            "run {run}: perft({depth}) = {nodes} in {:.3} s",
            took.as_secs_f64()
        );
        times.push(took);
    }
    times.sort();
    let best = times[0];
    let median = times[times.len() / 2];
    println!(
        "best {:.3} s, median {:.3} s, {:.0} million leaves/s (best)",
        best.as_secs_f64(),
        median.as_secs_f64(),
        nodes as f64 / best.as_secs_f64() / 1e6
    );
}
