//! A tournament's standings, computed from its stored games and worded as text (for the
//! console, screen readers and the round announcements).

use super::refuse_tournament;
use super::Tournaments;
use crate::render::{table_png, Table};
use crate::service::error::{refuse, Result};
use crate::service::outcome::Reply;
use crate::service::refusal::Refusal;
use crate::service::refusal::TournamentRefusal as Why;
use crate::service::text::count;
use crate::service::text::Text;
use crate::service::{Names, Place};
use crate::store::{Entrant, Store, StoredTournament, TournamentGame, TournamentState, Tx, UserId};
use crate::tournament::{Cell, Format, Game, HalfPoints, Standings, TieBreaks};

/// Lines of standings a round's announcement shows (a message has room for about this many).
const ANNOUNCED_LINES: usize = 10;
/// Players on one page of the standings, in text and picture alike (a round robin, at most
/// 16, always fits on one).
const PAGE_LINES: usize = 40;

/// The standings after the stored games.
pub(super) fn standings_of(
    t: &StoredTournament,
    entrants: &[Entrant],
    games: &[TournamentGame],
) -> Standings {
    let games: Vec<Game> = games
        .iter()
        // A cancelled tournament's games left undecided were stopped, not in play.
        .filter(|g| t.state != TournamentState::Cancelled || g.outcome.is_some())
        .map(|g| Game {
            round: g.round,
            pairing: g.pairing,
            outcome: g.result(),
        })
        .collect();
    // The rounds paired so far, no empty ones to come (nor after an early end).
    let rounds = games.iter().map(|g| g.round).max().unwrap_or(0);
    Standings::compute(t.format, entrants.len(), rounds, &games)
}

/// One line a player: rank, name, points, tie-breaks, results by round.
fn line(standings: &Standings, index: usize, name: &dyn Fn(usize) -> String) -> Option<String> {
    let s = standings.lines.get(index)?;
    let tie_breaks = match s.tie_breaks {
        TieBreaks::SonnebornBerger(sb) => format!("SB {sb}"),
        TieBreaks::Swiss { buchholz, margin } => {
            format!("Buchholz {buchholz}, margin {}", signed(margin))
        }
    };
    let rank_of = |seed: usize| {
        standings
            .lines
            .iter()
            .find(|l| l.player == seed)
            .map_or(0, |l| l.rank)
    };
    let results: Vec<String> = s.cells.iter().map(|c| cell_text(*c, &rank_of)).collect();
    let points = if s.points.0 == 2 {
        "1 point".to_string()
    } else {
        format!("{} points", s.points)
    };
    Some(format!(
        "{}. {} — {points} ({tie_breaks}); by round: {}",
        s.rank,
        name(s.player),
        results.join(" ")
    ))
}

/// The margin as "+3", "−1½".
fn signed(margin: i64) -> String {
    let sign = if margin < 0 { "−" } else { "+" };
    let m = HalfPoints(margin.unsigned_abs().try_into().unwrap_or(u32::MAX));
    format!("{sign}{m}")
}

/// The standings as a table to draw: a crosstable for a round robin (each cell the row
/// player's result against the column's), a standings table for a Swiss (results by round
/// against the opponent's rank).
pub(super) fn standings_table(
    title: String,
    standings: &Standings,
    name: &dyn Fn(usize) -> String,
) -> Table {
    let rank_of = |seed: usize| {
        standings
            .lines
            .iter()
            .find(|l| l.player == seed)
            .map_or(0, |l| l.rank)
    };
    let mut headings: Vec<String> = vec!["#".into(), "Player".into()];
    let mut rows = Vec::new();
    let footer = match standings.format {
        Format::RoundRobin => {
            headings.extend((1..=standings.lines.len()).map(|i| i.to_string()));
            headings.extend(["Points".into(), "SB".into()]);
            for (i, line) in standings.lines.iter().enumerate() {
                let mut row = vec![line.rank.to_string(), name(line.player)];
                for (j, other) in standings.lines.iter().enumerate() {
                    if i == j {
                        row.push("×".into());
                        continue;
                    }
                    let met = line
                        .cells
                        .iter()
                        .find(|c| c.opponent() == Some(other.player));
                    row.push(
                        match met {
                            Some(Cell::Won { .. }) => "1",
                            Some(Cell::Drawn { .. }) => "½",
                            Some(Cell::Lost { .. }) => "0",
                            Some(Cell::ForfeitWon { .. }) => "+F",
                            Some(Cell::ForfeitLost { .. }) => "−F",
                            Some(Cell::Playing { .. }) => "…",
                            _ => "",
                        }
                        .into(),
                    );
                }
                row.push(line.points.to_string());
                row.push(match line.tie_breaks {
                    TieBreaks::SonnebornBerger(sb) => sb.to_string(),
                    TieBreaks::Swiss { buchholz, .. } => buchholz.to_string(),
                });
                rows.push(row);
            }
            legend(Format::RoundRobin, Layout::Crosstable)
        }
        Format::Swiss { .. } => {
            headings.extend(["Points".into(), "Buchholz".into(), "Margin".into()]);
            headings.extend((1..=standings.rounds).map(|r| format!("R{r}")));
            for line in &standings.lines {
                let mut row = vec![
                    line.rank.to_string(),
                    name(line.player),
                    line.points.to_string(),
                ];
                match line.tie_breaks {
                    TieBreaks::Swiss { buchholz, margin } => {
                        row.push(buchholz.to_string());
                        row.push(signed(margin));
                    }
                    TieBreaks::SonnebornBerger(sb) => {
                        row.push(sb.to_string());
                        row.push(String::new());
                    }
                }
                row.extend(line.cells.iter().map(|c| cell_text(*c, &rank_of)));
                rows.push(row);
            }
            legend(standings.format, Layout::ByRound)
        }
    };
    Table {
        title,
        headings,
        highlighted: (0..rows.len())
            .filter(|i| standings.lines[*i].rank == 1)
            .collect(),
        rows,
        footer,
    }
}

/// How standings are laid out: a round robin's crosstable, or results by round.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Layout {
    Crosstable,
    ByRound,
}

/// What every mark of the standings means, one legend for the text and the picture.
fn legend(format: Format, layout: Layout) -> String {
    let marks = match layout {
        Layout::Crosstable => "1 won, ½ drawn, 0 lost; +F won by forfeit, −F lost by forfeit (a resignation, a lost claim, a withdrawal); … in play.",
        Layout::ByRound => "+n won, =n drew, −n lost against the player ranked n; +F won by forfeit, −F lost by forfeit (a resignation, a lost claim, a withdrawal); …n in play against the player ranked n; · not paired.",
    };
    let (bye, ties) = match format {
        Format::RoundRobin => (
            " bye: sat the round out (no points).",
            " Ties: Sonneborn–Berger (SB).",
        ),
        Format::Swiss { .. } => (" bye: a full point.", " Ties: Buchholz, then margin."),
    };
    let bye = if layout == Layout::Crosstable {
        ""
    } else {
        bye
    };
    format!("{marks}{bye}{ties}")
}

/// The standings' lines on page `page` (from 1) of [`PAGE_LINES`] each, with the number of
/// pages; the page is clamped to the last.
fn page_of(standings: &Standings, page: u32) -> (Standings, u32, u32) {
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

/// A Swiss cell: "+4", "=2", "−7", "+F", "bye", "…3", "·".
fn cell_text(c: Cell, rank_of: &dyn Fn(usize) -> usize) -> String {
    match c {
        Cell::Won { opponent, .. } => format!("+{}", rank_of(opponent)),
        Cell::Drawn { opponent } => format!("={}", rank_of(opponent)),
        Cell::Lost { opponent, .. } => format!("−{}", rank_of(opponent)),
        Cell::ForfeitWon { .. } => "+F".into(),
        Cell::ForfeitLost { .. } => "−F".into(),
        Cell::Bye => "bye".into(),
        Cell::Playing { opponent } => format!("…{}", rank_of(opponent)),
        Cell::Absent => "·".into(),
    }
}

/// The standings as lines of text, at most `limit` players.
pub(super) async fn standings_lines(
    tx: &mut Tx,
    entrants: &[Entrant],
    standings: &Standings,
    limit: usize,
) -> Result<Text> {
    let users: Vec<UserId> = entrants.iter().map(|e| e.user).collect();
    let names = Names(tx.names(&users).await?);
    let name = |seed: usize| match entrants.get(seed) {
        Some(e) if e.withdrawn => format!("{} (withdrawn)", names.of(e.user)),
        Some(e) => names.of(e.user),
        None => format!("seed {seed}"),
    };
    let mut text = Text::new();
    for i in 0..standings.lines.len().min(limit) {
        if let Some(l) = line(standings, i, &name) {
            if i > 0 {
                text = text.line();
            }
            text = text.plain(l);
        }
    }
    if standings.lines.len() > limit {
        text = text
            .line()
            .plain(format!("… and {} more: ", standings.lines.len() - limit))
            .code("/thud tournament standings page:2")
            .plain(".");
    }
    Ok(text)
}

/// The standings picture titled `title`, drawn on a blocking thread.
async fn standings_png(
    title: String,
    entrants: &[Entrant],
    standings: &Standings,
    names: &Names,
) -> Result<Vec<u8>> {
    let name = |seed: usize| match entrants.get(seed) {
        Some(e) if e.withdrawn => format!("{} (withdrawn)", names.of(e.user)),
        Some(e) => names.of(e.user),
        None => format!("seed {seed}"),
    };
    let table: Table = standings_table(title, standings, &name);
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
    let text = standings_lines(&mut tx, &entrants, &standings, ANNOUNCED_LINES).await?;
    let users: Vec<UserId> = entrants.iter().map(|e| e.user).collect();
    let names = Names(tx.names(&users).await?);
    tx.rollback().await?;
    let when = match t.state {
        TournamentState::Finished if round >= t.current_round => "final standings".to_string(),
        _ => format!("after round {round}"),
    };
    // The picture shows the first page; the rest are a command away.
    let (first, _, pages) = page_of(&standings, 1);
    let top = match pages {
        1 => String::new(),
        _ => format!(", the first {PAGE_LINES} of {}", standings.lines.len()),
    };
    let title = format!("{} — {when}{top}", t.name);
    let png = standings_png(title, &entrants, &first, &names).await?;
    let file = format!("tournament-{}-standings.png", t.id);
    Ok(Some((text, (file, png))))
}

impl Tournaments {
    /// Page `page` (from 1) of the standings of the latest tournament of this channel, as
    /// text and a picture.
    pub async fn tournament_standings(&self, place: Place, page: u32) -> Result<Reply> {
        let here = match self.store.latest_tournament_in(place.channel).await? {
            Some(t) => Some(t),
            // In a game's own thread: the tournament the game is of.
            None => match self.store.tournament_of_game_in(place.channel).await? {
                Some(id) => self.store.tournament(id).await?,
                None => None,
            },
        };
        let Some(t) = here else {
            return refuse_tournament(Why::NoTournamentHere);
        };
        let mut tx = self.store.begin().await?;
        let entrants = tx.entrants(t.id).await?;
        let games = tx.games(t.id).await?;
        let all = standings_of(&t, &entrants, &games);
        let pages = all.lines.len().div_ceil(PAGE_LINES).max(1) as u32;
        if page > pages {
            return refuse(Refusal::Input(format!(
                "The standings of {} have {}; there is no page {page}.",
                t.name,
                count(pages, "page", "pages")
            )));
        }
        let (standings, page, pages) = page_of(&all, page);
        let state = match t.state {
            TournamentState::Open => format!("taking players ({} so far)", entrants.len()),
            TournamentState::Running => format!(
                "round {} of {}",
                t.current_round,
                t.rounds.unwrap_or(t.current_round)
            ),
            TournamentState::Finished => "finished".into(),
            TournamentState::Cancelled => "cancelled".into(),
        };
        let body = standings_lines(&mut tx, &entrants, &standings, PAGE_LINES).await?;
        let users: Vec<UserId> = entrants.iter().map(|e| e.user).collect();
        let names = Names(tx.names(&users).await?);
        tx.rollback().await?;
        let paged = match pages {
            1 => String::new(),
            _ => format!(", page {page} of {pages}"),
        };
        let title = format!("{} — {state}{paged}", t.name);
        let png = standings_png(title, &entrants, &standings, &names).await?;
        let mut text = Text::new()
            .strong(format!("{} — standings, {state}{paged}", t.name))
            .line()
            .then(body)
            .line()
            .plain(legend(t.format, Layout::ByRound));
        if page < pages {
            text = text
                .line()
                .plain("More: ")
                .code(format!("/thud tournament standings page:{}", page + 1))
                .plain(".");
        }
        Ok(Reply::public(text).attach(format!("tournament-{}-standings.png", t.id), png))
    }
}
