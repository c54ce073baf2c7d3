//! The search: negamax alpha-beta with principal-variation windows, iterative deepening, a
//! transposition table, captures first then killer and history moves, late-move reductions
//! (where the settings ask for them), a null move, futility pruning at the frontier, and a
//! look at captures (quiescence) after the last ply so no exchange is cut off halfway.
//!
//! Why this search: Thud has a few hundred dwarf moves a ply and its tactics are short and
//! sharp (a troll steps in and takes three dwarfs, a dwarf line hurls back), so the score
//! swings only on captures. Alpha-beta with good ordering and a quiescence search on captures
//! is the proven path for such games (chess, and koedem/Thud); Monte-Carlo playouts would
//! spend their time on random moves that shed pieces, which tells little about real play.

use std::time::Instant;

use crate::game::{Move, Position, Side, Variant};

use super::candidates::{candidates, captures, is_forcing};
use super::evaluation::{evaluate, final_value, WIN, WIN_BOUND};
use super::features::Weights;
use super::level::Settings;
use super::transposition::{key_after, key_of, Bound, Entry, Table, TROLLS_TO_MOVE};

const INFINITY: i32 = WIN + 1;
const MAX_PLY: usize = 96;
/// How many captures deep the look after the last ply goes.
const MAX_QUIESCENCE: usize = 8;
/// At the last ply, a quiet move this far below alpha is not tried.
const FUTILITY_MARGIN: i32 = 180;
/// A capture that cannot bring the score within this of alpha is not tried.
const DELTA_MARGIN: i32 = 150;
/// A new iteration starts only before this share of the time has gone.
const DEEPEN_BEFORE: f64 = 0.6;
/// Slots of the static values remembered (a power of two).
const VALUES: usize = 1 << 16;
/// An empty slot's value, which no evaluation returns.
const NO_VALUE: i32 = i32::MIN;

/// What the search found at the root.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Found {
    pub best: Move,
    /// For the side to move, in hundredths of a dwarf.
    pub score: i32,
    /// The deepest iteration completed (0 when even the first was cut short).
    pub depth: u8,
    pub nodes: u64,
    /// The mean of the scores of the last two iterations completed (the last alone when only
    /// one was, the static value when none was): a score cut after the side to move sees
    /// more or less than its opponent swings between odd and even depths, and an iteration
    /// cut short mixes both, so a judgement of the position rather than of the move is steadier
    /// this way.
    pub settled: i32,
}

pub(crate) struct Search<'t> {
    pos: Position,
    key: u64,
    keys: Vec<u64>,
    table: &'t mut Table,
    plain: bool,
    /// Whether late quiet moves are searched shallower (see `Settings::late_move_reductions`).
    reduce: bool,
    weights: Weights,
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
    lists: Vec<Vec<(i32, Move)>>,
    /// Each ply's generated moves, kept to save allocating them again at every node.
    move_lists: Vec<Vec<Move>>,
    /// Static values by key: every iteration of the deepening evaluates again the positions
    /// the last one did, and the evaluation is most of a search's time.
    values: Vec<(u64, i32)>,
    nodes: u64,
    node_limit: u64,
    started: Instant,
    deadline: Instant,
    stopped: bool,
}

impl<'t> Search<'t> {
    pub fn new(pos: &Position, table: &'t mut Table, settings: &Settings) -> Search<'t> {
        let started = Instant::now();
        Search {
            pos: pos.clone(),
            key: key_of(pos),
            keys: Vec::with_capacity(MAX_PLY),
            table,
            plain: settings.plain_evaluation,
            reduce: settings.late_move_reductions,
            weights: settings.weights.of(pos.side_to_move()),
            killers: vec![[None; 2]; MAX_PLY],
            history: vec![0; 256 * 256],
            lists: (0..MAX_PLY).map(|_| Vec::with_capacity(256)).collect(),
            move_lists: (0..MAX_PLY).map(|_| Vec::with_capacity(256)).collect(),
            values: vec![(0, NO_VALUE); VALUES],
            nodes: 0,
            node_limit: settings.nodes,
            started,
            deadline: started + settings.time,
            stopped: false,
        }
    }

    /// Iterative deepening to `max_depth` plies or the deadline, whichever comes first.
    /// `order` decides between moves the ordering finds equal (the seed's choice).
    pub fn iterate(&mut self, max_depth: u8, order: &[Move]) -> Option<Found> {
        let mut moves = self.root_moves(order);
        let mut found = Found {
            best: *moves.first()?,
            score: self.value(),
            depth: 0,
            nodes: 0,
            settled: self.value(),
        };
        let mut completed: Vec<i32> = Vec::new();
        let budget = self.deadline.saturating_duration_since(self.started);
        for depth in 1..=max_depth.max(1) {
            let (best, score) = self.root(&mut moves, depth as i32);
            // A move that beat alpha beat the last iteration's choice on this search's terms,
            // even when the deadline cut the iteration short.
            if let Some(best) = best {
                found.best = best;
                found.score = score;
                if !self.stopped {
                    found.depth = depth;
                    completed.push(score);
                }
            }
            // A deeper iteration costs several times the last one, so one started late rarely
            // ends; but its first moves are the best ones, and one that beats alpha is played.
            if self.stopped
                || score.abs() > WIN_BOUND
                || self.started.elapsed() > budget.mul_f64(DEEPEN_BEFORE)
            {
                break;
            }
        }
        found.nodes = self.nodes;
        found.settled = match completed.as_slice() {
            [.., a, b] => (a + b) / 2,
            [a] => *a,
            [] => found.score,
        };
        Some(found)
    }

    /// The exact score of every root move at `depth`, for the levels that choose among them.
    /// Moves the deadline left unsearched are missing.
    pub fn score_each(&mut self, depth: u8, order: &[Move]) -> Vec<(Move, i32)> {
        let moves = self.root_moves(order);
        let mut scored = Vec::with_capacity(moves.len());
        for mv in moves {
            self.play(&mv);
            let score = -self.negamax(depth as i32 - 1, 1, -INFINITY, INFINITY, true);
            self.take_back(&mv);
            if self.stopped {
                break;
            }
            scored.push((mv, score));
        }
        scored
    }

    /// The candidate moves at the root, in `order`'s order as far as the ordering is level.
    fn root_moves(&mut self, order: &[Move]) -> Vec<Move> {
        let mut moves = Vec::new();
        candidates(&self.pos, &mut moves);
        let rank = |m: &Move| order.iter().position(|o| o == m).unwrap_or(usize::MAX);
        let mut keyed: Vec<(i32, usize, Move)> = moves
            .iter()
            .map(|m| (self.order_score(m, None, 0), rank(m), *m))
            .collect();
        keyed.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        keyed.into_iter().map(|(_, _, m)| m).collect()
    }

    /// One full-window iteration over the root moves: the move that beat the others, if the
    /// deadline left one, moved to the front for the next iteration, with its score.
    /// (Aspiration windows, a narrow window around the last iteration's score widened when it
    /// fails, were tried and measured worse; see docs/computer-log.md.)
    fn root(&mut self, moves: &mut [Move], depth: i32) -> (Option<Move>, i32) {
        let (mut alpha, beta) = (-INFINITY, INFINITY);
        let mut best: Option<(usize, i32)> = None;
        for (i, &mv) in moves.iter().enumerate() {
            self.play(&mv);
            let mut score;
            if i == 0 {
                score = -self.negamax(depth - 1, 1, -beta, -alpha, true);
            } else {
                score = -self.negamax(depth - 1, 1, -alpha - 1, -alpha, true);
                if score > alpha && !self.stopped {
                    score = -self.negamax(depth - 1, 1, -beta, -alpha, true);
                }
            }
            self.take_back(&mv);
            if self.stopped {
                break;
            }
            if score > alpha {
                alpha = score;
                best = Some((i, score));
            }
        }
        match best {
            Some((i, score)) => {
                moves[..=i].rotate_right(1);
                (Some(moves[0]), score)
            }
            None => (None, alpha),
        }
    }

    fn negamax(&mut self, depth: i32, ply: usize, mut alpha: i32, beta: i32, null: bool) -> i32 {
        if depth <= 0 || ply >= MAX_PLY - MAX_QUIESCENCE - 2 {
            return self.quiesce(ply, 0, alpha, beta);
        }
        if self.tick() {
            return 0;
        }
        if let Some(winner) = self.pos.objective_reached() {
            return self.decided(winner, ply);
        }
        let pv = beta - alpha > 1;
        let mut table_move = None;
        if let Some(entry) = self.table.probe(self.key) {
            table_move = entry.best;
            let score = from_table(entry.score, ply);
            if !pv && entry.depth as i32 >= depth {
                match entry.bound {
                    Bound::Exact => return score,
                    Bound::Lower if score >= beta => return score,
                    Bound::Upper if score <= alpha => return score,
                    _ => {}
                }
            }
        }
        // The static value is wanted only by the null move and futility pruning; the
        // evaluation is most of a search's time, so other nodes skip it.
        let may_pass = !pv && null && depth >= 3 && beta.abs() < WIN_BOUND;
        let frontier = depth == 1 && !pv;
        let static_value = (may_pass || frontier).then(|| self.value());
        // Passing is not allowed, but if passing still beats beta a real move would too.
        if may_pass && static_value.is_some_and(|value| value >= beta) {
            let score = self.pass(depth - 3, ply, beta);
            if self.stopped {
                return 0;
            }
            if score >= beta {
                return beta;
            }
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        self.fill(&mut list, table_move, ply);
        let result = if list.is_empty() {
            self.side_value(final_value(&self.pos))
        } else {
            let futile = static_value.filter(|value| frontier && value + FUTILITY_MARGIN <= alpha);
            self.search_moves(&list, depth, ply, &mut alpha, beta, futile)
        };
        self.lists[ply] = list;
        result
    }

    /// `futile` is the static value when quiet moves cannot bring the score up to alpha: only
    /// forcing moves are tried, and standing on that value is the floor.
    fn search_moves(
        &mut self,
        list: &[(i32, Move)],
        depth: i32,
        ply: usize,
        alpha: &mut i32,
        beta: i32,
        futile: Option<i32>,
    ) -> i32 {
        let original_alpha = *alpha;
        let mut best = futile.unwrap_or(-INFINITY);
        let mut best_move = None;
        for (i, &(_, mv)) in list.iter().enumerate() {
            let forcing = is_forcing(&self.pos, &mv);
            if futile.is_some() && !forcing {
                continue;
            }
            let killer = self.killers[ply].contains(&Some(mv));
            self.play(&mv);
            let mut score;
            if i == 0 {
                score = -self.negamax(depth - 1, ply + 1, -beta, -*alpha, true);
            } else {
                let reduction = if self.reduce && depth >= 3 && i >= 3 && !forcing && !killer {
                    1 + i32::from(i >= 16 && depth >= 4)
                } else {
                    0
                };
                score = -self.negamax(depth - 1 - reduction, ply + 1, -*alpha - 1, -*alpha, true);
                if score > *alpha && reduction > 0 && !self.stopped {
                    score = -self.negamax(depth - 1, ply + 1, -*alpha - 1, -*alpha, true);
                }
                if score > *alpha && score < beta && !self.stopped {
                    score = -self.negamax(depth - 1, ply + 1, -beta, -*alpha, true);
                }
            }
            self.take_back(&mv);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
            }
            if score > *alpha {
                *alpha = score;
            }
            if *alpha >= beta {
                if !forcing {
                    let slot = &mut self.killers[ply];
                    if slot[0] != Some(mv) {
                        slot[1] = slot[0];
                        slot[0] = Some(mv);
                    }
                    let h = &mut self.history[mv.from().index() * 256 + mv.to().index()];
                    *h = (*h + depth * depth).min(1 << 20);
                }
                break;
            }
        }
        let bound = if best <= original_alpha {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table.store(Entry {
            key: self.key,
            best: best_move,
            score: to_table(best, ply),
            depth: depth as i8,
            bound,
        });
        best
    }

    /// The look at captures after the last ply: the side to move may stand on the static
    /// value or play a forcing move.
    fn quiesce(&mut self, ply: usize, depth: usize, mut alpha: i32, beta: i32) -> i32 {
        if self.tick() {
            return 0;
        }
        if let Some(winner) = self.pos.objective_reached() {
            return self.decided(winner, ply);
        }
        let stand = self.value();
        if stand >= beta || depth >= MAX_QUIESCENCE || ply >= MAX_PLY - 1 {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut list = std::mem::take(&mut self.lists[ply]);
        list.clear();
        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        moves.clear();
        // Classic and original dwarfs capture only by hurling, and hurls are quick to find.
        let hurls_only =
            self.pos.variant() != Variant::KoomValley && self.pos.side_to_move() == Side::Dwarfs;
        let no_moves = if hurls_only {
            self.pos.hurls(&mut moves);
            moves.is_empty() && !self.pos.has_legal_move()
        } else {
            candidates(&self.pos, &mut moves);
            moves.is_empty()
        };
        let value_of_capture = capture_value(&self.pos);
        for &mv in &moves {
            if is_forcing(&self.pos, &mv) {
                let gain = captures(&mv) as i32 * value_of_capture;
                if gain > 0 && stand + gain + DELTA_MARGIN <= alpha {
                    continue;
                }
                list.push((gain, mv));
            }
        }
        list.sort_unstable_by_key(|&(score, _)| std::cmp::Reverse(score));
        let mut best = stand;
        if no_moves {
            best = self.side_value(final_value(&self.pos));
        }
        for &(_, mv) in &list {
            self.play(&mv);
            let score = -self.quiesce(ply + 1, depth + 1, -beta, -alpha);
            self.take_back(&mv);
            if self.stopped {
                best = 0;
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.lists[ply] = list;
        self.move_lists[ply] = moves;
        best
    }

    /// Searches as if the side to move passed: the null move.
    fn pass(&mut self, depth: i32, ply: usize, beta: i32) -> i32 {
        let side = self.pos.side_to_move().opposite();
        let passed = self.pos.clone().with_side_to_move(side);
        let saved = std::mem::replace(&mut self.pos, passed);
        self.key ^= TROLLS_TO_MOVE;
        let score = -self.negamax(depth, ply + 1, -beta, -beta + 1, false);
        self.key ^= TROLLS_TO_MOVE;
        self.pos = saved;
        score
    }

    /// Fills `list` with the candidate moves, best-looking first.
    fn fill(&mut self, list: &mut Vec<(i32, Move)>, table_move: Option<Move>, ply: usize) {
        list.clear();
        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        moves.clear();
        candidates(&self.pos, &mut moves);
        for &mv in &moves {
            list.push((self.order_score(&mv, table_move, ply), mv));
        }
        self.move_lists[ply] = moves;
        list.sort_unstable_by_key(|&(score, _)| std::cmp::Reverse(score));
    }

    fn order_score(&self, mv: &Move, table_move: Option<Move>, ply: usize) -> i32 {
        if Some(*mv) == table_move {
            return 1 << 30;
        }
        if is_forcing(&self.pos, mv) {
            return (1 << 28) + captures(mv) as i32 * capture_value(&self.pos) + 50;
        }
        let killers = &self.killers[ply.min(MAX_PLY - 1)];
        if killers[0] == Some(*mv) {
            return 1 << 27;
        }
        if killers[1] == Some(*mv) {
            return (1 << 27) - 1;
        }
        self.history[mv.from().index() * 256 + mv.to().index()]
    }

    fn play(&mut self, mv: &Move) {
        self.keys.push(self.key);
        self.key = key_after(self.key, mv);
        self.pos.make(mv);
    }

    fn take_back(&mut self, mv: &Move) {
        self.pos.unmake(mv);
        self.key = self.keys.pop().unwrap_or(self.key);
    }

    /// Counts a node; true once the deadline or the node budget has passed.
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.node_limit
            || (self.nodes & 1023 == 0 && Instant::now() >= self.deadline)
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// The static value for the side to move.
    fn value(&mut self) -> i32 {
        let slot = (self.key as usize) & (VALUES - 1);
        let (key, value) = self.values[slot];
        let for_dwarfs = if key == self.key && value != NO_VALUE {
            value
        } else {
            let value = evaluate(&self.pos, self.plain, &self.weights);
            self.values[slot] = (self.key, value);
            value
        };
        self.side_value(for_dwarfs)
    }

    fn side_value(&self, for_dwarfs: i32) -> i32 {
        match self.pos.side_to_move() {
            Side::Dwarfs => for_dwarfs,
            Side::Trolls => -for_dwarfs,
        }
    }

    /// A won or lost Koom Valley battle, sooner being better for the winner.
    fn decided(&self, winner: Side, ply: usize) -> i32 {
        let value = WIN - ply as i32;
        if winner == self.pos.side_to_move() {
            value
        } else {
            -value
        }
    }
}

/// What one captured piece is worth to the side to move.
fn capture_value(pos: &Position) -> i32 {
    use super::evaluation::{DWARF, TROLL};
    match (pos.side_to_move(), pos.variant()) {
        (Side::Trolls, _) => DWARF,
        (Side::Dwarfs, Variant::KoomValley) => 300,
        (Side::Dwarfs, _) => TROLL,
    }
}

/// Win scores are stored relative to the node, so they stay right wherever the node recurs.
fn to_table(score: i32, ply: usize) -> i32 {
    if score > WIN_BOUND {
        score + ply as i32
    } else if score < -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score > WIN_BOUND {
        score - ply as i32
    } else if score < -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}
