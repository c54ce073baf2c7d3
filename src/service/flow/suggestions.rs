//! Autocomplete from the legal moves of the current position: pieces that can move, where a
//! chosen piece can go, and what it can capture there.

use super::Matches;
use crate::game::{Move, Square, SquareSet};
use crate::service::flow::play::Verb;
use crate::service::{Actor, Place};

/// Discord shows at most this many choices.
pub const MAX_CHOICES: usize = 25;

/// One autocomplete choice: what the player sees and what is filled in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    pub name: String,
    pub value: String,
}

impl Choice {
    fn same(text: String) -> Choice {
        Choice {
            name: text.clone(),
            value: text,
        }
    }
}

/// Whether `mv` is something `verb` can play.
fn fits(verb: Verb, mv: &Move) -> bool {
    match verb {
        Verb::Move => !matches!(mv, Move::Hurl { .. }),
        Verb::Hurl => matches!(mv, Move::Hurl { .. }),
        Verb::Shove => matches!(mv, Move::Troll { captures, .. } if !captures.is_empty()),
    }
}

fn matches_typed(candidate: &str, typed: &str) -> bool {
    let squash = |s: &str| {
        s.chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_ascii_uppercase()
    };
    squash(candidate).starts_with(&squash(typed))
}

impl Matches {
    /// The legal moves `actor` may play here now (none if it is not their turn).
    async fn moves_for(&self, place: Place, actor: &Actor) -> Vec<Move> {
        let Ok(Some(m)) = self.store.active_match_in(place.channel).await else {
            return Vec::new();
        };
        if m.player_to_move() != Some(actor.id) {
            return Vec::new();
        }
        m.game.current_battle().position().legal_moves()
    }

    /// Squares holding a piece of the player's that can make a `verb` move.
    pub async fn suggest_from(
        &self,
        place: Place,
        actor: &Actor,
        verb: Verb,
        typed: &str,
    ) -> Vec<Choice> {
        let from: SquareSet = self
            .moves_for(place, actor)
            .await
            .iter()
            .filter(|m| fits(verb, m))
            .map(Move::from)
            .collect();
        from.iter()
            .map(|s| s.to_string())
            .filter(|s| matches_typed(s, typed))
            .take(MAX_CHOICES)
            .map(Choice::same)
            .collect()
    }

    /// Where the piece on `from` can go with a `verb` move.
    pub async fn suggest_to(
        &self,
        place: Place,
        actor: &Actor,
        verb: Verb,
        from: &str,
        typed: &str,
    ) -> Vec<Choice> {
        let Ok(from) = from.parse::<Square>() else {
            return Vec::new();
        };
        let to: SquareSet = self
            .moves_for(place, actor)
            .await
            .iter()
            .filter(|m| m.from() == from && fits(verb, m))
            .map(Move::to)
            .collect();
        to.iter()
            .map(|s| s.to_string())
            .filter(|s| matches_typed(s, typed))
            .take(MAX_CHOICES)
            .map(Choice::same)
            .collect()
    }

    /// The capture lists possible for the piece on `from` landing on `to`, largest first.
    pub async fn suggest_captures(
        &self,
        place: Place,
        actor: &Actor,
        verb: Verb,
        from: &str,
        to: &str,
        typed: &str,
    ) -> Vec<Choice> {
        let (Ok(from), Ok(to)) = (from.parse::<Square>(), to.parse::<Square>()) else {
            return Vec::new();
        };
        let mut sets: Vec<SquareSet> = self
            .moves_for(place, actor)
            .await
            .iter()
            .filter(|m| m.from() == from && m.to() == to && fits(verb, m))
            .map(Move::captured)
            .collect();
        sets.sort_by(|a, b| {
            b.len()
                .cmp(&a.len())
                .then_with(|| a.to_string().cmp(&b.to_string()))
        });
        sets.dedup();
        sets.into_iter()
            .map(|set| {
                if set.is_empty() {
                    Choice {
                        name: "none (capture nothing)".to_string(),
                        value: "none".to_string(),
                    }
                } else {
                    Choice::same(set.to_string())
                }
            })
            .filter(|c| matches_typed(&c.value, typed))
            .take(MAX_CHOICES)
            .collect()
    }

    /// Legal moves in notation that start with what the player typed, for `/thud play`.
    pub async fn suggest_notation(&self, place: Place, actor: &Actor, typed: &str) -> Vec<Choice> {
        let typed_lower = typed.trim().to_ascii_lowercase();
        self.moves_for(place, actor)
            .await
            .iter()
            .map(Move::to_string)
            .filter(|n| {
                let lower = n.to_ascii_lowercase();
                // The piece letter is optional when typing.
                lower.starts_with(&typed_lower) || lower[1..].starts_with(&typed_lower)
            })
            .take(MAX_CHOICES)
            .map(Choice::same)
            .collect()
    }
}
