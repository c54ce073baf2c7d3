//! Tournament formats and the numbers of players and rounds each allows.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::round_robin::round_robin_rounds;
use super::swiss::{default_swiss_rounds, MAX_SWISS_ROUNDS};

/// The fewest players a tournament starts with.
pub const MIN_PLAYERS: usize = 4;
/// The most players a round robin takes (16 players play 15 rounds).
pub const MAX_ROUND_ROBIN: usize = 16;
/// The most players a Swiss takes.
pub const MAX_SWISS: usize = 200;

/// How players are paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Format {
    /// Every pair of players meets once.
    RoundRobin,
    /// Players of equal score meet, over a number of rounds the organiser chooses (`None`:
    /// ⌈log2 n⌉ + 1 for the players there at the start).
    Swiss { rounds: Option<u32> },
}

/// Why a format does not fit a number of players (worded by the service's voice).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FormatError {
    /// Fewer than [`MIN_PLAYERS`]: the players there are.
    TooFewPlayers(usize),
    /// More than [`MAX_ROUND_ROBIN`] for a round robin.
    TooManyForRoundRobin(usize),
    /// More than [`MAX_SWISS`] for a Swiss.
    TooManyForSwiss(usize),
    /// Swiss rounds asked for outside 1 to `MAX_SWISS_ROUNDS` (as typed: it may be below 0).
    BadRounds(i64),
    /// More Swiss rounds than the players allow without a rematch.
    RoundsForPlayers {
        players: usize,
        rounds: u32,
        most: u32,
    },
    /// Rounds asked for a round robin, whose rounds follow from its players.
    RoundsForRoundRobin,
    /// A format's name that is none of ours.
    Unknown(String),
}

impl Format {
    /// Whether `rounds` is a number of Swiss rounds anyone may ask for.
    pub fn check_rounds(rounds: u32) -> Result<(), FormatError> {
        if (1..=MAX_SWISS_ROUNDS).contains(&rounds) {
            Ok(())
        } else {
            Err(FormatError::BadRounds(rounds.into()))
        }
    }

    /// The most players this format takes (a round robin's schedule, a Swiss's pairing cost).
    pub fn most_players(self) -> usize {
        match self {
            Format::RoundRobin => MAX_ROUND_ROBIN,
            Format::Swiss { .. } => MAX_SWISS,
        }
    }

    /// The number of rounds for `players` players, or why they cannot play this format.
    pub fn rounds_for(self, players: usize) -> Result<u32, FormatError> {
        if players < MIN_PLAYERS {
            return Err(FormatError::TooFewPlayers(players));
        }
        match self {
            Format::RoundRobin if players > MAX_ROUND_ROBIN => {
                Err(FormatError::TooManyForRoundRobin(players))
            }
            Format::RoundRobin => Ok(round_robin_rounds(players)),
            Format::Swiss { .. } if players > MAX_SWISS => {
                Err(FormatError::TooManyForSwiss(players))
            }
            Format::Swiss { rounds } => {
                // A player meets at most everyone else once (an odd field adds one bye each).
                let most = u32::try_from(players - 1 + players % 2)
                    .unwrap_or(u32::MAX)
                    .min(MAX_SWISS_ROUNDS);
                // Rounds asked for are a cap: a field too small for them plays as many as it
                // can without a rematch (the start says so).
                let rounds = rounds.unwrap_or_else(|| default_swiss_rounds(players));
                Format::check_rounds(rounds)?;
                Ok(rounds.min(most))
            }
        }
    }

    /// The stored name: `round-robin` or `swiss`.
    pub fn name(self) -> &'static str {
        match self {
            Format::RoundRobin => "round-robin",
            Format::Swiss { .. } => "swiss",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Format::RoundRobin => write!(f, "round robin"),
            Format::Swiss { rounds: Some(1) } => write!(f, "Swiss, 1 round"),
            Format::Swiss { rounds: Some(r) } => write!(f, "Swiss, {r} rounds"),
            Format::Swiss { rounds: None } => write!(f, "Swiss"),
        }
    }
}

impl FromStr for Format {
    type Err = FormatError;

    /// `round-robin` or `swiss` (the rounds are set apart).
    fn from_str(text: &str) -> Result<Format, FormatError> {
        match text
            .trim()
            .to_ascii_lowercase()
            .replace([' ', '_'], "-")
            .as_str()
        {
            "round-robin" | "roundrobin" | "rr" => Ok(Format::RoundRobin),
            "swiss" => Ok(Format::Swiss { rounds: None }),
            _ => Err(FormatError::Unknown(crate::input::echo(text))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_takes_four_to_sixteen() {
        assert_eq!(
            Format::RoundRobin.rounds_for(3),
            Err(FormatError::TooFewPlayers(3))
        );
        assert_eq!(Format::RoundRobin.rounds_for(4), Ok(3));
        assert_eq!(Format::RoundRobin.rounds_for(5), Ok(5));
        assert_eq!(Format::RoundRobin.rounds_for(16), Ok(15));
        assert_eq!(
            Format::RoundRobin.rounds_for(17),
            Err(FormatError::TooManyForRoundRobin(17))
        );
    }

    #[test]
    fn swiss_rounds_default_and_bounds() {
        let swiss = Format::Swiss { rounds: None };
        assert_eq!(swiss.rounds_for(4), Ok(3));
        assert_eq!(swiss.rounds_for(8), Ok(4));
        assert_eq!(swiss.rounds_for(9), Ok(5));
        assert_eq!(swiss.rounds_for(200), Ok(9));
        assert_eq!(
            swiss.rounds_for(201),
            Err(FormatError::TooManyForSwiss(201))
        );
        // Rounds asked for are a cap: a field too small plays as many as it can.
        assert_eq!(Format::Swiss { rounds: Some(4) }.rounds_for(4), Ok(3));
        assert_eq!(Format::Swiss { rounds: Some(9) }.rounds_for(6), Ok(5));
        assert_eq!(Format::Swiss { rounds: Some(5) }.rounds_for(5), Ok(5));
        assert_eq!(
            Format::Swiss { rounds: Some(0) }.rounds_for(50),
            Err(FormatError::BadRounds(0))
        );
        assert_eq!(
            Format::Swiss { rounds: Some(21) }.rounds_for(50),
            Err(FormatError::BadRounds(21))
        );
    }

    #[test]
    fn formats_parse() {
        assert_eq!("Round Robin".parse(), Ok(Format::RoundRobin));
        assert_eq!("swiss".parse(), Ok(Format::Swiss { rounds: None }));
        assert!("knockout".parse::<Format>().is_err());
    }
}
