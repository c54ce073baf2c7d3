//! The computer's measuring tools: the strength benchmark against another engine, and the
//! tuning tool fitting weights to self-play and to the benchmark's traces.

use std::process::Command;

use thud_engine::game::{Position, Variant};

/// `thudbot-strength --external` plays another engine through the line protocol; here the
/// engine is this project's own level 1 behind it (`thudbot-engine`).
#[test]
fn the_strength_benchmark_plays_an_external_engine_and_checks_its_moves() {
    let engine = format!("{} --level 1", env!("CARGO_BIN_EXE_thudbot-engine"));
    let run = |engine: &str| {
        Command::new(env!("CARGO_BIN_EXE_thudbot-strength"))
            .args(["--pairs", "1", "--pairings", "1-ext", "--ply-cap", "6"])
            .args(["--time-scale", "0.05", "--external", engine])
            .output()
            .expect("thudbot-strength runs")
    };
    let played = run(&engine);
    assert!(played.status.success(), "{played:?}");
    let table = String::from_utf8_lossy(&played.stdout);
    assert!(table.contains("| level 1 vs external | "), "{table}");
    // An answer that is not a legal move stops the run.
    let cheat = run("while read -r line; do echo dA6-A5; done");
    assert_eq!(cheat.status.code(), Some(2), "{cheat:?}");
    assert!(String::from_utf8_lossy(&cheat.stderr).contains("external engine"));
}

/// `thudbot-tune` writes quiet self-play positions with their results and fits weights to them.
#[test]
fn the_tuning_tool_plays_and_fits() {
    let played = Command::new(env!("CARGO_BIN_EXE_thudbot-tune"))
        .args([
            "selfplay",
            "--games",
            "2",
            "--nodes",
            "300",
            "--ply-cap",
            "12",
        ])
        .output()
        .expect("thudbot-tune runs");
    assert!(played.status.success(), "{played:?}");
    let data = String::from_utf8_lossy(&played.stdout).to_string();
    for line in data.lines() {
        let columns: Vec<&str> = line.split('\t').collect();
        let [fen, result, later] = columns[..] else {
            panic!("FEN, final result and result a horizon on: {line}");
        };
        let position = Position::from_fen(fen, Variant::Classic).expect("a valid position");
        assert!(
            position
                .legal_moves()
                .iter()
                .all(|m| m.captured().is_empty()),
            "only quiet positions: {fen}"
        );
        assert!(
            result.parse::<i32>().is_ok() && later.parse::<i32>().is_ok(),
            "{line}"
        );
    }
    let path = std::env::temp_dir().join(format!("thudbot-tune-{}.tsv", std::process::id()));
    std::fs::write(&path, &data).expect("a temporary file");
    let fit = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_thudbot-tune"))
            .arg("fit")
            .arg(&path)
            .args(extra)
            .output()
            .expect("thudbot-tune runs")
    };
    let fitted = fit(&[]);
    // A ridge this heavy leaves every weight where the prior put it: here the trolls' weights
    // levels 4 and 5 play.
    let pulled = fit(&["--from-played", "trolls", "--ridge", "1000000"]);
    let _ = std::fs::remove_file(&path);
    assert!(fitted.status.success(), "{fitted:?}");
    assert!(String::from_utf8_lossy(&fitted.stdout).contains("pub const TUNED: Weights"));
    assert!(pulled.status.success(), "{pulled:?}");
    let expected = format!(
        "pub const TUNED: Weights = Weights({:?});",
        thud_engine::computer::features::Weights::AS_TROLLS.0
    );
    assert!(
        String::from_utf8_lossy(&pulled.stdout).contains(&expected),
        "{pulled:?}"
    );
}

/// `thudbot-tune trace` reads the benchmark's trace of a battle against another player and
/// writes its positions, chosen by who played which side, with the battle's result.
#[test]
fn the_tuning_tool_reads_the_benchmarks_trace() {
    let played = Command::new(env!("CARGO_BIN_EXE_thudbot-strength"))
        .args(["--pairs", "1", "--pairings", "2-1", "--ply-cap", "8"])
        .args(["--time-scale", "0.05", "--trace", "--show"])
        .output()
        .expect("thudbot-strength runs");
    assert!(played.status.success(), "{played:?}");
    let path = std::env::temp_dir().join(format!("thudbot-trace-{}.txt", std::process::id()));
    std::fs::write(&path, &played.stderr).expect("a temporary file");
    let read = |side: &str, player: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_thudbot-tune"))
            .arg("trace")
            .arg(&path)
            .args([side, player, "--horizon", "3"])
            .output()
            .expect("thudbot-tune runs");
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let as_dwarfs = read("--dwarfs", "level 2");
    let as_trolls = read("--trolls", "level 2");
    let _ = std::fs::remove_file(&path);
    // Each battle's eight plies give the positions after the first seven.
    for (data, first) in [
        (&as_dwarfs, "level 2 (dwarfs)"),
        (&as_trolls, "level 1 (dwarfs)"),
    ] {
        let stderr = String::from_utf8_lossy(&played.stderr);
        let shown = stderr
            .lines()
            .find(|l| l.trim().starts_with(first))
            .expect("the battle's end is shown");
        let result = shown.split(": ").nth(1).and_then(|r| r.split(' ').next());
        let rows: Vec<Vec<&str>> = data.lines().map(|l| l.split('\t').collect()).collect();
        assert_eq!(rows.len(), 7, "{data}");
        let material = |fen: &str| {
            let p = Position::from_fen(fen, Variant::Classic).expect("a position");
            p.dwarfs().len() as i32 - 4 * p.trolls().len() as i32
        };
        for (ply, row) in rows.iter().enumerate() {
            assert_eq!(
                Some(row[1]),
                result.map(|r| r.trim_start_matches('+')),
                "{shown}"
            );
            // The margin three plies on, where the trace holds it.
            if let Some(later) = rows.get(ply + 3) {
                assert_eq!(row[2], material(later[0]).to_string(), "{data}");
            }
        }
    }
}
