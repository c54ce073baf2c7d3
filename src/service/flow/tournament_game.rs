//! A tournament game's result, read from the match played for it: written in the transaction
//! that finishes the match, below the match flow, so the flow never calls up into tournaments.

use crate::service::error::Result;
use crate::store::{Finish, GameOutcome, MatchId, MatchState, Tx};

/// Records the result of the tournament game match `id` was played for, in the
/// transaction that finished it, so the standings count it at once and nothing later
/// (a withdrawal) can decide the game again.
pub(in crate::service) async fn record_game_result(tx: &mut Tx, id: MatchId) -> Result<()> {
    let Some(game) = tx.open_game_of_match(id).await? else {
        return Ok(());
    };
    let Some(m) = tx.lock_match(id).await? else {
        return Ok(());
    };
    if let Some((outcome, margin)) = game_result(&m) {
        tx.decide_game(game.id, outcome, margin).await?;
    }
    Ok(())
}

/// The game's result from its finished match `m` (`None` while it is in play), with the
/// margin in half points.
pub(in crate::service) fn game_result(m: &crate::store::StoredMatch) -> Option<(GameOutcome, u32)> {
    Some(match (m.state, m.winner) {
        (MatchState::Active, _) => return None,
        // A moderator's abort is no result for either player.
        (MatchState::Aborted, _) | (MatchState::Finished, None) => (GameOutcome::Drawn, 0),
        // Played to the end: won by the battles' margin.
        (MatchState::Finished, Some(w)) if m.finish == Some(Finish::Completed) => {
            let margin = m.game.result().map_or(0, |r| r.margin.halves());
            if m.players[0] == w {
                (GameOutcome::First, margin)
            } else {
                (GameOutcome::Second, margin)
            }
        }
        // A resignation, a lost claim or a withdrawal: won by forfeit, margin 0, as the match's
        // own result says.
        (MatchState::Finished, Some(w)) if m.players[0] == w => (GameOutcome::FirstForfeit, 0),
        (MatchState::Finished, Some(_)) => (GameOutcome::SecondForfeit, 0),
    })
}
