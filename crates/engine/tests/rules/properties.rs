//! Properties that hold in every position: checked along random battles from each variant's
//! start, in random positions, and against random text.

use std::collections::HashSet;

use proptest::prelude::*;

use crate::strategies::{variant_strategy, written_position};
use thud_engine::game::{
    parse_square_list, Battle, BattleEnd, Move, MoveText, Piece, Position, Side, Square, SquareSet,
    Variant,
};

/// A small random number generator driven by proptest's numbers, so failures shrink and
/// repeat.
struct Dice(u64);

impl Dice {
    fn new(seed: u64) -> Dice {
        Dice(seed | 1)
    }

    fn roll(&mut self, sides: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % sides.max(1) as u64) as usize
    }
}

/// What the random checks reached, so that a test can show they are not vacuous.
#[derive(Default, Debug)]
struct Tally {
    positions: u64,
    texts_accepted: u64,
    texts_refused: u64,
    captures: u64,
    battles_stuck: u64,
    objectives: u64,
}

/// The same pieces read back from the position's own text.
fn check_fen_round_trip(position: &Position) -> Result<(), TestCaseError> {
    let text = position.to_string();
    let back = Position::from_fen(&text, position.variant());
    prop_assert_eq!(back.as_ref(), Ok(position), "{}", text);
    Ok(())
}

/// The move list has no duplicates and counting agrees with listing.
fn check_move_list(position: &Position, moves: &[Move]) -> Result<(), TestCaseError> {
    let distinct: HashSet<&Move> = moves.iter().collect();
    prop_assert_eq!(
        distinct.len(),
        moves.len(),
        "a move listed twice in {}",
        position
    );
    let texts: HashSet<String> = moves.iter().map(ToString::to_string).collect();
    prop_assert_eq!(
        texts.len(),
        moves.len(),
        "two moves print alike in {}",
        position
    );
    prop_assert_eq!(
        position.count_legal_moves(),
        moves.len() as u64,
        "{}",
        position
    );
    Ok(())
}

/// Every legal move, printed and read back, is the same move; so is its text in lower case
/// without the piece letter.
fn check_notation_round_trip(position: &Position, moves: &[Move]) -> Result<(), TestCaseError> {
    for mv in moves {
        let text = mv.to_string();
        let parsed: MoveText = text
            .parse()
            .map_err(|e| TestCaseError::fail(format!("{text} does not read back: {e}")))?;
        prop_assert_eq!(
            position.resolve(&parsed),
            Ok(*mv),
            "{} in {}",
            text,
            position
        );
        let casual = text[1..].to_ascii_lowercase();
        let parsed: MoveText = casual
            .parse()
            .map_err(|e| TestCaseError::fail(format!("{casual} does not read back: {e}")))?;
        prop_assert_eq!(
            position.resolve(&parsed),
            Ok(*mv),
            "{} in {}",
            casual,
            position
        );
    }
    Ok(())
}

/// Pieces leave the board only as captures, and the stone moves only by a Rock move.
fn check_pieces_after(position: &Position, mv: &Move) -> Result<(), TestCaseError> {
    let after = position.after(mv);
    let captured = mv.captured();
    let (from, to) = (SquareSet::single(mv.from()), SquareSet::single(mv.to()));
    let (dwarfs, trolls) = (position.dwarfs(), position.trolls());
    match mv.piece() {
        Piece::Dwarf => {
            prop_assert!(dwarfs.contains(mv.from()), "{}", mv);
            prop_assert_eq!((captured - trolls).len(), 0, "{} captures a non-troll", mv);
            prop_assert_eq!(after.dwarfs(), (dwarfs - from) | to, "{}", mv);
            prop_assert_eq!(after.trolls(), trolls - captured, "{}", mv);
            prop_assert_eq!(after.stone(), position.stone(), "{}", mv);
        }
        Piece::Troll => {
            prop_assert!(trolls.contains(mv.from()), "{}", mv);
            prop_assert_eq!((captured - dwarfs).len(), 0, "{} captures a non-dwarf", mv);
            prop_assert_eq!(after.trolls(), (trolls - from) | to, "{}", mv);
            prop_assert_eq!(after.dwarfs(), dwarfs - captured, "{}", mv);
            prop_assert_eq!(after.stone(), position.stone(), "{}", mv);
        }
        Piece::Stone => {
            prop_assert_eq!(position.variant(), Variant::KoomValley);
            prop_assert!(captured.is_empty());
            prop_assert_eq!(after.dwarfs(), dwarfs);
            prop_assert_eq!(after.trolls(), trolls);
            prop_assert_eq!(after.stone(), mv.to());
        }
    }
    prop_assert_eq!(
        after.dwarfs().len() + after.trolls().len() + captured.len(),
        dwarfs.len() + trolls.len(),
        "{}",
        mv
    );
    prop_assert_eq!(after.side_to_move(), position.side_to_move().opposite());
    Ok(())
}

/// A battle is over exactly when the side to move has no legal move (a Koom Valley battle
/// just won has none), and then says why.
fn check_battle_end(battle: &Battle) -> Result<(), TestCaseError> {
    let position = battle.position();
    let stuck = position.legal_moves().is_empty();
    prop_assert_eq!(battle.is_over(), stuck, "{}", position);
    prop_assert_eq!(position.has_legal_move(), !stuck);
    // Moves listed piece by piece are exactly the legal moves from each square.
    let all = position.legal_moves();
    for sq in thud_engine::game::Square::all() {
        let mut from_here: Vec<_> = all.iter().copied().filter(|m| m.from() == sq).collect();
        let mut listed = position.legal_moves_from(sq);
        from_here.sort_by_key(|m| m.to_string());
        listed.sort_by_key(|m| m.to_string());
        prop_assert_eq!(listed, from_here, "{} from {}", position, sq);
    }
    if stuck {
        let expected = match position.objective_reached() {
            Some(winner) => BattleEnd::Objective { winner },
            None => BattleEnd::NoLegalMove {
                side: position.side_to_move(),
            },
        };
        prop_assert_eq!(battle.end(), Some(expected));
        prop_assert!(battle.result().is_some());
        prop_assert_eq!(battle.side_to_move(), None);
    }
    Ok(())
}

/// Random move text of the kind a player might type: a start square (often one of the
/// mover's pieces), one or more landings, and some captures around the landing.
fn random_text(position: &Position, dice: &mut Dice) -> MoveText {
    let all: Vec<Square> = Square::all().collect();
    let mine: Vec<Square> = match position.side_to_move() {
        Side::Dwarfs => position.dwarfs().iter().chain([position.stone()]).collect(),
        Side::Trolls => position.trolls().iter().collect(),
    };
    let from = if !mine.is_empty() && dice.roll(4) > 0 {
        mine[dice.roll(mine.len())]
    } else {
        all[dice.roll(all.len())]
    };
    let mut squares = vec![from];
    let mut at = from;
    for _ in 0..1 + (dice.roll(6) / 5) * dice.roll(3) {
        // Mostly short straight steps, sometimes anywhere.
        let next = if dice.roll(3) > 0 {
            let direction = thud_engine::game::Direction::ALL[dice.roll(8)];
            let mut s = at;
            for _ in 0..1 + dice.roll(4) {
                s = s.step(direction).unwrap_or(s);
            }
            s
        } else {
            all[dice.roll(all.len())]
        };
        squares.push(next);
        at = next;
    }
    let mut captures = Vec::new();
    for _ in 0..dice.roll(4) {
        let around: Vec<Square> = thud_engine::game::Direction::ALL
            .iter()
            .filter_map(|&d| at.step(d))
            .collect();
        let pick = if dice.roll(5) > 0 && !around.is_empty() {
            around[dice.roll(around.len())]
        } else {
            all[dice.roll(all.len())]
        };
        captures.push(pick);
    }
    MoveText {
        piece: None,
        squares,
        captures,
    }
}

/// Whatever the validator accepts is a generated move, and the one the text names.
fn check_accepted_is_generated(
    position: &Position,
    moves: &[Move],
    text: &MoveText,
    tally: &mut Tally,
) -> Result<(), TestCaseError> {
    let before = position.clone();
    let Ok(mv) = position.resolve(text) else {
        tally.texts_refused += 1;
        return Ok(());
    };
    tally.texts_accepted += 1;
    prop_assert_eq!(position, &before);
    prop_assert!(
        moves.contains(&mv),
        "{} accepted as {} in {}",
        text,
        mv,
        position
    );
    prop_assert_eq!(mv.from(), text.from(), "{}", text);
    prop_assert_eq!(mv.to(), text.to(), "{}", text);
    let named: SquareSet = text.captures.iter().copied().collect();
    let automatic = position.variant() == Variant::KoomValley || matches!(mv, Move::Hurl { .. });
    if !(named.is_empty() && automatic) {
        prop_assert_eq!(mv.captured(), named, "{} accepted as {}", text, mv);
    }
    Ok(())
}

/// Checks every property at one position; `dice` picks the random texts.
fn check_position(
    position: &Position,
    dice: &mut Dice,
    with_notation: bool,
    tally: &mut Tally,
) -> Result<Vec<Move>, TestCaseError> {
    tally.positions += 1;
    let moves = position.legal_moves();
    check_move_list(position, &moves)?;
    check_fen_round_trip(position)?;
    if with_notation {
        check_notation_round_trip(position, &moves)?;
    }
    for _ in 0..12 {
        let text = random_text(position, dice);
        check_accepted_is_generated(position, &moves, &text, tally)?;
    }
    // Near misses: a legal move with a capture dropped, added or swapped.
    if !moves.is_empty() {
        let mv = moves[dice.roll(moves.len())];
        let mut text: MoveText = mv.to_string().parse().unwrap();
        match dice.roll(3) {
            0 => {
                text.captures.pop();
            }
            1 => text
                .captures
                .push(Square::all().nth(dice.roll(165)).unwrap()),
            _ => text.captures.reverse(),
        }
        check_accepted_is_generated(position, &moves, &text, tally)?;
    }
    Ok(moves)
}

/// Plays a random battle of up to `choices.len()` moves from `start`, checking every
/// position on the way.
fn random_battle(
    start: Position,
    choices: &[u32],
    seed: u64,
    tally: &mut Tally,
) -> Result<(), TestCaseError> {
    let mut dice = Dice::new(seed);
    let mut battle = Battle::from_position(start);
    for (ply, &choice) in choices.iter().enumerate() {
        let position = battle.position().clone();
        let moves = check_position(&position, &mut dice, ply % 8 == 0, tally)?;
        check_battle_end(&battle)?;
        if moves.is_empty() {
            tally.battles_stuck += 1;
            if position.objective_reached().is_some() {
                tally.objectives += 1;
            }
            prop_assert!(battle.clone().end_by_agreement().is_err(), "already over");
            return Ok(());
        }
        // Captures are favoured half the time, so battles thin out and reach their ends.
        let captures: Vec<&Move> = moves.iter().filter(|m| !m.captured().is_empty()).collect();
        let mv = if !captures.is_empty() && choice % 2 == 0 {
            *captures[(choice / 2) as usize % captures.len()]
        } else {
            moves[choice as usize % moves.len()]
        };
        check_pieces_after(&position, &mv)?;
        if !mv.captured().is_empty() {
            tally.captures += 1;
        }
        battle
            .play_move(mv)
            .map_err(|e| TestCaseError::fail(format!("{mv} refused in {position}: {e}")))?;
        prop_assert_eq!(battle.position(), &position.after(&mv));
    }
    check_battle_end(&battle)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_classic_battles_keep_every_property(
        choices in prop::collection::vec(any::<u32>(), 0..100),
        seed in any::<u64>(),
    ) {
        random_battle(Variant::Classic.start(), &choices, seed, &mut Tally::default())?;
    }

    #[test]
    fn random_original_battles_keep_every_property(
        choices in prop::collection::vec(any::<u32>(), 0..100),
        seed in any::<u64>(),
    ) {
        random_battle(Variant::Original.start(), &choices, seed, &mut Tally::default())?;
    }

    #[test]
    fn random_koom_valley_battles_keep_every_property(
        choices in prop::collection::vec(any::<u32>(), 0..150),
        seed in any::<u64>(),
    ) {
        random_battle(Variant::KoomValley.start(), &choices, seed, &mut Tally::default())?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Sparse random positions reach what battles from the start rarely do: sides with no
    /// pieces, trolls with no move, Koom Valley objectives already reached.
    #[test]
    fn random_positions_keep_every_property(
        variant in variant_strategy(),
        stone in 0usize..165,
        dwarfs in prop::collection::vec(0usize..165, 0..16),
        trolls in prop::collection::vec(0usize..165, 0..8),
        dwarfs_to_move in any::<bool>(),
        choices in prop::collection::vec(any::<u32>(), 0..12),
        seed in any::<u64>(),
    ) {
        let fen = written_position(stone, &dwarfs, &trolls, dwarfs_to_move);
        let position = Position::from_fen(&fen, variant)
            .map_err(|e| TestCaseError::fail(format!("{fen}: {e}")))?;
        let mut tally = Tally::default();
        let mut dice = Dice::new(seed);
        check_position(&position, &mut dice, true, &mut tally)?;
        random_battle(position, &choices, seed, &mut tally)?;
    }

    #[test]
    fn square_text_never_panics(text in "\\PC{0,12}", near in "[a-pA-P ]{0,2}[0-9 ]{0,4}") {
        for t in [&text, &near] {
            if let Ok(sq) = t.parse::<Square>() {
                prop_assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
            }
            let _ = parse_square_list(t);
        }
    }

    #[test]
    fn move_text_never_panics_and_resolving_it_never_panics(
        text in "\\PC{0,30}",
        near in "[dDtTrR]?[a-pA-P ][0-9]{1,2}( ?- ?[a-pA-P][0-9]{1,2}){0,3}( ?[xX,] ?[a-pA-P][0-9]{1,2}){0,4}",
    ) {
        for t in [&text, &near] {
            if let Ok(parsed) = t.parse::<MoveText>() {
                prop_assert!(parsed.squares.len() >= 2);
                for variant in Variant::ALL {
                    let start = variant.start();
                    if let Ok(mv) = start.resolve(&parsed) {
                        prop_assert!(start.legal_moves().contains(&mv));
                    }
                    let trolls = start.clone().with_side_to_move(Side::Trolls);
                    let _ = trolls.resolve(&parsed);
                }
            }
        }
    }

    #[test]
    fn position_text_never_panics(
        text in "\\PC{0,80}",
        near in "([dDtTrR0-9]{0,6}/){0,16}[dDtTrR0-9]{0,6} ?[dtx]?",
    ) {
        for t in [&text, &near] {
            for variant in Variant::ALL {
                if let Ok(position) = Position::from_fen(t, variant) {
                    check_fen_round_trip(&position)?;
                }
            }
            let _ = t.parse::<Variant>();
        }
    }
}

/// The same checks with fixed seeds, counting what they reached: random texts are sometimes
/// accepted (so "accepted implies generated" is tested), captures happen, battles get stuck
/// and Koom Valley objectives are reached.
#[test]
fn the_random_checks_reach_what_they_check() {
    let mut tally = Tally::default();
    let mut dice = Dice::new(7);
    for variant in Variant::ALL {
        for _ in 0..6 {
            let choices: Vec<u32> = (0..150).map(|_| dice.roll(1 << 30) as u32).collect();
            random_battle(
                variant.start(),
                &choices,
                dice.roll(1 << 30) as u64,
                &mut tally,
            )
            .unwrap();
        }
    }
    for i in 0..300 {
        let variant = Variant::ALL[i % 3];
        let dwarfs: Vec<usize> = (0..dice.roll(16)).map(|_| dice.roll(165)).collect();
        let trolls: Vec<usize> = (0..dice.roll(8)).map(|_| dice.roll(165)).collect();
        let fen = written_position(dice.roll(165), &dwarfs, &trolls, dice.roll(2) == 0);
        let position = Position::from_fen(&fen, variant).unwrap();
        let choices: Vec<u32> = (0..12).map(|_| dice.roll(1 << 30) as u32).collect();
        random_battle(position, &choices, i as u64, &mut tally).unwrap();
    }
    eprintln!("{tally:?}");
    assert!(tally.texts_accepted > 100, "{tally:?}");
    assert!(tally.texts_refused > 1000, "{tally:?}");
    assert!(tally.captures > 100, "{tally:?}");
    assert!(tally.battles_stuck > 10, "{tally:?}");
    assert!(tally.objectives > 0, "{tally:?}");
}
