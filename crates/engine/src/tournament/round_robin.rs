//! Round-robin schedules by the circle method (Berger tables).

use super::pairing::Pairing;

/// The rounds a round robin of `players` takes: one fewer than the players, rounded up to even.
pub fn round_robin_rounds(players: usize) -> u32 {
    let seats = players + players % 2;
    u32::try_from(seats.saturating_sub(1)).unwrap_or(u32::MAX)
}

/// Every round of a round robin of `players` (numbered 0..players): each pair meets exactly
/// once, and with an odd number each player sits out once (a bye, which scores nothing, since
/// everyone has one).
///
/// The circle method: the last seat stays put while the others turn one place each round. Who
/// commands the dwarfs first alternates for the fixed seat, so nobody starts every match with
/// the same side.
pub fn round_robin(players: usize) -> Vec<Vec<Pairing>> {
    if players < 2 {
        return Vec::new();
    }
    let seats = players + players % 2;
    let turning = seats - 1;
    let fixed = seats - 1;
    let mut rounds = Vec::with_capacity(turning);
    for round in 0..turning {
        let mut pairings = Vec::with_capacity(seats / 2);
        let mut pair = |a: usize, b: usize| match (a < players, b < players) {
            (true, true) => pairings.push(Pairing::Match {
                first: a,
                second: b,
            }),
            (true, false) => pairings.push(Pairing::Bye(a)),
            (false, true) => pairings.push(Pairing::Bye(b)),
            (false, false) => {}
        };
        if round % 2 == 0 {
            pair(round, fixed);
        } else {
            pair(fixed, round);
        }
        for k in 1..seats / 2 {
            let a = (round + k) % turning;
            let b = (round + turning - k) % turning;
            pair(a, b);
        }
        rounds.push(pairings);
    }
    rounds
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn every_pair_meets_once_and_everyone_plays_each_round() {
        for players in 2..=16 {
            let rounds = round_robin(players);
            assert_eq!(rounds.len() as u32, round_robin_rounds(players));
            let mut met = HashSet::new();
            let mut byes = vec![0; players];
            for round in &rounds {
                let mut seen = HashSet::new();
                for pairing in round {
                    for p in pairing.players() {
                        assert!(p < players);
                        assert!(seen.insert(p), "{players}: {p} twice in a round");
                    }
                    match *pairing {
                        Pairing::Match { first, second } => {
                            assert!(
                                met.insert((first.min(second), first.max(second))),
                                "{players}: {first} and {second} meet twice"
                            );
                        }
                        Pairing::Bye(p) => byes[p] += 1,
                    }
                }
                assert_eq!(seen.len(), players, "{players}: someone left out");
            }
            assert_eq!(met.len(), players * (players - 1) / 2);
            let expected = if players % 2 == 1 { 1 } else { 0 };
            assert!(byes.iter().all(|b| *b == expected), "{players}: {byes:?}");
        }
    }

    #[test]
    fn four_players_worked_example() {
        // Berger table for four: 0-3 1-2 / 3-1 2-0 / 2-3 0-1.
        let m = |first, second| Pairing::Match { first, second };
        assert_eq!(
            round_robin(4),
            vec![
                vec![m(0, 3), m(1, 2)],
                vec![m(3, 1), m(2, 0)],
                vec![m(2, 3), m(0, 1)],
            ]
        );
    }

    #[test]
    fn the_dwarfs_first_are_shared_out() {
        for players in [4, 6, 8, 16] {
            let mut firsts = vec![0usize; players];
            for round in round_robin(players) {
                for pairing in round {
                    if let Pairing::Match { first, .. } = pairing {
                        firsts[first] += 1;
                    }
                }
            }
            let rounds = players - 1;
            for f in firsts {
                assert!(
                    f >= rounds / 2 - 1 && f <= rounds / 2 + 2,
                    "{players}: {f} of {rounds}"
                );
            }
        }
    }
}
