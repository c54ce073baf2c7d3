//! Positions, squares and moves written the way RULES.md writes them, shared by the
//! `rules_*` tests (each uses some of them).
#![allow(dead_code)]

use std::collections::BTreeSet;

use thud_engine::game::{
    Battle, BattleRecord, Match, MatchRecord, MoveText, Piece, Position, Square, Variant,
};

pub fn classic(fen: &str) -> Position {
    Position::from_fen(fen, Variant::Classic).expect("a valid classic test position")
}

pub fn original(fen: &str) -> Position {
    Position::from_fen(fen, Variant::Original).expect("a valid original test position")
}

pub fn koom_valley(fen: &str) -> Position {
    Position::from_fen(fen, Variant::KoomValley).expect("a valid Koom Valley test position")
}

pub fn sq(name: &str) -> Square {
    name.parse().expect("a square name")
}

pub fn squares(names: &[&str]) -> BTreeSet<Square> {
    names.iter().map(|n| sq(n)).collect()
}

/// Every legal move in canonical notation.
pub fn legal(position: &Position) -> BTreeSet<String> {
    position
        .legal_moves()
        .iter()
        .map(ToString::to_string)
        .collect()
}

/// The legal moves starting on `from`, in notation.
pub fn legal_from(position: &Position, from: &str) -> BTreeSet<String> {
    let from = sq(from);
    position
        .legal_moves()
        .iter()
        .filter(|m| m.from() == from)
        .map(ToString::to_string)
        .collect()
}

/// The legal moves from `from` to `to` (several when they differ in captures).
pub fn legal_between(position: &Position, from: &str, to: &str) -> BTreeSet<String> {
    let (from, to) = (sq(from), sq(to));
    position
        .legal_moves()
        .iter()
        .filter(|m| m.from() == from && m.to() == to)
        .map(ToString::to_string)
        .collect()
}

pub fn set(texts: &[&str]) -> BTreeSet<String> {
    texts.iter().map(|t| t.to_string()).collect()
}

/// The position after the move `text`, which must be legal.
pub fn play(position: &Position, text: &str) -> Position {
    let parsed: MoveText = text.parse().expect("well-formed move text");
    let mv = position
        .resolve(&parsed)
        .unwrap_or_else(|e| panic!("{text} should be legal in {position}: {e}"));
    position.after(&mv)
}

/// Why the move `text` is refused; it must be refused.
pub fn refusal(position: &Position, text: &str) -> String {
    let parsed: MoveText = text.parse().expect("well-formed move text");
    match position.resolve(&parsed) {
        Ok(mv) => panic!("{text} should be refused in {position}, but it is {mv}"),
        Err(e) => e.to_string(),
    }
}

pub fn is_legal(position: &Position, text: &str) -> bool {
    let parsed: MoveText = text.parse().expect("well-formed move text");
    position.resolve(&parsed).is_ok()
}

pub fn piece(position: &Position, name: &str) -> Option<Piece> {
    position.piece_at(sq(name))
}

/// A match whose battles start from the given positions and play the given moves; a battle
/// not over after its moves was ended by agreement.
pub fn agreed_match(variant: Variant, battles: &[(&str, &[&str])]) -> Match {
    let record = MatchRecord {
        variant,
        battles: battles
            .iter()
            .map(|(start, moves)| BattleRecord {
                variant,
                start: start.to_string(),
                moves: moves.iter().map(|m| m.to_string()).collect(),
                agreed: Position::from_fen(start, variant)
                    .map(|p| {
                        let mut b = Battle::from_position(p);
                        for m in moves.iter() {
                            b.play(&m.parse().unwrap()).unwrap();
                        }
                        !b.is_over()
                    })
                    .unwrap(),
            })
            .collect(),
        forfeited_by: None,
    };
    Match::try_from(record).expect("a readable match record")
}
