//! What the records say: a match's record and a battle's replay, as the message carrying
//! the file reads.

use crate::game::{Battle, GameRecord, Seat, Side, Variant};
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

/// The record of a stored match with its tags, which say who played and how it ended.
pub(in crate::service) fn game_record(m: &StoredMatch, names: &Names) -> GameRecord {
    let mut tags = vec![
        ("Event".to_string(), format!("thudbot match #{}", m.id)),
        ("First".to_string(), names.of(m.players[0])),
        ("Second".to_string(), names.of(m.players[1])),
        ("DaysPerMove".to_string(), m.days_per_move.to_string()),
        ("Started".to_string(), m.created_at.to_rfc3339()),
    ];
    if let Some(at) = m.finished_at {
        tags.push(("Finished".to_string(), at.to_rfc3339()));
    }
    for (i, b) in m.game.battles().iter().enumerate() {
        let number = i as u8 + 1;
        let who = format!(
            "{} (dwarfs) v {} (trolls)",
            names.of(m.player(Seat::commanding(Side::Dwarfs, number))),
            names.of(m.player(Seat::commanding(Side::Trolls, number)))
        );
        let result = b
            .result()
            .map(|r| format!(": {}", battle_result_line(m.variant, number, &r)))
            .unwrap_or_default();
        tags.push((format!("Battle{number}"), format!("{who}{result}")));
    }
    let result = match (m.state, m.game.result()) {
        (crate::store::MatchState::Aborted, _) => "aborted".to_string(),
        (_, Some(r)) => {
            let totals = format!("{}-{}", r.total(Seat::First), r.total(Seat::Second));
            match (r.winner, r.forfeited_by) {
                // A forfeit wins the match whatever the points of the battles finished.
                (Some(w), Some(loser)) => format!(
                    "{} wins by forfeit ({} forfeited)",
                    names.of(m.player(w)),
                    names.of(m.player(loser))
                ),
                (Some(w), None) => format!("{} wins {totals}", names.of(m.player(w))),
                (None, _) => format!("draw {totals}"),
            }
        }
        (_, None) => "in play".to_string(),
    };
    tags.push(("Result".to_string(), result));
    GameRecord {
        tags,
        game: m.game.clone(),
    }
}
