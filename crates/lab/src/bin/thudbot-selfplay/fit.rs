//! What `fit`, `fit-shares` and `measure` do with the judged positions: read them, fit the
//! calibration's knots to them, and measure the calibration and the mistakes it makes.

use std::path::PathBuf;

use thud_engine::computer::calibration::{forecast, knot_weights, Knot, KNOTS};
use thud_engine::game::Side;

use super::Row;

pub(super) fn read_rows(paths: &[PathBuf]) -> Result<Vec<Row>, String> {
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

pub(super) fn parse_knots(text: &str) -> Result<[Knot; 5], String> {
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

pub(super) fn fit(rows: &[Row]) {
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

pub(super) fn measure(rows: &[Row], knots: &[Knot; 5], opening: usize) {
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
