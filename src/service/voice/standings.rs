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

/// The number that names entrant `seed` in every mark: their start number (1 for the first
/// to join). Ranks are shared by ties and change from round to round, and a page shows only
/// some of them; a start number is one player's for the whole tournament, on every page.
pub(in crate::service) fn start_number(seed: usize) -> usize {
    seed + 1
}

/// One line a player: rank, start number, name, points, tie-breaks, results by round.
fn line(standings: &Standings, index: usize, name: &dyn Fn(usize) -> String) -> Option<String> {
    let s = standings.lines.get(index)?;
    let tie_breaks = match s.tie_breaks {
        TieBreaks::SonnebornBerger(sb) => format!("SB {sb}"),
        TieBreaks::Swiss { buchholz, margin } => {
            format!("Buchholz {buchholz}, margin {}", signed(margin))
        }
    };
    let results: Vec<String> = s.cells.iter().map(|c| cell_text(*c)).collect();
    // "1 point", "½ point", "1½ points".
    let points = if s.points.0 <= 2 && s.points.0 > 0 {
        format!("{} point", s.points)
    } else {
        format!("{} points", s.points)
    };
    Some(format!(
        "{}. [{}] {} — {points} ({tie_breaks}); by round: {}",
        s.rank,
        start_number(s.player),
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

/// Whether any game of the standings was stopped by a cancellation (its mark then needs a
/// place in the legend).
fn any_stopped(standings: &Standings) -> bool {
    standings
        .lines
        .iter()
        .any(|l| l.cells.iter().any(|c| matches!(c, Cell::Stopped { .. })))
}

/// The standings as a table to draw: a crosstable for a round robin (each cell the row
/// player's result against the column's, the columns headed by the rows' start numbers), a
/// standings table for a Swiss (results by round against the opponent's start number).
pub(in crate::service) fn standings_table(
    title: String,
    standings: &Standings,
    name: &dyn Fn(usize) -> String,
) -> Table {
    let mut headings: Vec<String> = vec!["#".into(), "No.".into(), "Player".into()];
    let mut rows = Vec::new();
    let stopped = any_stopped(standings);
    let leading = |line: &crate::tournament::Standing| {
        vec![
            line.rank.to_string(),
            start_number(line.player).to_string(),
            name(line.player),
        ]
    };
    let footer = match standings.format {
        Format::RoundRobin => {
            headings.extend(
                standings
                    .lines
                    .iter()
                    .map(|l| start_number(l.player).to_string()),
            );
            headings.extend(["Points".into(), "SB".into()]);
            for (i, line) in standings.lines.iter().enumerate() {
                let mut row = leading(line);
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
                            Some(Cell::Stopped { .. }) => "/",
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
            legend(Format::RoundRobin, Layout::Crosstable, stopped)
        }
        Format::Swiss { .. } => {
            headings.extend(["Points".into(), "Buchholz".into(), "Margin".into()]);
            headings.extend((1..=standings.rounds).map(|r| format!("R{r}")));
            for line in &standings.lines {
                let mut row = leading(line);
                row.push(line.points.to_string());
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
                row.extend(line.cells.iter().map(|c| cell_text(*c)));
                rows.push(row);
            }
            legend(standings.format, Layout::ByRoundTable, stopped)
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

/// How standings are laid out: a round robin's crosstable, or results by round (in lines of
/// text, or in the picture's table with its `No.` column).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(in crate::service) enum Layout {
    Crosstable,
    ByRound,
    ByRoundTable,
}

/// What every mark of the standings means, one legend for the text and the picture.
/// `stopped`: some games were stopped by a cancellation, and their mark is explained.
pub(in crate::service) fn legend(format: Format, layout: Layout, stopped: bool) -> String {
    let number = match layout {
        Layout::ByRoundTable => "No. is each player's start number",
        _ => "[n] is each player's start number",
    };
    let marks = match layout {
        Layout::Crosstable => "No. is each player's start number, and the columns are the players in the same order by theirs. 1 won, ½ drawn, 0 lost; +F won by forfeit, −F lost by forfeit (a resignation, a lost claim, a withdrawal); … in play; blank: not met.".to_string(),
        Layout::ByRound | Layout::ByRoundTable => format!("{number}, and every result names the opponent by theirs: +n won, =n drew, −n lost against no. n; +Fn won by forfeit, −Fn lost by forfeit against no. n (a resignation, a lost claim, a withdrawal); …n in play against no. n; · not paired."),
    };
    let stop = match (stopped, layout) {
        (false, _) => "",
        (true, Layout::Crosstable) => {
            " / stopped unfinished when the tournament was cancelled (counts for nobody)."
        }
        (true, Layout::ByRound | Layout::ByRoundTable) => {
            " /n stopped unfinished against no. n when the tournament was cancelled (counts for nobody)."
        }
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
    format!("{marks}{stop}{bye}{ties}")
}

/// A result by round: "+4", "=2", "−7", "+F3", "bye", "…3", "/3", "·"; each number is the
/// opponent's start number.
fn cell_text(c: Cell) -> String {
    match c {
        Cell::Won { opponent, .. } => format!("+{}", start_number(opponent)),
        Cell::Drawn { opponent } => format!("={}", start_number(opponent)),
        Cell::Lost { opponent, .. } => format!("−{}", start_number(opponent)),
        Cell::ForfeitWon { opponent } => format!("+F{}", start_number(opponent)),
        Cell::ForfeitLost { opponent } => format!("−F{}", start_number(opponent)),
        Cell::Bye => "bye".into(),
        Cell::Playing { opponent } => format!("…{}", start_number(opponent)),
        Cell::Stopped { opponent } => format!("/{}", start_number(opponent)),
        Cell::Absent => "·".into(),
    }
}

/// The standings as lines of text, at most `limit` players, then the legend of their marks.
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
            .code("/thud tournament standings")
            .plain(".");
    }
    text.line().plain(legend(
        standings.format,
        Layout::ByRound,
        any_stopped(standings),
    ))
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
        .then(body);
    if page < pages {
        text = text
            .line()
            .plain("More: ")
            .code(format!("/thud tournament standings page:{}", page + 1))
            .plain(".");
    }
    (title, text)
}
