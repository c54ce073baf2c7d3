//! The board picture: squares, pieces, the last move, captions, score and turn.

use super::*;

/// Grid cells outside the octagon that no corner text reaches, as pixel boxes
/// (x, y, side) in a picture without caption.
fn off_board_cells() -> Vec<(u32, u32, u32)> {
    let mut cells = Vec::new();
    for (column, row) in [
        (0, 10),
        (0, 11),
        (1, 11),
        (0, 3),
        (0, 4),
        (1, 3),
        (14, 10),
        (14, 11),
        (13, 11),
        (14, 3),
        (14, 4),
        (13, 3),
    ] {
        assert!(Square::from_coords(column, row).is_none());
        cells.push((
            30 + column as u32 * SQUARE_PX,
            30 + (14 - row as u32) * SQUARE_PX,
            SQUARE_PX,
        ));
    }
    cells
}

#[test]
fn the_start_picture_shows_every_square_as_the_position_has_it() {
    for theme in Theme::ALL {
        let c = theme.colours();
        let start = Variant::Classic.start();
        let png = renderer().board_png(&BoardView::new(&start), theme);
        let img = decode(&png);
        assert_eq!(img.dimensions(), (600, 600));
        assert_eq!(picture_size(false), (600, 600));
        assert_squares_match(&img, &c, &start, false, SquareSet::EMPTY);
        for (x0, y0, side) in off_board_cells() {
            for (x, y) in (x0..x0 + side).flat_map(|x| (y0..y0 + side).map(move |y| (x, y))) {
                assert_eq!(pixel(&img, (x, y)), c.background, "{theme}: ({x}, {y})");
            }
        }
        // The margins hold the coordinates: some text-coloured pixels in the bottom margin
        // under each column.
        for column in 0..15 {
            let x0 = 30 + column * SQUARE_PX;
            let inked = (x0..x0 + SQUARE_PX)
                .flat_map(|x| (572..598).map(move |y| (x, y)))
                .filter(|&p| pixel(&img, p) == c.text)
                .count();
            assert!(inked > 10, "{theme}: no letter under column {column}");
        }
    }
}

#[test]
fn a_troll_capture_highlights_the_move_and_crosses_out_the_captured_dwarfs() {
    let battle = fixed_battle(Variant::Classic, 60);
    let (index, mv) = battle
        .moves()
        .iter()
        .enumerate()
        .rev()
        .find(|(_, m)| m.piece() == Piece::Troll && !m.captured().is_empty())
        .map(|(i, m)| (i, *m))
        .expect("the battle has a troll capture");
    let position = battle.positions()[index + 1].clone();
    let view = BoardView {
        position: &position,
        last_move: Some(&mv),
        caption: None,
    };
    let c = Theme::Default.colours();
    let img = decode(&renderer().board_png(&view, Theme::Default));
    let (from, to) = (mv.from(), mv.to());
    let moved = |s: Square| {
        if (s.column() + s.row()).is_multiple_of(2) {
            c.moved_dark
        } else {
            c.moved_light
        }
    };
    assert_eq!(pixel(&img, square_centre(from, false)), moved(from));
    let (x, y) = square_origin(to, false);
    assert_eq!(pixel(&img, (x + 2, y + 2)), moved(to), "corner of {to}");
    assert_eq!(pixel(&img, square_centre(to, false)), c.troll);
    for captured in mv.captured() {
        assert_eq!(
            pixel(&img, square_centre(captured, false)),
            c.capture,
            "{captured}"
        );
    }
    let touched = mv.captured() | SquareSet::single(from) | mv.path().into_iter().collect();
    assert_squares_match(&img, &c, &position, false, touched);
}

#[test]
fn a_shove_marks_every_square_the_troll_travelled() {
    // A dwarf steps up to F3; the line of trolls G9-G8-G7 can then shove G7 down to G4.
    let mut battle = Battle::new(Variant::Classic);
    battle.play(&"dF1-F3".parse::<MoveText>().unwrap()).unwrap();
    let shove = battle
        .position()
        .legal_moves()
        .into_iter()
        .find(|m| m.piece() == Piece::Troll && m.path().len() >= 2)
        .expect("a two-square shove is legal here");
    battle.play_move(shove).unwrap();
    let position = battle.position();
    let view = BoardView {
        position,
        last_move: Some(&shove),
        caption: None,
    };
    let c = Theme::Default.colours();
    let img = decode(&renderer().board_png(&view, Theme::Default));
    let path: Vec<Square> = shove.path();
    for &s in &path[..path.len() - 1] {
        assert_eq!(pixel(&img, square_centre(s, false)), c.footstep, "{s}");
        let (x, y) = square_origin(s, false);
        let tint = if (s.column() + s.row()) % 2 == 0 {
            c.path_dark
        } else {
            c.path_light
        };
        assert_eq!(pixel(&img, (x + 2, y + 2)), tint, "corner of {s}");
    }
    for captured in shove.captured() {
        assert_eq!(pixel(&img, square_centre(captured, false)), c.capture);
    }
}

#[test]
fn a_hurl_shows_the_dwarf_on_its_victims_square_with_a_capture_badge() {
    // Two dwarfs in a line, H3 and H2, can hurl the front one two squares onto H5's troll.
    let position = Position::from_fen(
        "5/7/9/11/13/15/15/7R7/15/15/6T6/11/4d4/3d3/5 d",
        Variant::Classic,
    )
    .unwrap();
    let hurl = position.resolve(&"dH3-H5xH5".parse().unwrap()).unwrap();
    assert!(matches!(hurl, Move::Hurl { .. }));
    let after = position.after(&hurl);
    let view = BoardView {
        position: &after,
        last_move: Some(&hurl),
        caption: None,
    };
    let c = Theme::Default.colours();
    let img = decode(&renderer().board_png(&view, Theme::Default));
    let h5 = sq("H5");
    assert_eq!(pixel(&img, square_centre(h5, false)), c.dwarf);
    let (x, y) = square_origin(h5, false);
    assert_eq!(pixel(&img, (x + SQUARE_PX - 7, y + 11)), c.capture);
    assert_eq!(pixel(&img, square_centre(sq("H4"), false)), c.footstep);
}

#[test]
fn koom_valley_draws_the_rock_the_goal_squares_and_a_trample() {
    // The troll on I3 can jump H4's dwarf to G5, then turn north and jump G6's to G7.
    let position = Position::from_fen(
        "5/7/9/11/13/15/15/7R7/15/6d8/13/5d5/5T3/7/5 t",
        Variant::KoomValley,
    )
    .unwrap();
    let trample = position
        .legal_moves()
        .into_iter()
        .filter(|m| matches!(m, Move::Trample { .. }))
        .max_by_key(|m| m.captured().len())
        .expect("the troll can trample");
    assert_eq!(trample.captured().len(), 2, "{trample}");
    let after = position.after(&trample);
    let view = BoardView {
        position: &after,
        last_move: Some(&trample),
        caption: None,
    };
    for theme in Theme::ALL {
        let c = theme.colours();
        let img = decode(&renderer().board_png(&view, theme));
        assert_ne!(c.rock, c.thudstone);
        assert_eq!(pixel(&img, square_centre(sq("H8"), false)), c.rock);
        for goal in ["F1", "G1", "H1", "I1", "J1"] {
            let (x, y) = square_origin(sq(goal), false);
            assert_eq!(pixel(&img, (x + 2, y + SQUARE_PX / 2)), c.goal, "{goal}");
        }
        let (x, y) = square_origin(sq("F2"), false);
        assert_eq!(pixel(&img, (x + 2, y + SQUARE_PX / 2)), c.dark);
        for jumped in trample.captured() {
            assert_eq!(pixel(&img, square_centre(jumped, false)), c.capture);
        }
        let path = trample.path();
        let landings: Vec<Square> = path.iter().skip(1).step_by(2).copied().collect();
        for &s in &landings[..landings.len() - 1] {
            assert_eq!(pixel(&img, square_centre(s, false)), c.footstep, "{s}");
        }
        assert_eq!(pixel(&img, square_centre(trample.to(), false)), c.troll);
    }
}

#[test]
fn a_caption_adds_a_band_above_the_board() {
    let battle = fixed_battle(Variant::Classic, 20);
    let caption = Caption {
        title: "Match #12 · Battle 1 of 2".into(),
        dwarfs: "alice".into(),
        trolls: "bob".into(),
        status: "alice to move".into(),
        over: false,
    };
    let view = BoardView {
        position: battle.position(),
        last_move: None,
        caption: Some(&caption),
    };
    let c = Theme::Default.colours();
    let img = decode(&renderer().board_png(&view, Theme::Default));
    assert_eq!(img.dimensions(), picture_size(true));
    assert_eq!(img.dimensions(), (600, 692));
    assert_squares_match(&img, &c, battle.position(), true, SquareSet::EMPTY);
    let band_ink = |colour: Rgb| {
        (0..600)
            .flat_map(|x| (0..92).map(move |y| (x, y)))
            .filter(|&p| pixel(&img, p) == colour)
            .count()
    };
    assert!(band_ink(c.text) > 200, "title and names are drawn");
    assert!(band_ink(c.accent) > 100, "the status line is drawn");
}

#[test]
fn captions_of_any_length_and_script_are_drawn_without_failing() {
    let start = Variant::Classic.start();
    let long = "Ω🙂漢字 ".repeat(500);
    let caption = Caption {
        title: long.clone(),
        dwarfs: "Zoë\n\t\u{0}".into(),
        trolls: long.clone(),
        status: String::new(),
        over: false,
    };
    let view = BoardView {
        position: &start,
        last_move: None,
        caption: Some(&caption),
    };
    let img = decode(&renderer().board_png(&view, Theme::HighContrast));
    assert_eq!(img.dimensions(), (600, 692));
}

#[test]
fn a_mid_game_picture_stays_small() {
    let battle = fixed_battle(Variant::Classic, 40);
    let view = BoardView {
        position: battle.position(),
        last_move: battle.last_move(),
        caption: None,
    };
    for theme in Theme::ALL {
        let png = renderer().board_png(&view, theme);
        assert!(png.len() <= 12_000, "{theme}: {} bytes", png.len());
    }
}

#[test]
fn the_score_and_turn_come_from_the_position() {
    // The same pieces with either side to move give different pictures, and a position
    // with fewer dwarfs another score.
    let start = Variant::Classic.start();
    let a = renderer().board_png(&BoardView::new(&start), Theme::Default);
    let trolls_turn = start.clone().with_side_to_move(Side::Trolls);
    let b = renderer().board_png(&BoardView::new(&trolls_turn), Theme::Default);
    let (a, b) = (decode(&a), decode(&b));
    let c = Theme::Default.colours();
    let accent_in = |img: &RgbImage, x0: u32| {
        (x0..x0 + 170)
            .flat_map(|x| (30..140).map(move |y| (x, y)))
            .filter(|&p| pixel(img, p) == c.accent)
            .count()
    };
    // The "to move" badge sits in the dwarfs' corner (top left) or the trolls' (top right).
    assert!(accent_in(&a, 30) > 300 && accent_in(&a, 400) == 0);
    assert!(accent_in(&b, 400) > 300 && accent_in(&b, 30) == 0);
}

#[test]
fn a_battle_ended_by_agreement_shows_nobody_to_move() {
    // The start has moves left, so only the caption's `over` can take the badge away.
    let start = Variant::Classic.start();
    let caption = |over| Caption {
        title: "Match #3 · Battle 1 of 2".into(),
        dwarfs: "alice".into(),
        trolls: "bob".into(),
        status: "Battle 1 drawn".into(),
        over,
    };
    let c = Theme::Default.colours();
    let badge = |over| {
        let caption = caption(over);
        let view = BoardView {
            position: &start,
            last_move: None,
            caption: Some(&caption),
        };
        let img = decode(&renderer().board_png(&view, Theme::Default));
        let band = 692 - 600;
        (30..200)
            .flat_map(|x| (band + 30..band + 140).map(move |y| (x, y)))
            .filter(|&p| pixel(&img, p) == c.accent)
            .count()
    };
    assert!(badge(false) > 300);
    assert_eq!(badge(true), 0);
    let text = ended_text_board(&start);
    assert!(
        text.contains("Battle over") && !text.contains("to move"),
        "{text}"
    );
}

#[test]
fn one_renderer_can_be_shared_between_threads() {
    fn shareable<T: Send + Sync>(_: &T) {}
    shareable(&*renderer());
    let start = Variant::Classic.start();
    let pictures: Vec<Vec<u8>> = std::thread::scope(|s| {
        let handles: Vec<_> = Theme::ALL
            .iter()
            .map(|&theme| {
                let start = &start;
                s.spawn(move || renderer().board_png(&BoardView::new(start), theme))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_ne!(pictures[0], pictures[1]);
}
