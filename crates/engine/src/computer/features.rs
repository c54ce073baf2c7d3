//! What the classic evaluation looks at besides material, as counts from the dwarfs' side,
//! and the weights that turn them into a score. The score is linear in the counts, so the
//! weights can be fitted to the results of self-play (`thudbot-tune`, see docs/computer.md).

use crate::game::{step_index, Cell, Direction, Position, Side, Square, SquareSet, Variant};

/// How many counts the classic evaluation weighs.
pub const FEATURES: usize = 14;

/// Where the dwarfs' spread stands among the counts: fitted, but weighed 0 as played.
const SPREAD: usize = 13;

/// The counts' names, in order, as the tuning tool prints them.
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "cohesion",
    "lone dwarfs",
    "exposed dwarfs",
    "trolls together",
    "isolated trolls",
    "hurl threats",
    "double threats",
    "aim",
    "dwarf groups",
    "loose dwarfs near trolls",
    "dwarfs on the edge",
    "dwarfs two or three steps from a troll",
    "trolls near the Thudstone",
    "dwarf spread",
];

/// The counts of one position, in [`FEATURE_NAMES`] order.
pub type Features = [i32; FEATURES];

/// Hundredths of a dwarf for each count, in [`FEATURE_NAMES`] order.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Weights(pub [i32; FEATURES]);

impl Weights {
    /// The weights set by hand before any tuning; kept to measure the tuned ones against.
    /// (They gave exposed dwarfs -22, but in classic the count was then always 0: a dwarf
    /// beside the landing square seemed to answer the troll, though the troll takes it. With
    /// 0 these weights play as the engine did before tuning.)
    pub const HAND: Weights = Weights([3, -12, 0, -10, 30, 60, 220, 4, 0, 0, 0, 0, 0, 0]);

    /// The hand-set weights as the original variant plays them (there a troll takes one
    /// dwarf, so the exposed count always worked); not tuned, since the fit saw only classic.
    pub const ORIGINAL: Weights = Weights([3, -12, -22, -10, 30, 60, 220, 4, 0, 0, 0, 0, 0, 0]);

    /// The weights classic levels play with: fitted by `thudbot-tune fit --horizon --ridge
    /// 0.3` to 27,753 quiet positions of 300 self-play battles (docs/computer.md), except the
    /// spread: a mean distance, it falls when an outlying dwarf is taken, and at the fitted
    /// -4 a troll with few dwarfs left preferred taking two of three (worth more than a dwarf).
    pub const TUNED: Weights = Weights([5, 17, -41, 8, 14, 59, 220, 1, -12, -7, 6, -22, -4, 0]);

    /// The weights levels 4 and 5 play classic with as the dwarfs: fitted by `thudbot-tune fit
    /// --horizon --ridge 0.3 --from-tuned` to the quiet positions of battles level 5 played as
    /// the dwarfs against koedem/Thud, whose trolls punish what self-play's did not (a dwarf
    /// on the edge; docs/computer-log.md, "Weights for each side, fitted on battles against
    /// koedem/Thud").
    pub const AS_DWARFS: Weights = Weights([8, 33, -29, -10, 0, 61, 220, 3, -8, 4, -19, -10, 1, 0]);

    /// The same for the trolls: fitted to the battles level 5 played as the trolls against
    /// koedem/Thud's dwarfs (the fitted spread, -4, weighed 0 for the reason above).
    pub const AS_TROLLS: Weights = Weights([7, 45, -62, 8, 0, 58, 220, 4, 3, 18, -3, -15, -6, 0]);

    /// The hand-set weights for `variant`, as the engine played before tuning.
    pub const fn hand_set(variant: Variant) -> Weights {
        match variant {
            Variant::Original => Weights::ORIGINAL,
            Variant::Classic | Variant::KoomValley => Weights::HAND,
        }
    }

    /// The weights for `variant` (Koom Valley has an evaluation of its own).
    pub const fn for_variant(variant: Variant) -> Weights {
        match variant {
            Variant::Original => Weights::ORIGINAL,
            Variant::Classic | Variant::KoomValley => Weights::TUNED,
        }
    }

    /// The score of `features` in hundredths of a dwarf, from the dwarfs' side.
    pub fn score(&self, features: &Features) -> i32 {
        self.0.iter().zip(features).map(|(w, f)| w * f).sum()
    }
}

/// The weights a search plays with, by the side the computer has: the side to move where the
/// search starts. Every position of its tree is weighed with them, whoever moves there, so the
/// search stays one consistent judgement.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SideWeights {
    pub dwarfs: Weights,
    pub trolls: Weights,
}

impl SideWeights {
    /// The same weights whichever side the computer has.
    pub const fn both(weights: Weights) -> SideWeights {
        SideWeights {
            dwarfs: weights,
            trolls: weights,
        }
    }

    /// [`Weights::for_variant`] whichever side the computer has: what levels 1 and 3, the
    /// analysis and the look before agreeing to an end judge with.
    pub const fn for_variant(variant: Variant) -> SideWeights {
        SideWeights::both(Weights::for_variant(variant))
    }

    /// What levels 4 and 5 play `variant` with.
    pub const fn for_play(variant: Variant) -> SideWeights {
        match variant {
            Variant::Classic => SideWeights {
                dwarfs: Weights::AS_DWARFS,
                trolls: Weights::AS_TROLLS,
            },
            Variant::Original | Variant::KoomValley => SideWeights::for_variant(variant),
        }
    }

    /// The weights when the computer has `side`.
    pub const fn of(&self, side: Side) -> Weights {
        match side {
            Side::Dwarfs => self.dwarfs,
            Side::Trolls => self.trolls,
        }
    }
}

impl Default for Weights {
    fn default() -> Weights {
        Weights::TUNED
    }
}

/// The counts of a classic or original position with both dwarfs and trolls on the board.
pub fn classic_features(pos: &Position) -> Features {
    counts(pos, true)
}

/// The counts `weights` play with: a count weighed 0 (the spread, as played) is not made.
pub(crate) fn weighed_features(pos: &Position, weights: &Weights) -> Features {
    counts(pos, weights.0[SPREAD] != 0)
}

fn counts(pos: &Position, with_spread: bool) -> Features {
    let mut f = [0; FEATURES];
    let dwarfs = pos.dwarfs();
    let trolls = pos.trolls();
    let original = pos.variant() == Variant::Original;
    let sight = Sight::of(pos);
    let tables = sight.tables;
    // The squares within one, two and three king moves of a troll.
    let mut near = [SquareSet::EMPTY; 3];
    for t in trolls {
        for (within, boxes) in near.iter_mut().zip(&tables.boxes) {
            *within |= boxes[t.index()];
        }
    }
    // A dwarf whose nearest troll is two or three moves away.
    let approached = dwarfs & (near[2] - near[0]);
    f[11] = approached.len() as i32;
    let in_two = approached & near[1];
    // An edge square has an off-board neighbour: a troll can come at it from fewer sides.
    f[10] = (dwarfs & tables.edge).len() as i32;
    for d in dwarfs {
        let n = i32::from(pos.dwarf_neighbours[d.index()]);
        f[0] += n.min(4);
        if n == 0 {
            f[1] += 1;
        }
        // A troll one step from being beside it, and too few friends to make it pay.
        if n <= 1 && in_two.contains(d) {
            f[9] += 1;
        }
    }
    f[8] = groups(pos);
    if with_spread {
        f[SPREAD] = spread(dwarfs);
    }
    let mut exposed = SquareSet::EMPTY;
    let mut threatened = 0;
    for t in trolls {
        let mut friends = 0;
        let mut near = false;
        for d in Direction::ALL {
            // The padding around the board is off-board, so one step never leaves the array.
            let n = step_index(t.index() as u8, d);
            match pos.cells[n as usize] {
                Cell::OffBoard => continue,
                Cell::Troll => friends += 1,
                _ => {}
            }
            near |= pos.cells[step_index(n, d) as usize] == Cell::Troll;
        }
        f[3] += friends.min(2);
        if friends == 0 && !near {
            f[4] += 1;
        }
        if king_distance(t, pos.stone()) <= 2 {
            f[12] += 1;
        }
        let mut aim = 0;
        for d in Direction::ALL {
            match sight.aimed_line(t, d, SquareSet::EMPTY) {
                Some((line, distance)) if line >= distance => {
                    threatened += 1;
                    break;
                }
                Some((line, _)) => aim += line.min(3),
                None => {}
            }
        }
        f[7] += aim.min(6);
        exposed |= reachable_unpunished(&sight, t, original);
    }
    f[2] = exposed.len() as i32;
    f[5] = threatened;
    if threatened >= 2 && pos.side_to_move() == Side::Trolls {
        f[6] = threatened - 1;
    }
    f
}

/// How many groups the dwarfs stand in, neighbours (diagonals too) counting as one group.
fn groups(pos: &Position) -> i32 {
    let mut left = pos.dwarfs();
    let mut count = 0;
    // Each square is pushed once at most, so 256 never fill.
    let mut stack = [0u8; 256];
    while let Some(seed) = left.first() {
        count += 1;
        left.remove(seed);
        stack[0] = seed.index() as u8;
        let mut size = 1;
        while size > 0 {
            size -= 1;
            let sq = stack[size];
            for d in Direction::ALL {
                let n = step_index(sq, d);
                if pos.cells[n as usize] == Cell::Dwarf {
                    let n = Square::from_index_unchecked(n);
                    if left.contains(n) {
                        left.remove(n);
                        stack[size] = n.index() as u8;
                        size += 1;
                    }
                }
            }
        }
    }
    count
}

/// The dwarfs' mean king distance from their centre, in tenths of a square: a compact block
/// has a small spread.
fn spread(dwarfs: SquareSet) -> i32 {
    let n = dwarfs.len() as i32;
    if n == 0 {
        return 0;
    }
    let (mut columns, mut rows) = (0, 0);
    for d in dwarfs {
        columns += i32::from(d.column());
        rows += i32::from(d.row());
    }
    // Exact in whole numbers (n times each coordinate against the sums), so a mirrored board
    // has the same spread.
    let total: i32 = dwarfs
        .iter()
        .map(|d| {
            let dc = (n * i32::from(d.column()) - columns).abs();
            let dr = (n * i32::from(d.row()) - rows).abs();
            dc.max(dr)
        })
        .sum();
    10 * total / (n * n)
}

/// A position with what its rays need: which squares hold a piece (or the stone), and the
/// table of rays. The counts look along many rays from the trolls and from where they may
/// land; a ray's nearest piece is then one mask and one bit scan, not a walk of squares.
struct Sight<'a> {
    pos: &'a Position,
    occupied: SquareSet,
    tables: &'static Tables,
    /// In classic, by direction: the dwarfs with another dwarf next to them that way, the
    /// front of a line of two or more that could hurl back along it (empty in other variants).
    pairs: [SquareSet; 8],
}

impl<'a> Sight<'a> {
    fn of(pos: &'a Position) -> Sight<'a> {
        let mut occupied = pos.dwarfs() | pos.trolls();
        if pos.cells[pos.stone().index()] == Cell::Stone {
            occupied.insert(pos.stone());
        }
        let mut pairs = [SquareSet::EMPTY; 8];
        if pos.variant() == Variant::Classic {
            let dwarfs = pos.dwarfs();
            for d in Direction::ALL {
                pairs[d as usize] = dwarfs & dwarfs.stepped(d.opposite());
            }
        }
        Sight {
            pos,
            occupied,
            tables: tables(),
            pairs,
        }
    }

    /// Looking from `target` in direction `d`: when the first piece is a dwarf, the length of
    /// its line running on away from `target` and its distance. `vacated` squares count as
    /// empty.
    fn aimed_line(&self, target: Square, d: Direction, vacated: SquareSet) -> Option<(i32, i32)> {
        let ahead = self.tables.rays[target.index()][d as usize] & (self.occupied - vacated);
        let front = if d.delta() > 0 {
            ahead.first()
        } else {
            ahead.last()
        }?;
        if self.pos.cells[front.index()] != Cell::Dwarf {
            return None;
        }
        // The dwarf's line runs on away from `target`; no longer than the distance matters.
        let distance = king_distance(target, front);
        let line = self.pos.line_length(front, d, Cell::Dwarf, distance as u8);
        Some((i32::from(line), distance))
    }
}

/// What the counts look up by square (padded index), made once: the playable squares beyond
/// it in each direction (by its place in [`Direction::ALL`]), those within one, two and three
/// king moves of it, and the squares beside the board's edge.
struct Tables {
    rays: [[SquareSet; 8]; 256],
    boxes: [[SquareSet; 256]; 3],
    edge: SquareSet,
}

fn tables() -> &'static Tables {
    static TABLES: std::sync::OnceLock<Box<Tables>> = std::sync::OnceLock::new();
    TABLES.get_or_init(|| {
        let mut tables = Box::new(Tables {
            rays: [[SquareSet::EMPTY; 8]; 256],
            boxes: [[SquareSet::EMPTY; 256]; 3],
            edge: SquareSet::EMPTY,
        });
        for sq in Square::all() {
            for d in Direction::ALL {
                let mut at = sq;
                while let Some(next) = at.step(d) {
                    tables.rays[sq.index()][d as usize].insert(next);
                    at = next;
                }
            }
            for other in Square::all() {
                let distance = king_distance(sq, other) as usize;
                for r in distance.max(1)..=3 {
                    tables.boxes[r - 1][sq.index()].insert(other);
                }
            }
            if Direction::ALL.into_iter().any(|d| sq.step(d).is_none()) {
                tables.edge.insert(sq);
            }
        }
        tables
    })
}

/// Whether a dwarf could be hurled onto `landing` if the troll from `origin` stood there.
/// In classic the troll takes every dwarf beside `landing`, so none of them can answer:
/// the hurl must come from further off.
/// `around` are the dwarfs beside `landing`.
fn covered(
    sight: &Sight,
    landing: Square,
    around: SquareSet,
    origin: Square,
    original: bool,
) -> bool {
    let mut gone = SquareSet::single(origin);
    if !original {
        gone |= around;
    }
    Direction::ALL.into_iter().any(|d| {
        // In classic the dwarfs beside `landing` are gone, so a hurl comes from two squares
        // off or more, by a line of two or more: no such pair on the ray, no hurl along it.
        if !original
            && (sight.tables.rays[landing.index()][d as usize] & sight.pairs[d as usize]).is_empty()
        {
            return false;
        }
        sight
            .aimed_line(landing, d, gone)
            .is_some_and(|(line, distance)| line >= distance)
    })
}

/// The dwarfs the troll on `t` can capture next move, by a step or a shove, landing where
/// no hurl can punish it.
fn reachable_unpunished(sight: &Sight, t: Square, original: bool) -> SquareSet {
    let pos = sight.pos;
    let mut found = SquareSet::EMPTY;
    let cells = &pos.cells;
    for d in Direction::ALL {
        let first = step_index(t.index() as u8, d);
        if cells[first as usize] != Cell::Empty {
            continue;
        }
        // The trolls behind make a line to shove along.
        let mut line = pos.line_length(t, d.opposite(), Cell::Troll, u8::MAX);
        if original && line < 2 {
            line = 1;
        }
        let mut landing = first;
        for k in 1..=line {
            if k > 1 {
                let next = step_index(landing, d);
                if cells[next as usize] != Cell::Empty {
                    break;
                }
                landing = next;
            }
            if pos.dwarf_neighbours[landing as usize] > 0 {
                // Dwarfs already found exposed need no second look at what answers.
                let landing = Square::from_index_unchecked(landing);
                let around = pos.dwarfs_around(landing);
                if !(around - found).is_empty() && !covered(sight, landing, around, t, original) {
                    found |= around;
                }
            }
        }
    }
    found
}

/// Moves a king needs between two squares.
pub(crate) fn king_distance(a: Square, b: Square) -> i32 {
    (i32::from(a.column()) - i32::from(b.column()))
        .abs()
        .max((i32::from(a.row()) - i32::from(b.row())).abs())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mirrored(pos: &Position) -> Position {
        // The board mirrored left to right: every count must stay the same.
        let fen = pos.fen();
        let (rows, side) = fen.split_once(' ').expect("a FEN has a side");
        let flipped: Vec<String> = rows
            .split('/')
            .map(|row| {
                let mut cells = Vec::new();
                let mut digits = String::new();
                for c in row.chars() {
                    if c.is_ascii_digit() {
                        digits.push(c);
                        continue;
                    }
                    if !digits.is_empty() {
                        cells.push(digits.clone());
                        digits.clear();
                    }
                    cells.push(c.to_string());
                }
                if !digits.is_empty() {
                    cells.push(digits);
                }
                cells.reverse();
                cells.concat()
            })
            .collect();
        Position::from_fen(&format!("{} {side}", flipped.join("/")), pos.variant())
            .expect("a mirrored position is valid")
    }

    /// The counts of the positions of seeded random battles, folded into one number. Speed
    /// work on the counts must not change them: this sum was made by the counts as they were
    /// before they walked the padded board, and those and the faster ones agreed on 123,192
    /// positions (docs/analysis.md, "Fifth round"). Looking along rays by bit masks, and
    /// finding the nearest troll by king-move boxes, kept the sum ("Eighth round"); so did
    /// looking from a landing square only along rays with a pair of dwarfs ("Ninth round").
    #[test]
    fn the_counts_of_random_battles_stay_as_they_were() {
        let mut sum: u64 = 0;
        let mut positions = 0;
        for variant in [Variant::Classic, Variant::Original] {
            for seed in 0..20 {
                let mut chance = crate::computer::Chance::new(seed);
                let mut pos = variant.start();
                for _ in 0..120 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() || pos.dwarfs().is_empty() || pos.trolls().is_empty() {
                        break;
                    }
                    pos.make(&moves[chance.below(moves.len())]);
                    for (i, count) in classic_features(&pos).into_iter().enumerate() {
                        sum = sum
                            .wrapping_mul(1_000_003)
                            .wrapping_add((i as u64) << 32 | count as u32 as u64);
                    }
                    positions += 1;
                }
            }
        }
        assert_eq!((positions, sum), (4_800, 9_194_838_454_294_290_030));
    }

    #[test]
    fn the_counts_do_not_change_when_the_board_is_mirrored() {
        let mut pos = Variant::Classic.start();
        for ply in 0..12 {
            let moves = pos.legal_moves();
            let mv = moves[(ply * 37) % moves.len()];
            pos = pos.after(&mv);
            assert_eq!(classic_features(&pos), classic_features(&mirrored(&pos)));
        }
    }

    #[test]
    fn a_lone_dwarf_a_troll_can_step_beside_is_exposed() {
        // The troll on H10 steps to G11, H11 or I11 and takes the dwarf on H12; nothing answers.
        let lone = Position::from_fen(
            "5/7/9/5d5/13/7T7/15/7R7/15/15/13/11/9/7/5 d",
            Variant::Classic,
        )
        .expect("a valid position");
        assert_eq!(classic_features(&lone)[2], 1);
        // Far from any troll it is safe.
        let far = Position::from_fen(
            "d4/7/9/11/13/15/15/7R7/15/15/13/11/9/3T3/5 d",
            Variant::Classic,
        )
        .expect("a valid position");
        assert_eq!(classic_features(&far)[2], 0);
    }

    #[test]
    fn a_scattered_army_counts_more_groups_and_spread_than_a_block() {
        let block = Position::from_fen(
            "5/7/9/11/13/15/15/6TR7/15/15/13/2ddd6/2ddd4/2d4/5 t",
            Variant::Classic,
        )
        .expect("a valid position");
        let scattered = Position::from_fen(
            "d3d/7/9/11/13/d14/15/6TR6d/15/15/13/2d8/5d3/2d4/5 t",
            Variant::Classic,
        )
        .expect("a valid position");
        let (b, s) = (classic_features(&block), classic_features(&scattered));
        assert_eq!(b[8], 1);
        assert_eq!(s[8], 7);
        assert!(s[13] > b[13]);
        assert_eq!(b[1], 0);
        assert_eq!(s[1], 7);
    }
}
