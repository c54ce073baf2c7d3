//! The analysis's tests: planted blunders found, moves as good cleared, judgements repeatable.

use super::*;
use crate::game::{Battle, MoveText};

/// Trolls to move; a line of three dwarfs on column H reaches H5 to H7, so the troll on
/// I6 stepping onto H7 is hurled and lost.
const PLANTED: &str = "5/7/9/3T7/13/15/15/7R7/15/8T6/13/5d5/4d4/3d3/5 t";

fn planted() -> Position {
    PLANTED.parse().expect("the planted position reads")
}

fn play(position: &Position, text: &str) -> Move {
    let mut battle = Battle::from_position(position.clone());
    let text: MoveText = text.parse().expect("move text");
    battle.play(&text).expect("legal")
}

#[test]
fn the_planted_position_is_what_the_test_says() {
    let p = planted();
    assert_eq!(p.side_to_move(), Side::Trolls);
    assert_eq!(p.trolls().len(), 2);
    assert_eq!(p.dwarfs().len(), 3);
    let blunder = play(&p, "TI6-H7");
    let after = p.after(&blunder);
    let hurl = play(&after, "dH4-H7xH7");
    assert_eq!(after.after(&hurl).trolls().len(), 1);
}

#[test]
fn a_troll_walked_into_a_hurl_is_the_trolls_worst_move_and_a_better_one_is_named() {
    let start = planted();
    let blunder = play(&start, "TI6-H7");
    let after = start.after(&blunder);
    let hurl = play(&after, "dH4-H7xH7");
    let moves = [blunder, hurl];
    let budget = Budget { nodes: 20_000 };
    let mut position = start.clone();
    let mut judgements = vec![judge(&position, &budget)];
    for mv in &moves {
        position.make(mv);
        judgements.push(judge(&position, &budget));
    }
    let reviews = review(&start, &moves, &judgements);
    assert_eq!(reviews.len(), 2);
    let first = reviews[0];
    assert_eq!(first.side, Side::Trolls);
    assert!(first.cost >= 250, "{first:?}");
    let better = first.better.expect("a better move is named");
    assert_ne!(better, blunder);
    // The better move keeps the troll: after it, no hurl takes one.
    let saved = start.after(&better);
    let mut replies = saved.legal_moves();
    replies.retain(|m| !m.captured().is_empty());
    assert!(replies.iter().all(|r| saved.after(r).trolls().len() == 2));
    // The hurl was the dwarfs' best: it costs nothing.
    assert_eq!(reviews[1].cost, 0, "{:?}", reviews[1]);
    assert_eq!(reviews[1].captures, 1);
    let worst = mistakes(&reviews, Side::Trolls, 100, 3);
    assert_eq!(worst.len(), 1);
    assert_eq!(worst[0].played, blunder);
    assert!(mistakes(&reviews, Side::Dwarfs, 100, 3).is_empty());
}

#[test]
fn a_deeper_look_confirms_the_troll_walked_into_a_hurl() {
    let start = planted();
    let blunder = play(&start, "TI6-H7");
    let budget = Budget { nodes: 20_000 };
    let after = judge(&start.after(&blunder), &budget);
    let judged = judge_move(&start, &blunder, after.score, &budget);
    let better = judged.best.expect("a move");
    assert_ne!(better, blunder);
    // The trolls' loss, by both looks, is at least a mistake's worth.
    assert!(
        after.score - judged.score >= MISTAKE,
        "{judged:?} {after:?}"
    );
}

#[test]
fn two_moves_are_compared_at_one_depth() {
    // Two positions after different first moves, under a budget that stops their searches
    // at different depths: both are scored at the shallower one.
    let start = crate::game::Variant::Classic.start();
    let budget = Budget { nodes: 8_000 };
    let mut depths = Vec::new();
    for mv in start.legal_moves().into_iter().step_by(8) {
        let after = start.after(&mv);
        depths.push((judge(&after, &budget).depth, after));
    }
    let deepest = depths.iter().max_by_key(|(d, _)| *d).expect("moves");
    let shallowest = depths.iter().min_by_key(|(d, _)| *d).expect("moves");
    assert!(
        deepest.0 > shallowest.0,
        "every search reached depth {}",
        deepest.0
    );
    let eye = Eye::standard(start.variant());
    let (a, b) = alike(
        &deepest.1,
        judge(&deepest.1, &budget),
        &shallowest.1,
        &budget,
        &eye,
    );
    assert_eq!(a, judge_within(&deepest.1, &budget, shallowest.0, &eye).raw);
    assert_eq!(b, judge(&shallowest.1, &budget).raw);
    assert_ne!(
        a,
        judge(&deepest.1, &budget).raw,
        "the deeper score was kept"
    );
}

#[test]
fn a_move_the_deeper_look_finds_as_good_is_cleared() {
    // The standard look is told the move lost ten points (it did not): the deeper look
    // at both moves finds the move played within a mistake of the search's choice.
    let start = crate::game::Variant::Classic.start();
    let budget = Budget { nodes: 30_000 };
    let judged = judge(&start, &budget);
    let deeper = Budget {
        nodes: budget.nodes * DEEPER,
    };
    // The deeper look's own choice, with the eye of the dwarfs as level 5 plays them, is what
    // the move played is held against.
    let eye = Eye::of_player(start.variant(), start.side_to_move());
    let choice = judge_by(&start, &deeper, &eye).best.expect("a move");
    // The start is symmetric left to right: the mirror image of the search's choice is
    // exactly as good.
    let played = mirrored(&start, &choice);
    assert_ne!(played, choice);
    let told = judged.score - 1_000;
    let unscreened = Look {
        screen: false,
        ..Look::BOT
    };
    assert_eq!(
        confirm_by(&start, judged, &played, told, &budget, &unscreened).best,
        Some(played),
        "the choice {} the mirror {}",
        judge_by(&start.after(&choice), &deeper, &eye).score,
        judge_by(&start.after(&played), &deeper, &eye).score,
    );
    // Told the truth, a move the search does not prefer keeps the search's choice.
    let honest = judge(&start.after(&played), &budget).score;
    let kept = judge_move(&start, &played, honest, &budget);
    assert_eq!(kept.score, judged.score);
}

#[test]
fn the_screen_clears_a_move_as_good_and_keeps_the_blunder() {
    // The start is symmetric left to right: the mirror image of the standard look's
    // choice scores exactly as it does.
    let start = crate::game::Variant::Classic.start();
    let budget = Budget { nodes: 30_000 };
    let judged = judge(&start, &budget);
    let choice = judged.best.expect("a move");
    let mirrored = mirrored(&start, &choice);
    assert_ne!(mirrored, choice);
    let eye = Eye::of_player(start.variant(), start.side_to_move());
    assert!(loss(&start, &mirrored, &choice, &budget, &eye) < MISTAKE);
    // Told it lost ten points, the bot's look clears it at the screen.
    let cleared = judge_move(&start, &mirrored, judged.score - 1_000, &budget);
    assert_eq!(cleared.best, Some(mirrored));
    // In two steps: the first look suspects it, and the check's screen clears it (no suspect
    // any more, so the next costliest suspect is due in its place).
    let first = first_look(&start, &mirrored, judged.score - 1_000, &budget);
    assert!(first.suspicion.is_some_and(|s| !s.checked), "{first:?}");
    let checked = check(&start, first, &mirrored, None, &budget);
    assert_eq!((checked.best, checked.suspicion), (Some(mirrored), None));
    // Given the judgement of the position the move led to, the screen reads it: the same.
    let after = judge(&start.after(&mirrored), &budget);
    assert_eq!(
        check(&start, first, &mirrored, Some(&after), &budget),
        checked
    );
    // The troll walked into a hurl still loses at the screen.
    let planted = planted();
    let blunder = play(&planted, "TI6-H7");
    let best = judge(&planted, &budget).best.expect("a move");
    let eye = Eye::of_player(planted.variant(), planted.side_to_move());
    assert!(loss(&planted, &blunder, &best, &budget, &eye) >= MISTAKE);
}

/// The legal move from `position` that is `mv` mirrored left to right (columns A and O
/// swapped, and so on).
fn mirrored(position: &Position, mv: &Move) -> Move {
    let text: String = mv
        .to_string()
        .chars()
        .map(|c| match c {
            'A'..='O' => (b'A' + (b'O' - c as u8)) as char,
            other => other,
        })
        .collect();
    position
        .legal_moves()
        .into_iter()
        .find(|m| m.to_string() == text)
        .expect("the mirrored move is legal")
}

#[test]
fn the_same_position_judged_twice_gets_the_same_judgement() {
    let mut position = crate::game::Variant::Classic.start();
    for text in ["dA7-F7", "TG8-F8xF7", "dO7-O8"] {
        let mv = play(&position, text);
        position.make(&mv);
    }
    let budget = Budget { nodes: 30_000 };
    // Searched each time: `judge` would answer the second from the searches it remembers.
    let eye = Eye::standard(position.variant());
    let first = search_within(&position, &budget, 32, &eye);
    // A second search on another thread at the same time loads the machine: the node
    // budget, not the clock, decides where each stops.
    let busy = {
        let p = position.clone();
        std::thread::spawn(move || search_within(&p, &Budget { nodes: 60_000 }, 32, &eye))
    };
    let second = search_within(&position, &budget, 32, &eye);
    busy.join().expect("the other search ends");
    assert_eq!(first, second);
    assert_eq!(judge(&position, &budget), first);
    assert!(first.nodes >= 30_000, "{first:?}");
    assert!(first.best.is_some());
}

#[test]
fn a_finished_position_is_judged_by_the_rules() {
    // Trolls to move with no troll left: the battle is over, dwarfs ahead by 3.
    let over: Position = "5/7/9/11/13/15/15/7R7/15/15/13/5d5/4d4/3d3/5 t"
        .parse()
        .expect("reads");
    let j = judge(&over, &Budget::STANDARD);
    assert_eq!(j.best, None);
    assert_eq!(j.score, 300);
}

#[test]
fn the_first_look_suspects_the_blunder_and_the_deeper_look_confirms_it() {
    let start = planted();
    let blunder = play(&start, "TI6-H7");
    let budget = Budget { nodes: 20_000 };
    let after = judge(&start.after(&blunder), &budget).score;
    let first = first_look(&start, &blunder, after, &budget);
    let suspicion = first.suspicion.expect("suspected");
    assert!(!suspicion.checked);
    assert!(suspicion.loss >= MISTAKE, "{first:?}");
    // Unchecked, it is no mistake in a review, whatever it cost.
    let moves = [blunder];
    let reviews = review(
        &start,
        &moves,
        &[first, judge(&start.after(&blunder), &budget)],
    );
    assert!(
        reviews[0].unchecked && reviews[0].cost >= MISTAKE,
        "{reviews:?}"
    );
    assert!(mistakes(&reviews, Side::Trolls, MISTAKE, 3).is_empty());
    // Checked, it is the same verdict as the whole look at once.
    let checked = check(&start, first, &blunder, None, &budget);
    let told = judge(&start.after(&blunder), &budget);
    assert_eq!(
        check(&start, first, &blunder, Some(&told), &budget),
        checked
    );
    assert_eq!(checked.suspicion.map(|s| s.checked), Some(true));
    assert_eq!(
        checked.best,
        judge_move(&start, &blunder, after, &budget).best
    );
    assert_ne!(checked.best, Some(blunder));
    let reviews = review(
        &start,
        &moves,
        &[checked, judge(&start.after(&blunder), &budget)],
    );
    assert_eq!(mistakes(&reviews, Side::Trolls, MISTAKE, 3).len(), 1);
    // A second check changes nothing.
    assert_eq!(check(&start, checked, &blunder, None, &budget), checked);
}

#[test]
fn the_move_the_search_prefers_is_never_suspected() {
    let start = planted();
    let budget = Budget { nodes: 20_000 };
    let best = judge(&start, &budget).best.expect("a move");
    let after = judge(&start.after(&best), &budget).score;
    assert_eq!(first_look(&start, &best, after, &budget).suspicion, None);
}

fn suspect(battle: u8, ply: usize, loss: i32, checked: bool) -> Suspect {
    Suspect {
        battle,
        ply,
        side: if ply % 2 == 0 {
            Side::Dwarfs
        } else {
            Side::Trolls
        },
        suspicion: Suspicion { loss, checked },
    }
}

#[test]
fn each_side_of_each_battle_gets_its_costliest_suspects_checked_last_ply_first() {
    // Battle 1's dwarfs: six suspects, the costliest at plies 8, 2, 10 and 0 (100 at 0 and
    // 4: the earlier is taken); ply 2 is checked already and still counts as one of the four.
    let dwarfs = [(0, 100), (2, 500), (4, 100), (6, 90), (8, 900), (10, 300)];
    let mut suspects: Vec<Suspect> = dwarfs
        .iter()
        .map(|&(ply, loss)| suspect(1, ply, loss, ply == 2))
        .collect();
    // Battle 1's trolls: two, both due. Battle 2's dwarfs: one, checked.
    suspects.push(suspect(1, 3, 150, false));
    suspects.push(suspect(1, 7, 120, false));
    suspects.push(suspect(2, 4, 400, true));
    let chosen: Vec<(u8, usize)> = due(&suspects).iter().map(|s| (s.battle, s.ply)).collect();
    assert_eq!(chosen, [(1, 10), (1, 8), (1, 7), (1, 3), (1, 0)]);
    // With all of those checked, nothing more is due: the cheaper suspects stay unchecked.
    for s in &mut suspects {
        if chosen.contains(&(s.battle, s.ply)) {
            s.suspicion.checked = true;
        }
    }
    assert!(due(&suspects).is_empty());
    assert_eq!(CHECKED, 4, "the test counts four a side");
}

#[test]
fn a_dwarf_that_lets_a_troll_in_reach_of_a_hurl_go_is_found_by_the_dwarfs_eye() {
    // The troll has walked onto H7; the dwarfs can hurl it. The last dwarf of the line
    // stepping aside instead lets it go: the screen and the deeper look, with the dwarfs'
    // weights as level 5 plays them, call it a mistake and answer with the hurl.
    let planted = planted();
    let walked = planted.after(&play(&planted, "TI6-H7"));
    let hurl = play(&walked, "dH4-H7xH7");
    let aside = play(&walked, "dH2-G2");
    let budget = Budget { nodes: 20_000 };
    let after = judge(&walked.after(&aside), &budget);
    let judged = judge_move(&walked, &aside, after.score, &budget);
    assert_eq!(judged.best, Some(hurl), "{judged:?}");
    let eye = Eye::of_player(walked.variant(), Side::Dwarfs);
    assert!(loss(&walked, &aside, &hurl, &budget, &eye) >= MISTAKE);
    let moves = [aside];
    let reviews = review(&walked, &moves, &[judged, after]);
    assert_eq!(mistakes(&reviews, Side::Dwarfs, MISTAKE, 3).len(), 1);
}

#[test]
fn a_moves_verdict_is_given_with_the_eye_of_level_5_playing_the_side_that_moved() {
    use crate::game::Variant;
    // Classic: level 5 weighs positions its own way as each side, without late-move
    // reductions; the standard look keeps one set for both, so the graph has one scale.
    let dwarfs = Eye::of_player(Variant::Classic, Side::Dwarfs);
    let trolls = Eye::of_player(Variant::Classic, Side::Trolls);
    assert_eq!(dwarfs.weights, Weights::AS_DWARFS);
    assert_eq!(trolls.weights, Weights::AS_TROLLS);
    assert!(!dwarfs.late_move_reductions && !trolls.late_move_reductions);
    let standard = Eye::standard(Variant::Classic);
    assert_eq!(standard.weights, Weights::TUNED);
    assert!(standard.late_move_reductions);
    assert_ne!(dwarfs, standard);
    // Elsewhere level 5 plays as the standard look judges.
    for variant in [Variant::Original, Variant::KoomValley] {
        for side in [Side::Dwarfs, Side::Trolls] {
            assert_eq!(Eye::of_player(variant, side), Eye::standard(variant));
        }
    }
}
