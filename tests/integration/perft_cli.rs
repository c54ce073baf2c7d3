//! The `thudbot perft` command: one line a depth, the variant it is told, and clear refusals
//! (the counts themselves are the engine's tests, crates/engine/tests/rules/perft.rs).

use std::process::Command;

use thudbot::game::{CLASSIC_START, KOOM_VALLEY_START};

fn thudbot(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_thudbot"))
        .args(args)
        .output()
        .expect("the thudbot binary runs")
}

#[test]
fn cli_prints_one_line_per_depth() {
    let out = thudbot(&["perft", CLASSIC_START, "3"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "perft 1: 656\nperft 2: 22624\nperft 3: 14142624\n"
    );
}

#[test]
fn cli_counts_under_the_variant_named() {
    let out = thudbot(&["perft", KOOM_VALLEY_START, "2", "--variant", "koom-valley"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "perft 1: 388\nperft 2: 33974\n"
    );
    let out = thudbot(&["perft", "--variant", "original", CLASSIC_START, "1"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "perft 1: 656\n");
}

#[test]
fn cli_refuses_a_bad_position_with_exit_code_2() {
    let bad_row = CLASSIC_START.replacen("dd1dd", "dd2dd", 1);
    let out = thudbot(&["perft", &bad_row, "2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "nothing counted: {out:?}");
    let message = String::from_utf8_lossy(&out.stderr);
    assert!(
        message.contains("row 15 should hold 5 squares but holds 6"),
        "{message}"
    );
    assert!(!message.contains("panicked"), "{message}");

    let out = thudbot(&["perft", "not a position", "1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad position"));
}

#[test]
fn cli_refuses_an_unknown_variant_with_exit_code_2() {
    let out = thudbot(&["perft", CLASSIC_START, "1", "--variant", "chess"]);
    assert_eq!(out.status.code(), Some(2));
    let message = String::from_utf8_lossy(&out.stderr);
    assert!(message.contains("`chess` is not a variant"), "{message}");
}

#[test]
fn cli_counts_under_classic_rules_unless_told_otherwise() {
    // A Koom Valley board is a valid classic position too; counting it under the wrong rules
    // gives different figures, which is why --variant matters.
    let out = thudbot(&["perft", KOOM_VALLEY_START, "1"]);
    assert!(out.status.success());
    assert_ne!(String::from_utf8_lossy(&out.stdout), "perft 1: 388\n");
}
