//! Every mark of the standings names the opponent who was paired, on every page, however
//! many players share a rank: checked on random tournaments, in the text and the picture's
//! table alike.

use std::collections::HashMap;

use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use super::{page_of, PAGE_LINES};
use crate::service::voice;
use crate::service::Names;
use crate::store::{Entrant, UserId};
use crate::tournament::{Format, Game, MatchOutcome, Pairing, Standings};

/// A tournament of `players` over `rounds` random rounds: random pairings, mostly drawn (so
/// that ranks are shared), some won, forfeited or still in play, and a bye in an odd field.
fn random_games(players: usize, rounds: u32, seed: u64) -> Vec<Game> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut games = Vec::new();
    for round in 1..=rounds {
        let mut order: Vec<usize> = (0..players).collect();
        order.shuffle(&mut rng);
        if players % 2 == 1 {
            let bye = order.pop().unwrap_or(0);
            games.push(Game {
                round,
                pairing: Pairing::Bye(bye),
                outcome: None,
            });
        }
        for pair in order.chunks(2) {
            let (first, second) = (pair[0], pair[1]);
            let outcome = match rng.gen_range(0..10) {
                0..=4 => Some(MatchOutcome::Drawn),
                5 | 6 => Some(MatchOutcome::Won {
                    winner: if rng.gen() { first } else { second },
                    margin: rng.gen_range(1..20),
                }),
                7 => Some(MatchOutcome::Forfeited {
                    winner: if rng.gen() { first } else { second },
                }),
                _ => None,
            };
            games.push(Game {
                round,
                pairing: Pairing::Match { first, second },
                outcome,
            });
        }
    }
    games
}

/// The number in a mark ("+4", "=2", "−F7", "…3", "/5"), if it has one.
fn number_in(mark: &str) -> Option<usize> {
    let digits: String = mark.chars().filter(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// What round `round`'s mark of the player with start number `number` must name.
fn paired(games: &[Game], round: u32, number: usize) -> Option<Option<usize>> {
    let seed = number - 1;
    games
        .iter()
        .find(|g| g.round == round && g.pairing.has(seed))
        .map(|g| g.pairing.opponent_of(seed).map(voice::start_number))
}

fn check(players: usize, rounds: u32, seed: u64, format: Format) {
    let games = random_games(players, rounds, seed);
    let all = Standings::compute(format, players, rounds, &games);
    let entrants: Vec<Entrant> = (0..players)
        .map(|s| Entrant {
            user: UserId(1000 + s as u64),
            seed: s,
            withdrawn: false,
        })
        .collect();
    let names = Names(
        (0..players)
            .map(|s| (UserId(1000 + s as u64), format!("p{}", s + 1)))
            .collect::<HashMap<_, _>>(),
    );
    let pages = players.div_ceil(PAGE_LINES) as u32;
    let mut seen = 0;
    for page in 1..=pages {
        let (shown, _, _) = page_of(&all, page);
        // The text: "3. [17] p17 — 1½ points (…); by round: =4 …9".
        let text = voice::standings_text(&entrants, &names, &shown, PAGE_LINES);
        let text = text.to_plain(chrono::DateTime::UNIX_EPOCH);
        for line in text.lines().filter(|l| l.contains("by round: ")) {
            let number: usize = line
                .split_once('[')
                .and_then(|(_, rest)| rest.split_once(']'))
                .and_then(|(n, _)| n.parse().ok())
                .unwrap_or_else(|| panic!("no start number in {line}"));
            assert!(line.contains(&format!("] p{number} —")), "{line}");
            let (_, marks) = line.split_once("by round: ").unwrap();
            let marks: Vec<&str> = marks.split(' ').collect();
            assert_eq!(marks.len(), rounds as usize, "{line}");
            for (r, mark) in marks.iter().enumerate() {
                match paired(&games, r as u32 + 1, number) {
                    Some(Some(opponent)) => assert_eq!(number_in(mark), Some(opponent), "{line}"),
                    Some(None) => assert_eq!(*mark, "bye", "{line}"),
                    None => assert_eq!(*mark, "·", "{line}"),
                }
            }
            seen += 1;
        }
        // The picture's table: "#", "No.", "Player", then the columns of its format.
        let table = voice::standings_table(String::new(), &shown, &|s| format!("p{}", s + 1));
        assert_eq!(table.headings[1], "No.");
        for row in &table.rows {
            let number: usize = row[1].parse().expect("a start number");
            assert_eq!(row[2], format!("p{number}"));
            match format {
                Format::Swiss { .. } => {
                    for r in 0..rounds {
                        let mark = &row[6 + r as usize];
                        if let Some(Some(opponent)) = paired(&games, r + 1, number) {
                            assert_eq!(number_in(mark), Some(opponent), "{row:?}");
                        }
                    }
                }
                // A crosstable's columns are headed by the start numbers of its rows: each
                // result sits under the opponent's number.
                Format::RoundRobin => {
                    for (c, heading) in table.headings[3..3 + table.rows.len()].iter().enumerate() {
                        let column: usize = heading.parse().expect("a start number");
                        let cell = &row[3 + c];
                        let met =
                            (1..=rounds).any(|r| paired(&games, r, number) == Some(Some(column)));
                        assert_eq!(!cell.is_empty() && cell != "×", met, "{row:?}");
                    }
                }
            }
        }
    }
    assert_eq!(seen, players, "every player has a line on some page");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn swiss_marks_name_the_opponent_paired_on_every_page(
        players in 4usize..=130,
        rounds in 1u32..=6,
        seed in any::<u64>(),
    ) {
        check(players, rounds, seed, Format::Swiss { rounds: Some(rounds) });
    }

    #[test]
    fn crosstable_columns_are_the_rows_start_numbers(
        players in 4usize..=16,
        rounds in 1u32..=5,
        seed in any::<u64>(),
    ) {
        check(players, rounds, seed, Format::RoundRobin);
    }
}

#[test]
fn half_a_point_is_one_point_not_points() {
    let games = [Game {
        round: 1,
        pairing: Pairing::Match {
            first: 0,
            second: 1,
        },
        outcome: Some(MatchOutcome::Drawn),
    }];
    let standings = Standings::compute(Format::Swiss { rounds: Some(1) }, 2, 1, &games);
    let entrants: Vec<Entrant> = (0..2)
        .map(|s| Entrant {
            user: UserId(1000 + s as u64),
            seed: s,
            withdrawn: false,
        })
        .collect();
    let text = voice::standings_text(&entrants, &Names(HashMap::new()), &standings, 10)
        .to_plain(chrono::DateTime::UNIX_EPOCH);
    assert!(text.contains("— ½ point (Buchholz ½"), "{text}");
    assert!(!text.contains("½ points"), "{text}");
}
