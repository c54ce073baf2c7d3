//! What the records say: a match's record and a battle's replay, as the message carrying
//! the file reads.

use crate::game::{Battle, Variant};
use crate::render::ReplaySpan;
use crate::service::text::{count, Text};
use crate::service::Names;
use crate::store::{MatchId, StoredMatch};

use super::battle_result_line;

/// The message carrying match `m`'s record of `moves` moves.
pub(in crate::service) fn record_caption(m: &StoredMatch, names: &Names, moves: usize) -> Text {
    Text::from("Record of ")
        .strong(format!("match #{}", m.id))
        .plain(format!(
            " ({}, {}): {} v {}.",
            m.variant.title(),
            count(moves as i64, "move", "moves"),
            names.of(m.players[0]),
            names.of(m.players[1])
        ))
}

/// Battle `number` as its replay's last frame says it: its result, or its moves so far.
pub(in crate::service) fn replay_status(variant: Variant, number: u8, battle: &Battle) -> String {
    battle
        .result()
        .map(|r| battle_result_line(variant, number, &r))
        .unwrap_or_else(|| {
            format!(
                "{} so far",
                count(battle.moves().len() as i64, "move", "moves")
            )
        })
}

/// The message carrying battle `number`'s replay: the moves it shows when the whole battle
/// would be larger than `limit` bytes.
pub(in crate::service) fn replay_caption(
    match_id: MatchId,
    number: u8,
    span: &ReplaySpan,
    limit: usize,
) -> Text {
    if span.is_whole() {
        Text::prose(&format!(
            "Replay of battle {number} of **match #{}**: {}.",
            match_id,
            count(span.total_moves as i64, "move", "moves"),
        ))
    } else {
        Text::prose(&format!(
            "Replay of battle {number} of **match #{}**: moves {} to {} of {} (the whole battle would be larger than the {} MiB a file may have here).",
            match_id,
            span.first_move,
            span.last_move,
            span.total_moves,
            limit / (1024 * 1024)
        ))
    }
}
