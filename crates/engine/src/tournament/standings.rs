//! Standings: points, tie-breaks and each player's results round by round.
//!
//! A match won is 1, drawn ½, lost 0 (a forfeit counts as a win or loss, margin 0). In a Swiss a
//! bye is a win; in a round robin everyone with an odd number sits out once, so a bye scores
//! nothing. Ties are broken in a round robin by Sonneborn–Berger (the points of every opponent
//! beaten plus half those of every opponent drawn), in a Swiss by Buchholz (the sum of the
//! opponents' points; a bye adds nothing) and then by the total margin (battle points won by
//! minus lost by, over every match); players still equal share their rank and are listed by
//! seed.

use std::cmp::Ordering;

use super::format::Format;
use super::pairing::Pairing;
use super::score::{HalfPoints, MatchOutcome, QuarterPoints};

/// One pairing of a round with its result, if it has one yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game {
    /// 1 for the first round.
    pub round: u32,
    pub pairing: Pairing,
    /// `None` while the match is being played (a bye needs none).
    pub outcome: Option<MatchOutcome>,
}

/// What one player did in one round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    Won {
        opponent: usize,
        margin: u32,
    },
    Drawn {
        opponent: usize,
    },
    Lost {
        opponent: usize,
        margin: u32,
    },
    ForfeitWon {
        opponent: usize,
    },
    ForfeitLost {
        opponent: usize,
    },
    Bye,
    Playing {
        opponent: usize,
    },
    /// Paired, then stopped undecided when the tournament was cancelled: counts for nobody.
    Stopped {
        opponent: usize,
    },
    /// Not paired this round (withdrawn, or the round is not paired yet).
    Absent,
}

impl Cell {
    /// The opponent of a match in this cell.
    pub fn opponent(self) -> Option<usize> {
        match self {
            Cell::Won { opponent, .. }
            | Cell::Drawn { opponent }
            | Cell::Lost { opponent, .. }
            | Cell::ForfeitWon { opponent }
            | Cell::ForfeitLost { opponent }
            | Cell::Playing { opponent }
            | Cell::Stopped { opponent } => Some(opponent),
            Cell::Bye | Cell::Absent => None,
        }
    }

    /// The cell's points toward the score (a bye's depends on the format).
    fn points(self, format: Format) -> HalfPoints {
        match self {
            Cell::Won { .. } | Cell::ForfeitWon { .. } => HalfPoints::WIN,
            Cell::Drawn { .. } => HalfPoints::DRAW,
            Cell::Bye if matches!(format, Format::Swiss { .. }) => HalfPoints::WIN,
            _ => HalfPoints::LOSS,
        }
    }

    /// The cell's margin toward the total margin.
    fn margin(self) -> i64 {
        match self {
            Cell::Won { margin, .. } => i64::from(margin),
            Cell::Lost { margin, .. } => -i64::from(margin),
            _ => 0,
        }
    }
}

/// The tie-breaks of a player, in the order they count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TieBreaks {
    SonnebornBerger(QuarterPoints),
    Swiss { buchholz: HalfPoints, margin: i64 },
}

impl TieBreaks {
    fn cmp_better(&self, other: &TieBreaks) -> Ordering {
        match (self, other) {
            (TieBreaks::SonnebornBerger(a), TieBreaks::SonnebornBerger(b)) => b.cmp(a),
            (
                TieBreaks::Swiss { buchholz, margin },
                TieBreaks::Swiss {
                    buchholz: b2,
                    margin: m2,
                },
            ) => b2.cmp(buchholz).then(m2.cmp(margin)),
            _ => Ordering::Equal,
        }
    }
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// 1 for the leader; players equal on points and every tie-break share a rank.
    pub rank: usize,
    pub player: usize,
    pub points: HalfPoints,
    pub tie_breaks: TieBreaks,
    /// One cell a round, the first round first.
    pub cells: Vec<Cell>,
}

/// The standings of a tournament, best first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standings {
    pub format: Format,
    pub rounds: u32,
    pub lines: Vec<Standing>,
}

impl Standings {
    /// The standings of `players` players (numbered by seed) over `rounds` rounds after `games`.
    pub fn compute(format: Format, players: usize, rounds: u32, games: &[Game]) -> Standings {
        let mut cells = vec![vec![Cell::Absent; rounds as usize]; players];
        for game in games {
            let Some(r) = (game.round as usize)
                .checked_sub(1)
                .filter(|r| *r < rounds as usize)
            else {
                continue;
            };
            match game.pairing {
                Pairing::Bye(p) if p < players => cells[p][r] = Cell::Bye,
                Pairing::Bye(_) => {}
                Pairing::Match { first, second } if first < players && second < players => {
                    let (a, b) = cell_pair(first, second, game.outcome);
                    cells[first][r] = a;
                    cells[second][r] = b;
                }
                Pairing::Match { .. } => {}
            }
        }
        let points: Vec<HalfPoints> = cells
            .iter()
            .map(|row| row.iter().fold(HalfPoints(0), |t, c| t + c.points(format)))
            .collect();
        let tie_breaks: Vec<TieBreaks> = cells
            .iter()
            .map(|row| match format {
                Format::RoundRobin => TieBreaks::SonnebornBerger(QuarterPoints(
                    row.iter()
                        .map(|c| match *c {
                            Cell::Won { opponent, .. } | Cell::ForfeitWon { opponent } => {
                                2 * points[opponent].0
                            }
                            Cell::Drawn { opponent } => points[opponent].0,
                            _ => 0,
                        })
                        .sum(),
                )),
                Format::Swiss { .. } => TieBreaks::Swiss {
                    buchholz: HalfPoints(
                        row.iter()
                            .filter(|c| !matches!(c, Cell::Playing { .. } | Cell::Stopped { .. }))
                            .filter_map(|c| c.opponent())
                            .map(|o| points[o].0)
                            .sum(),
                    ),
                    margin: row.iter().map(|c| c.margin()).sum(),
                },
            })
            .collect();

        let mut order: Vec<usize> = (0..players).collect();
        let better = |a: &usize, b: &usize| {
            points[*b]
                .cmp(&points[*a])
                .then(tie_breaks[*a].cmp_better(&tie_breaks[*b]))
        };
        order.sort_by(|a, b| better(a, b).then(a.cmp(b)));
        let mut lines: Vec<Standing> = Vec::with_capacity(players);
        for (i, &p) in order.iter().enumerate() {
            let rank = match lines.last() {
                Some(last) if better(&last.player, &p) == Ordering::Equal => last.rank,
                _ => i + 1,
            };
            lines.push(Standing {
                rank,
                player: p,
                points: points[p],
                tie_breaks: tie_breaks[p],
                cells: std::mem::take(&mut cells[p]),
            });
        }
        Standings {
            format,
            rounds,
            lines,
        }
    }

    /// The players ranked first (several when they share the rank).
    pub fn leaders(&self) -> Vec<usize> {
        self.lines
            .iter()
            .take_while(|l| l.rank == 1)
            .map(|l| l.player)
            .collect()
    }

    /// The games still undecided marked as stopped, as they are once the tournament is
    /// cancelled. Nothing is counted again: an undecided game counted for nobody already.
    pub fn stop_undecided(&mut self) {
        for line in &mut self.lines {
            for cell in &mut line.cells {
                if let Cell::Playing { opponent } = *cell {
                    *cell = Cell::Stopped { opponent };
                }
            }
        }
    }

    /// The line of `player`.
    pub fn of(&self, player: usize) -> Option<&Standing> {
        self.lines.iter().find(|l| l.player == player)
    }
}

/// The cells of the two players of a match.
fn cell_pair(first: usize, second: usize, outcome: Option<MatchOutcome>) -> (Cell, Cell) {
    match outcome {
        None => (
            Cell::Playing { opponent: second },
            Cell::Playing { opponent: first },
        ),
        Some(MatchOutcome::Drawn) => (
            Cell::Drawn { opponent: second },
            Cell::Drawn { opponent: first },
        ),
        Some(MatchOutcome::Won { winner, margin }) if winner == first => (
            Cell::Won {
                opponent: second,
                margin,
            },
            Cell::Lost {
                opponent: first,
                margin,
            },
        ),
        Some(MatchOutcome::Won { margin, .. }) => (
            Cell::Lost {
                opponent: second,
                margin,
            },
            Cell::Won {
                opponent: first,
                margin,
            },
        ),
        Some(MatchOutcome::Forfeited { winner }) if winner == first => (
            Cell::ForfeitWon { opponent: second },
            Cell::ForfeitLost { opponent: first },
        ),
        Some(MatchOutcome::Forfeited { .. }) => (
            Cell::ForfeitLost { opponent: second },
            Cell::ForfeitWon { opponent: first },
        ),
    }
}

#[cfg(test)]
#[path = "standings_tests.rs"]
mod tests;
