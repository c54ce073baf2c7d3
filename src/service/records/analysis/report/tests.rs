//! The graph of a battle marks exactly the mistakes its report names, each in its side's
//! colour, and mistakes a ply apart stay apart.

use super::battle_report;
use crate::computer::analysis::{Judgement, Suspicion};
use crate::game::{Battle, Move, Side, Variant};
use crate::render::graph::{evaluation_graph, mistake_colour, GraphLayout};

/// A battle of 90 plies, each move picked from the legal moves by a fixed rule.
fn battle() -> Battle {
    let mut battle = Battle::new(Variant::Classic);
    for ply in 0..90 {
        let moves = battle.position().legal_moves();
        if battle.is_over() || moves.is_empty() {
            break;
        }
        let mv = moves[ply * 7 % moves.len()];
        battle.play_move(mv).expect("a legal move");
    }
    assert_eq!(battle.moves().len(), 90, "the battle lasts 90 plies");
    battle
}

/// Judgements of `battle`'s positions in which the move reaching each ply of `lost` loses
/// that many hundredths for its side (the search preferring another move, checked by the
/// deeper look), and every other move is the search's own choice.
fn judgements(battle: &Battle, lost: &[(usize, i32)]) -> Vec<Judgement> {
    let positions = battle.positions();
    let mut raw = 0;
    let mut judged = Vec::new();
    for (i, position) in positions.iter().enumerate() {
        let played: Option<Move> = battle.moves().get(i).copied();
        let cost = lost.iter().find(|&&(ply, _)| ply == i + 1).map(|&(_, c)| c);
        let best = match cost {
            Some(_) => position
                .legal_moves()
                .into_iter()
                .find(|m| Some(*m) != played),
            None => played,
        };
        judged.push(Judgement {
            score: raw,
            raw,
            best,
            depth: 4,
            nodes: 0,
            suspicion: cost.map(|loss| Suspicion {
                loss,
                checked: true,
            }),
        });
        if let Some(cost) = cost {
            raw += match position.side_to_move() {
                Side::Dwarfs => -cost,
                Side::Trolls => cost,
            };
        }
    }
    judged
}

#[test]
fn the_graph_marks_the_mistakes_the_report_names_in_each_sides_colour() {
    let battle = battle();
    let side_of = |ply: usize| battle.positions()[ply - 1].side_to_move();
    // Three mistakes a side: the two costliest at plies 72 to 75, one apart; a cheaper one
    // each earlier on, which the report does not name.
    let lost = [
        (40, 150),
        (41, 120),
        (72, 300),
        (73, 250),
        (74, 400),
        (75, 350),
    ];
    let (lines, panel) = battle_report(
        Variant::Classic,
        1,
        &battle,
        ("alice", "bob"),
        &judgements(&battle, &lost),
    );
    let named: Vec<usize> = (1..=90)
        .filter(|ply| lines.iter().any(|l| l.contains(&format!("· ply {ply} "))))
        .collect();
    assert_eq!(named, [72, 73, 74, 75]);
    let mut marked = panel.mistakes.clone();
    marked.sort_by_key(|&(ply, _)| ply);
    let expected: Vec<(usize, Side)> = named.iter().map(|&p| (p, side_of(p))).collect();
    assert_eq!(marked, expected, "the graph marks the mistakes named");
    assert_ne!(side_of(72), side_of(73));

    let png = evaluation_graph(std::slice::from_ref(&panel));
    let image = image::load_from_memory(&png).expect("a PNG").to_rgb8();
    let layout = GraphLayout::for_battles(std::slice::from_ref(&panel));
    let (_, top, _, height) = layout.plot(0);
    let n = panel.scores.len();
    let in_column = |x: u32, ys: std::ops::Range<u32>, colour| {
        ys.filter(|&y| image.get_pixel(x, y).0 == colour).count()
    };
    // The curve stays near the middle: the upper third of the plot holds the lines alone.
    let upper = top..top + height / 3;
    for &(ply, side) in &expected {
        let x = layout.x(ply, n);
        let own = mistake_colour(side);
        let other = mistake_colour(side.opposite());
        assert_eq!(in_column(x, upper.clone(), own), upper.len(), "ply {ply}");
        assert_eq!(in_column(x, upper.clone(), other), 0, "ply {ply}");
    }
    for ply in [40, 41] {
        let x = layout.x(ply, n);
        for side in [Side::Dwarfs, Side::Trolls] {
            let colour = mistake_colour(side);
            assert_eq!(in_column(x, top..top + height, colour), 0, "ply {ply}");
        }
    }
    if let Ok(dir) = std::env::var("THUDBOT_GRAPH_OUT") {
        std::fs::write(std::path::Path::new(&dir).join("marked-mistakes.png"), &png)
            .expect("the folder is writable");
    }
}
