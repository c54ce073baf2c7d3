//! A tournament's standings, computed from its stored games, worded as text (for the console,
//! screen readers and the round announcements) and drawn: below the tournaments and the
//! outbox, which both show them.

use crate::render::{table_png, Table};
use crate::service::error::Result;
use crate::service::text::Text;
use crate::service::voice;
use crate::service::Names;
use crate::store::{Entrant, Store, StoredTournament, TournamentGame, TournamentState, UserId};
use crate::tournament::{Game, Standings};

/// Lines of standings a round's announcement shows (a message has room for about this many).
pub(in crate::service) const ANNOUNCED_LINES: usize = 10;
/// Players on one page of the standings, in text and picture alike (a round robin, at most
/// 16, always fits on one).
pub(in crate::service) const PAGE_LINES: usize = 40;

/// The standings after the stored games.
pub(in crate::service) fn standings_of(
    t: &StoredTournament,
    entrants: &[Entrant],
    games: &[TournamentGame],
) -> Standings {
    let games: Vec<Game> = games
        .iter()
        .map(|g| Game {
            round: g.round,
            pairing: g.pairing,
            outcome: g.result(),
        })
        .collect();
    // The rounds paired so far, no empty ones to come (nor after an early end).
    let rounds = games.iter().map(|g| g.round).max().unwrap_or(0);
    let mut standings = Standings::compute(t.format, entrants.len(), rounds, &games);
    // A cancelled tournament's games left undecided were stopped, not in play.
    if t.state == TournamentState::Cancelled {
        standings.stop_undecided();
    }
    standings
}

/// The standings' lines on page `page` (from 1) of [`PAGE_LINES`] each, with the number of
/// pages; the page is clamped to the last.
pub(in crate::service) fn page_of(standings: &Standings, page: u32) -> (Standings, u32, u32) {
    let pages = standings.lines.len().div_ceil(PAGE_LINES).max(1) as u32;
    let page = page.clamp(1, pages);
    let from = (page as usize - 1) * PAGE_LINES;
    let lines = standings
        .lines
        .iter()
        .skip(from)
        .take(PAGE_LINES)
        .cloned()
        .collect();
    let shown = Standings {
        format: standings.format,
        rounds: standings.rounds,
        lines,
    };
    (shown, page, pages)
}

/// The standings picture titled `title`, drawn on a blocking thread.
pub(in crate::service) async fn standings_png(
    title: String,
    entrants: &[Entrant],
    standings: &Standings,
    names: &Names,
) -> Result<Vec<u8>> {
    let name = |seed: usize| voice::entrant_name(entrants, names, seed);
    let table: Table = voice::standings_table(title, standings, &name);
    tokio::task::spawn_blocking(move || table_png(&table))
        .await
        .map_err(|e| crate::service::ServiceError::System(format!("drawing standings: {e}")))
}

/// The standings of tournament `id` after round `round`, for the announcement of its end
/// (worded when it is said or sent, the same whenever that is): as text, and as a
/// picture. `None` when there is no such tournament.
pub(in crate::service) async fn standings_after(
    store: &Store,
    id: crate::store::TournamentId,
    round: u32,
) -> Result<Option<(Text, (String, Vec<u8>))>> {
    let Some(t) = store.tournament(id).await? else {
        return Ok(None);
    };
    let mut tx = store.begin().await?;
    let entrants = tx.entrants(t.id).await?;
    let mut games = tx.games(t.id).await?;
    games.retain(|g| g.round <= round);
    let standings = standings_of(&t, &entrants, &games);
    let users: Vec<UserId> = entrants.iter().map(|e| e.user).collect();
    let names = Names(tx.names(&users).await?);
    let text = voice::standings_text(&entrants, &names, &standings, ANNOUNCED_LINES);
    tx.rollback().await?;
    // The picture shows the first page; the rest are a command away.
    let (first, _, _) = page_of(&standings, 1);
    let title =
        voice::announced_standings_title(&t, round, first.lines.len(), standings.lines.len());
    let png = standings_png(title, &entrants, &first, &names).await?;
    let file = format!("tournament-{}-standings.png", t.id);
    Ok(Some((text, (file, png))))
}

#[cfg(test)]
#[path = "standings_marks_tests.rs"]
mod marks_tests;
