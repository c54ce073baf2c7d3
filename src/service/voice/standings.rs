//! What a tournament's standings say: a line a player, the crosstable or the table by round
//! for the picture, and one legend for both. Pure: the tournament loads the standings and
//! the names.

use crate::render::Table;
use crate::service::text::Text;
use crate::service::Names;
use crate::store::{Entrant, StoredTournament, TournamentState};
use crate::tournament::{Cell, Format, HalfPoints, Standings, TieBreaks};

/// Entrant `seed` as the standings name them: withdrawn players are marked.
pub(in crate::service) fn entrant_name(entrants: &[Entrant], names: &Names, seed: usize) -> String {
    match entrants.get(seed) {
        Some(e) if e.withdrawn => format!("{} (withdrawn)", names.of(e.user)),
        Some(e) => names.of(e.user),
        None => format!("seed {seed}"),
    }
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
pub(in crate::service) fn standings_table(
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
pub(in crate::service) enum Layout {
    Crosstable,
    ByRound,
}

/// What every mark of the standings means, one legend for the text and the picture.
pub(in crate::service) fn legend(format: Format, layout: Layout) -> String {
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
pub(in crate::service) fn standings_text(
    entrants: &[Entrant],
    names: &Names,
    standings: &Standings,
    limit: usize,
) -> Text {
    let name = |seed: usize| entrant_name(entrants, names, seed);
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
    text
}

/// The title of the standings picture announced after round `round` of `t`, which shows the
/// first `shown` of `total` players.
pub(in crate::service) fn announced_standings_title(
    t: &StoredTournament,
    round: u32,
    shown: usize,
    total: usize,
) -> String {
    let when = match t.state {
        TournamentState::Finished if round >= t.current_round => "final standings".to_string(),
        _ => format!("after round {round}"),
    };
    let top = if shown < total {
        format!(", the first {shown} of {total}")
    } else {
        String::new()
    };
    format!("{} — {when}{top}", t.name)
}

/// Page `page` of `pages` of the standings of `t` (with `entrants` players), `body` its
/// lines: the picture's title and the message.
pub(in crate::service) fn standings_page(
    t: &StoredTournament,
    entrants: usize,
    body: Text,
    (page, pages): (u32, u32),
) -> (String, Text) {
    let state = match t.state {
        TournamentState::Open => format!("taking players ({entrants} so far)"),
        TournamentState::Running => format!(
            "round {} of {}",
            t.current_round,
            t.rounds.unwrap_or(t.current_round)
        ),
        TournamentState::Finished => "finished".into(),
        TournamentState::Cancelled => "cancelled".into(),
    };
    let paged = match pages {
        1 => String::new(),
        _ => format!(", page {page} of {pages}"),
    };
    let title = format!("{} — {state}{paged}", t.name);
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
    (title, text)
}
