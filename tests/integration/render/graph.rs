//! The evaluation graph of an analysis, decoded and checked: its size, the axes, the shading
//! on each side of the zero line, the capture and mistake marks where the plies are, and the
//! file's size on a long match.

use super::decode;
use image::RgbImage;
use thudbot::game::Side;
use thudbot::render::graph::{
    evaluation_graph, GraphBattle, GraphLayout, AXIS, CAPTURE, CURVE, DWARFS_AHEAD, DWARFS_MISTAKE,
    TROLLS_AHEAD, TROLLS_MISTAKE, WIDTH,
};

fn battle(scores: Vec<i32>, captures: Vec<usize>, mistakes: Vec<(usize, Side)>) -> GraphBattle {
    GraphBattle {
        title: "Battle 1 · alice (dwarfs) v bob (trolls)".to_string(),
        scores,
        captures,
        mistakes,
    }
}

fn count(
    img: &RgbImage,
    colour: [u8; 3],
    xs: std::ops::Range<u32>,
    ys: std::ops::Range<u32>,
) -> usize {
    let mut n = 0;
    for x in xs {
        for y in ys.clone() {
            if x < img.width() && y < img.height() && img.get_pixel(x, y).0 == colour {
                n += 1;
            }
        }
    }
    n
}

#[test]
fn the_graph_shows_both_battles_with_axes_shading_captures_and_mistakes() {
    // Battle 1: the dwarfs lead, then a mistake at ply 20 hands the lead to the trolls.
    let first: Vec<i32> = (0..=40).map(|i| if i < 20 { 150 } else { -450 }).collect();
    // Battle 2: level, a capture at ply 5.
    let second: Vec<i32> = (0..=30).map(|i| if i < 5 { 0 } else { 100 }).collect();
    let battles = vec![
        battle(first, vec![20], vec![(20, Side::Dwarfs)]),
        battle(second, vec![5], vec![]),
    ];
    let png = evaluation_graph(&battles);
    let img = decode(&png);
    let layout = GraphLayout::for_battles(&battles);
    assert_eq!((img.width(), img.height()), (WIDTH, layout.height()));
    assert_eq!(layout.scales, [800, 400]);

    for panel in 0..2 {
        let (left, top, width, height) = layout.plot(panel);
        let zero = layout.y(panel, 0);
        // The zero line and the left axis.
        assert!(count(&img, AXIS, left..left + width, zero..zero + 1) > width as usize * 3 / 4);
        assert!(count(&img, AXIS, left..left + 1, top..top + height) > height as usize * 9 / 10);
        assert!(count(&img, CURVE, left..left + width, top..top + height) > 0);
    }
    // Battle 1: shaded blue above the line before the mistake, brown below after it.
    let n = 41;
    let x_before = layout.x(10, n);
    let x_after = layout.x(30, n);
    let zero = layout.y(0, 0);
    assert_eq!(img.get_pixel(x_before + 1, zero - 3).0, DWARFS_AHEAD);
    assert_eq!(img.get_pixel(x_after + 1, zero + 3).0, TROLLS_AHEAD);
    assert_eq!(
        count(&img, TROLLS_AHEAD, x_before..x_before + 1, zero..zero + 40),
        0
    );
    // The dwarfs' mistake: a blue line across the plot at its ply, and its dot.
    let (_, top, _, height) = layout.plot(0);
    let x = layout.x(20, n);
    assert!(count(&img, DWARFS_MISTAKE, x..x + 1, top..top + height) as u32 >= height - 12);
    // No mistake was marked in battle 2.
    let (left2, top2, width2, height2) = layout.plot(1);
    for colour in [DWARFS_MISTAKE, TROLLS_MISTAKE] {
        assert_eq!(
            count(&img, colour, left2..left2 + width2, top2..top2 + height2),
            0
        );
    }
    // The capture of battle 2 at ply 5, on the curve.
    let cx = layout.x(5, 31);
    let cy = layout.y(1, 100);
    assert!(count(&img, CAPTURE, cx - 4..cx + 5, cy - 4..cy + 5) >= 9);
}

#[test]
fn a_long_match_graph_stays_small() {
    // Two battles of 150 plies swinging back and forth, captures every few plies.
    let swings = |phase: i32| -> Vec<i32> {
        (0..=150)
            .map(|i: i32| ((i * 37 + phase) % 900) - 450 + (i % 7) * 30)
            .collect()
    };
    let battles = vec![
        battle(
            swings(0),
            (0..150).step_by(4).collect(),
            vec![(17, Side::Dwarfs), (60, Side::Trolls), (99, Side::Dwarfs)],
        ),
        battle(
            swings(311),
            (0..150).step_by(5).collect(),
            vec![(3, Side::Trolls), (80, Side::Dwarfs), (120, Side::Trolls)],
        ),
    ];
    let png = evaluation_graph(&battles);
    assert!(png.len() < 40 * 1024, "{} bytes", png.len());
    let img = decode(&png);
    assert_eq!(img.width(), WIDTH);
    if let Ok(dir) = std::env::var("THUDBOT_GRAPH_OUT") {
        std::fs::write(std::path::Path::new(&dir).join("analysis-graph.png"), &png).unwrap();
    }
}
