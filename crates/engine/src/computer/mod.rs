//! The computer player: chooses moves at five levels, and judges when a battle may end.
//!
//! Pure and synchronous like [`crate::game`], which is all it uses. A search takes up to about
//! two seconds of one core (level 5), so an async caller runs it on a blocking thread.
//!
//! ```
//! use thud_engine::computer::{choose_move, Level};
//! use thud_engine::game::Variant;
//!
//! let start = Variant::Classic.start();
//! let mv = choose_move(&start, Level::WEAKEST, 1).expect("the start has moves");
//! assert!(start.legal_moves().contains(&mv));
//! ```

pub mod analysis;
mod assessment;
pub mod baseline;
pub mod calibration;
mod candidates;
mod chance;
mod evaluation;
pub mod features;
mod level;
mod mistakes;
pub mod protocol;
mod search;
mod transposition;

pub use assessment::{
    assess, progress_within_two_plies, Assessment, PROPOSAL_DEPTH, STALLED_PLIES,
};
pub use chance::Chance;
pub use level::{Level, Settings, UnknownLevel};

use crate::game::{Move, Position};

use mistakes::choose_with_mistakes;
use search::Search;
use transposition::Table;

/// What the computer decided, and how it got there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thought {
    /// The move it plays; always one of the position's legal moves.
    pub best: Move,
    /// How good it thinks the move is for the side to move, in hundredths of a dwarf (a troll
    /// is 400); beyond ±29,000 a Koom Valley battle is won or lost by force.
    pub score: i32,
    /// The deepest full iteration of the search (0 if the deadline cut even the first short).
    pub depth: u8,
    /// Positions visited.
    pub nodes: u64,
    /// The position's score for the side to move as the last two full iterations of the search
    /// saw it, averaged (see the search); what the analysis judges a position by.
    pub settled: i32,
}

impl Thought {
    /// What the score says in the game's points: the final margin of the battle expected
    /// from `position` (the one thought about), from the dwarfs' side, in hundredths of a point.
    pub fn expected_margin(&self, position: &Position) -> i32 {
        let for_dwarfs = match position.side_to_move() {
            crate::game::Side::Dwarfs => self.settled,
            crate::game::Side::Trolls => -self.settled,
        };
        analysis::margin(position, analysis::tame(for_dwarfs))
    }
}

/// The move the computer plays at `level` in `position`, or `None` when the position has no
/// legal move. The same seed gives the same move, except that levels 4 and 5 stop at a
/// deadline, so a busier machine may see less deep.
pub fn choose_move(position: &Position, level: Level, seed: u64) -> Option<Move> {
    think(position, &level.settings(position.variant()), seed).map(|t| t.best)
}

/// The move the computer plays under `settings` (a level's own, or shrunk for tests and
/// benchmarks), with its score and the search's depth.
pub fn think(position: &Position, settings: &Settings, seed: u64) -> Option<Thought> {
    // The seed decides between moves the search finds equal, and level 1 and 2's mistakes.
    let mut chance = Chance::new(seed);
    let mut order = position.legal_moves();
    for i in (1..order.len()).rev() {
        order.swap(i, chance.below(i + 1));
    }
    let bits = if settings.depth <= 2 { 16 } else { 18 };
    let mut table = Table::new(bits);
    let mut search = Search::new(position, &mut table, settings);
    if settings.temperature > 0 {
        let scored = search.score_each(settings.depth, &order);
        if let Some((best, score)) =
            choose_with_mistakes(&scored, settings.temperature, &mut chance)
        {
            return Some(Thought {
                best,
                score,
                depth: settings.depth,
                nodes: 0,
                settled: score,
            });
        }
    }
    let found = search.iterate(settings.depth, &order)?;
    Some(Thought {
        best: found.best,
        score: found.score,
        depth: found.depth,
        nodes: found.nodes,
        settled: found.settled,
    })
}
