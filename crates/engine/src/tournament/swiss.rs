//! Swiss pairings as a maximum-weight matching.
//!
//! Every pair of players who have not met is an edge; so is every player without a bye to a
//! phantom "bye" player when the number is odd. Among the pairings that pair everyone (the
//! matching of most edges), the weights choose, in this order of importance:
//!
//! 1. the least sum over all pairings of the squared score difference, so players of equal
//!    score meet where possible and a player who must float moves as little as can be (two
//!    floats of one score group cost less than one float of two); the bye counts as an
//!    opponent one point below the lowest score, so it goes to the lowest score group;
//! 2. then, as FIDE's Dutch system does, in a score group the upper half meets the lower half
//!    (the 1st of 8 meets the 5th), and a player floating down is the lowest of their group
//!    and meets, of the group below, whom that group's own halves leave (near its top, often
//!    its middle: the group's pairing counts as much as the floater's).
//!
//! The bye then goes to the lowest-ranked player without one among those the best pairing
//! (criterion 1) allows, checked by pairing again with the bye forced on each in turn.
//!
//! The two are kept apart by weighting the first by more than the second can ever add up to.
//! Rematches and second byes are not edges at all, so they never happen: when no pairing
//! without them exists, the round is [`Unpairable`] and the tournament ends.

use super::matching::{maximum_weight_matching, Edge};
use super::pairing::Pairing;
use super::score::HalfPoints;

/// A player to pair, with what the pairing must know of their tournament so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contender {
    /// The player's seed (0 is the first to join), which also ranks players of equal score.
    pub player: usize,
    pub score: HalfPoints,
    pub had_bye: bool,
    /// Everyone this player has met.
    pub opponents: Vec<usize>,
}

/// No pairing of this round avoids a rematch or a second bye.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("nobody can be paired this round without a rematch or a second bye")]
pub struct Unpairable;

/// The most rounds of a Swiss: at days per move, 20 rounds are already more than a year, and
/// the bound keeps the pairing weights small (see `MAX_DIFFERENCE`).
pub const MAX_SWISS_ROUNDS: u32 = 20;

/// ⌈log2 n⌉ + 1 rounds: enough for a clear winner.
pub fn default_swiss_rounds(players: usize) -> u32 {
    let mut rounds = 0;
    while (1usize << rounds) < players {
        rounds += 1;
    }
    rounds + 1
}

/// The largest score difference (in half points) the weights tell apart, bye included.
const MAX_DIFFERENCE: i64 = 2 * MAX_SWISS_ROUNDS as i64 + 2;

/// The pairings of the next round for these contenders, top board first. Players are
/// ranked by score, then in the order given (the standings' order: tie-breaks, then seed).
pub fn pair_swiss(contenders: &[Contender]) -> Result<Vec<Pairing>, Unpairable> {
    let mut ranked: Vec<&Contender> = contenders.iter().collect();
    ranked.sort_by_key(|c| std::cmp::Reverse(c.score));
    let mut seen = std::collections::HashSet::new();
    ranked.retain(|c| seen.insert(c.player));
    let n = ranked.len();
    if n == 0 {
        return Ok(Vec::new());
    }
    let bye = (n % 2 == 1).then_some(n);
    let vertices = n + usize::from(bye.is_some());

    // Where each ranked player's score group starts and ends (exclusive).
    let mut group = vec![(0usize, 0usize); n];
    let mut start = 0;
    for i in 1..=n {
        if i == n || ranked[i].score != ranked[start].score {
            for g in group.iter_mut().take(i).skip(start) {
                *g = (start, i);
            }
            start = i;
        }
    }
    let lowest = i64::from(ranked[n - 1].score.0);

    // Secondary penalties stay below `spread` each; the primary unit outweighs all of them.
    let spread = 2 * n as i64 + 2;
    let unit = spread * (vertices as i64 / 2 + 1) + 1;
    let base = MAX_DIFFERENCE * MAX_DIFFERENCE * unit + spread;
    let weight = |difference: i64, secondary: i64| -> i32 {
        let d = difference.abs().min(MAX_DIFFERENCE);
        let w = base - d * d * unit - secondary.clamp(0, spread - 1);
        i32::try_from(w).unwrap_or(i32::MAX)
    };

    // `bye_for`: only that ranked player may take the bye (`None`: anyone without one).
    let edges_for = |bye_for: Option<usize>| -> Vec<Edge> {
        let mut edges = Vec::with_capacity(n * (n + 1) / 2);
        for i in 0..n {
            for j in i + 1..n {
                if ranked[i].opponents.contains(&ranked[j].player)
                    || ranked[j].opponents.contains(&ranked[i].player)
                {
                    continue;
                }
                let (gi, gj) = (group[i], group[j]);
                let secondary = if gi == gj {
                    // The upper half meets the lower half: ideally j is i + half the group.
                    let half = ((gi.1 - gi.0) / 2) as i64;
                    ((j - i) as i64 - half).abs()
                } else {
                    // The floater is the lowest of its group and meets the top of the next.
                    (gi.1 - 1 - i) as i64 + (j - gj.0) as i64
                };
                let difference = i64::from(ranked[i].score.0) - i64::from(ranked[j].score.0);
                edges.push(Edge {
                    a: i,
                    b: j,
                    weight: weight(difference, secondary),
                });
            }
            if let (Some(bye), false) = (bye, ranked[i].had_bye) {
                if bye_for.is_none_or(|only| only == i) {
                    let difference = i64::from(ranked[i].score.0) - (lowest - 2);
                    edges.push(Edge {
                        a: i,
                        b: bye,
                        weight: weight(difference, (n - 1 - i) as i64),
                    });
                }
            }
        }
        edges
    };
    // The score-group cost (criterion 1) of a complete matching, `None` if it is not one.
    let cost = |mates: &[Option<usize>]| -> Option<i64> {
        let score = |i: usize| i64::from(ranked[i].score.0);
        let mut total = 0;
        for (i, mate) in mates.iter().enumerate().take(n) {
            match *mate {
                None => return None,
                Some(m) if Some(m) == bye => total += (score(i) - (lowest - 2)).pow(2),
                Some(m) if m > i => total += (score(i) - score(m)).pow(2),
                Some(_) => {}
            }
        }
        Some(total)
    };

    let mut mates = maximum_weight_matching(vertices, &edges_for(None));
    // The bye goes to the lowest-ranked player without one whom the best pairing allows: the
    // summed secondary weights could otherwise trade it up the ranking for a neater pairing
    // elsewhere, and a bye is a full point.
    if let (Some(bye), Some(best)) = (bye, cost(&mates)) {
        let holder = mates.iter().position(|m| *m == Some(bye)).unwrap_or(0);
        for i in (holder + 1..n).rev().filter(|i| !ranked[*i].had_bye) {
            let forced = maximum_weight_matching(vertices, &edges_for(Some(i)));
            if cost(&forced) == Some(best) {
                mates = forced;
                break;
            }
        }
    }
    let mut pairings = Vec::with_capacity(vertices / 2);
    for (i, mate) in mates.iter().enumerate().take(n) {
        match *mate {
            None => return Err(Unpairable),
            Some(m) if Some(m) == bye => pairings.push(Pairing::Bye(ranked[i].player)),
            Some(m) if m > i => pairings.push(Pairing::Match {
                first: ranked[i].player,
                second: ranked[m].player,
            }),
            Some(_) => {}
        }
    }
    // The bye is listed last, after the lowest board.
    pairings.sort_by_key(|p| matches!(p, Pairing::Bye(_)));
    Ok(pairings)
}

#[cfg(test)]
#[path = "swiss_tests.rs"]
mod tests;
