//! perft: the count of the legal-move tree, checked against the figures of RULES.md §6 and the
//! shared test positions (checked there against two independent implementations).

use thud_engine::game::{divide, perft, Position, Variant, CLASSIC_START, KOOM_VALLEY_START};

/// The shared positions, copied from the rules folder so a clean clone of the project has them.
const POSITIONS: &str = include_str!("../../../../tests/data/positions.jsonl");

fn classic(fen: &str) -> Position {
    Position::from_fen(fen, Variant::Classic).expect("a valid test position")
}

/// The classic start with the trolls to move.
fn trolls_first() -> Position {
    classic(&CLASSIC_START.replace(" d", " t"))
}

#[test]
fn classic_start_depth_1_is_656() {
    assert_eq!(perft(&classic(CLASSIC_START), 1), 656);
}

#[test]
fn classic_start_depth_2_is_22_624() {
    assert_eq!(perft(&classic(CLASSIC_START), 2), 22_624);
}

#[test]
fn classic_start_depth_3_is_14_142_624() {
    assert_eq!(perft(&classic(CLASSIC_START), 3), 14_142_624);
}

#[test]
#[ignore = "takes seconds in a release build, minutes in the dev profile: cargo test --release --test perft -- --ignored"]
fn classic_start_depth_4_is_589_900_928() {
    assert_eq!(perft(&classic(CLASSIC_START), 4), 589_900_928);
}

#[test]
fn depth_0_is_the_position_itself() {
    assert_eq!(perft(&classic(CLASSIC_START), 0), 1);
}

#[test]
fn classic_start_with_trolls_first() {
    let position = trolls_first();
    assert_eq!(perft(&position, 1), 32);
    assert_eq!(perft(&position, 2), 20_360);
}

/// One line of `positions.jsonl`.
struct Shared {
    fen: String,
    perft1: u64,
    perft2: u64,
}

fn shared_positions() -> Vec<Shared> {
    POSITIONS
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let value: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            Shared {
                fen: value["fen"].as_str().expect("a fen field").to_string(),
                perft1: value["perft1"].as_u64().expect("a perft1 field"),
                perft2: value["perft2"].as_u64().expect("a perft2 field"),
            }
        })
        .collect()
}

#[test]
fn every_shared_position_at_depths_1_and_2() {
    let positions = shared_positions();
    assert_eq!(positions.len(), 8, "positions.jsonl holds eight positions");
    let mut wrong = Vec::new();
    for p in &positions {
        let position = classic(&p.fen);
        let found = (perft(&position, 1), perft(&position, 2));
        if found != (p.perft1, p.perft2) {
            wrong.push(format!(
                "{}: expected {} / {}, found {} / {}",
                p.fen, p.perft1, p.perft2, found.0, found.1
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn shared_positions_count_the_same_with_listing_and_with_counting() {
    // perft counts the last ply without listing it; listing every move must agree.
    for p in shared_positions() {
        let position = classic(&p.fen);
        let listed: u64 = position
            .legal_moves()
            .iter()
            .map(|m| position.after(m).legal_moves().len() as u64)
            .sum();
        assert_eq!(listed, p.perft2, "{}", p.fen);
    }
}

#[test]
fn divide_splits_perft_by_first_move() {
    let position = classic(CLASSIC_START);
    let split = divide(&position, 2);
    assert_eq!(split.len(), 656);
    assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), 22_624);
}

#[test]
fn original_rules_sanity() {
    // The dwarfs move the same under both rules; the trolls of the start touch no dwarf, so
    // trolls-first the counts agree too. They part once trolls can capture.
    let start = Position::from_fen(CLASSIC_START, Variant::Original).unwrap();
    assert_eq!(perft(&start, 1), 656);
    let trolls = Position::from_fen(&CLASSIC_START.replace(" d", " t"), Variant::Original).unwrap();
    assert_eq!(perft(&trolls, 1), 32);
    // Captures are the difference: a classic troll step next to n dwarfs is 2^n moves, an
    // original one 1 + n, and shoves capture all or nothing.
    let mut differ = 0;
    for p in shared_positions() {
        let classic_pos = classic(&p.fen);
        let original_pos = Position::from_fen(&p.fen, Variant::Original).unwrap();
        let (c, o) = (perft(&classic_pos, 2), perft(&original_pos, 2));
        assert!(o <= c, "{}: original {o} > classic {c}", p.fen);
        assert_eq!(
            original_pos.count_legal_moves(),
            original_pos.legal_moves().len() as u64
        );
        if o != c {
            differ += 1;
        }
    }
    assert!(differ > 0, "the original rules never changed a count");
}

#[test]
fn koom_valley_start_depths_1_to_3() {
    let start = Position::from_fen(KOOM_VALLEY_START, Variant::KoomValley).unwrap();
    assert_eq!(perft(&start, 1), 388);
    assert_eq!(perft(&start, 2), 33_974);
    // Confirmed by the independent generator in tests/koom_valley_brute.rs.
    assert_eq!(perft(&start, 3), 12_973_988);
}
