//! Board pictures as a player sees them: the PNG and GIF are decoded and their pixels checked
//! against the position, the last move and the theme's colours.

use std::io::Cursor;
use std::sync::OnceLock;

use image::{AnimationDecoder, RgbImage};
use thudbot::game::{
    last_move_into, Battle, Move, MoveText, Piece, Position, Side, Square, SquareSet, Variant,
};
use thudbot::render::layout::{picture_size, square_centre, square_origin, SQUARE_PX};
use thudbot::render::{
    ended_text_board, text_board, text_board_block, BoardView, Caption, Colours, Renderer, Rgb,
    Theme,
};

fn renderer() -> &'static Renderer {
    static RENDERER: OnceLock<Renderer> = OnceLock::new();
    RENDERER.get_or_init(Renderer::new)
}

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

fn decode(png: &[u8]) -> RgbImage {
    image::load_from_memory(png).unwrap().to_rgb8()
}

fn pixel(img: &RgbImage, (x, y): (u32, u32)) -> Rgb {
    img.get_pixel(x, y).0
}

/// A battle of up to `moves` moves, each picked from the legal moves by a fixed
/// pseudo-random sequence: deterministic, with captures on both sides, and long-lasting.
fn fixed_battle(variant: Variant, moves: usize) -> Battle {
    let mut battle = Battle::new(variant);
    let mut seed: u64 = 1;
    for _ in 0..moves {
        if battle.is_over() {
            break;
        }
        let legal = battle.position().legal_moves();
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        battle
            .play_move(legal[(seed >> 33) as usize % legal.len()])
            .unwrap();
    }
    battle
}

/// What the centre of `square` should show: its piece, or its square colour.
fn expected_centre(c: &Colours, position: &Position, square: Square) -> Rgb {
    let dark = (square.column() + square.row()) % 2 == 0;
    match position.piece_at(square) {
        Some(Piece::Dwarf) => c.dwarf,
        Some(Piece::Troll) => c.troll,
        Some(Piece::Stone) if position.variant() == Variant::KoomValley => c.rock,
        Some(Piece::Stone) => c.thudstone,
        None if dark => c.dark,
        None => c.light,
    }
}

/// Checks the centre of every square a move did not touch.
fn assert_squares_match(
    img: &RgbImage,
    c: &Colours,
    position: &Position,
    captioned: bool,
    skip: SquareSet,
) {
    let mut checked = 0;
    for square in Square::all().filter(|s| !skip.contains(*s)) {
        let found = pixel(img, square_centre(square, captioned));
        let wanted = expected_centre(c, position, square);
        assert_eq!(
            found,
            wanted,
            "centre of {square}: {:?}",
            position.piece_at(square)
        );
        checked += 1;
    }
    assert_eq!(checked + skip.len(), 165);
}

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
        if (s.column() + s.row()) % 2 == 0 {
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
fn the_text_board_of_the_start_is_exact() {
    let expected = "   A B C D E F G H I J K L M N O
15           d d . d d           15
14         d . . . . . d         14
13       d . . . . . . . d       13
12     d . . . . . . . . . d     12
11   d . . . . . . . . . . . d   11
10 d . . . . . . . . . . . . . d 10
 9 d . . . . . T T T . . . . . d 9
 8 . . . . . . T R T . . . . . . 8
 7 d . . . . . T T T . . . . . d 7
 6 d . . . . . . . . . . . . . d 6
 5   d . . . . . . . . . . . d   5
 4     d . . . . . . . . . d     4
 3       d . . . . . . . d       3
 2         d . . . . . d         2
 1           d d . d d           1
   A B C D E F G H I J K L M N O
Dwarfs to move · dwarfs 32 · trolls 32
d dwarf · T troll · R Thudstone";
    assert_eq!(text_board(&Variant::Classic.start()), expected);
}

#[test]
fn the_text_board_fits_a_discord_message_and_marks_koom_valley_goals() {
    let block = text_board_block(&Variant::KoomValley.start());
    assert!(block.starts_with("```\n") && block.ends_with("\n```"));
    assert!(block.chars().count() < 1000, "{} chars", block.len());
    let bottom = block.lines().find(|l| l.starts_with(" 1 ")).unwrap();
    assert_eq!(bottom, " 1           * * * * *           1");
    assert!(block.contains("R Rock"));
    assert!(block.contains("16 dwarfs, 8 trolls left"));
}

#[test]
fn a_replay_has_one_frame_per_position_and_each_frame_shows_its_position() {
    let battle = fixed_battle(Variant::Classic, 30);
    let caption = Caption {
        title: "Match #3 · Battle 2 of 2".into(),
        dwarfs: "bob".into(),
        trolls: "alice".into(),
        status: "Replay".into(),
        over: false,
    };
    let gif = renderer().replay_gif(&battle, Some(&caption), Theme::Default);
    let frames = image::codecs::gif::GifDecoder::new(Cursor::new(gif))
        .unwrap()
        .into_frames()
        .collect_frames()
        .unwrap();
    assert_eq!(frames.len(), battle.moves().len() + 1);
    let c = Theme::Default.colours();
    let positions = battle.positions();
    for (i, frame) in frames.iter().enumerate() {
        let img = image::DynamicImage::ImageRgba8(frame.buffer().clone()).to_rgb8();
        assert_eq!(img.dimensions(), (600, 692));
        let touched = match i.checked_sub(1).map(|m| battle.moves()[m]) {
            Some(mv) => {
                mv.captured() | SquareSet::single(mv.from()) | mv.path().into_iter().collect()
            }
            None => SquareSet::EMPTY,
        };
        assert_squares_match(&img, &c, &positions[i], true, touched);
    }
    let (last_ms, _) = frames.last().unwrap().delay().numer_denom_ms();
    let (step_ms, _) = frames[1].delay().numer_denom_ms();
    assert!(last_ms > step_ms, "the last frame is held longer");
}

#[test]
fn the_last_move_given_as_notation_is_found_and_drawn() {
    let battle = fixed_battle(Variant::Classic, 25);
    let played = *battle.last_move().unwrap();
    let found = last_move_into(battle.position(), &played.to_string().parse().unwrap());
    assert_eq!(found, Ok(played));
}

/// Draws the pictures shown in the README into `docs/`:
/// `cargo test --test render -- --ignored draw_docs_pictures`.
#[test]
#[ignore]
fn draw_docs_pictures() {
    let r = renderer();
    let write = |name: &str, bytes: Vec<u8>| {
        std::fs::write(format!("{}/docs/{name}", env!("CARGO_MANIFEST_DIR")), bytes).unwrap()
    };
    let start = Variant::Classic.start();
    write(
        "board-start.png",
        r.board_png(&BoardView::new(&start), Theme::Default),
    );

    // Move 50 of the fixed battle is a troll's capture.
    let battle = fixed_battle(Variant::Classic, 50);
    let caption = Caption {
        title: "Match #12 · Battle 1 of 2".into(),
        dwarfs: "alice".into(),
        trolls: "bob".into(),
        status: "alice to move".into(),
        over: false,
    };
    let view = BoardView {
        position: battle.position(),
        last_move: battle.last_move(),
        caption: Some(&caption),
    };
    write("board-midgame.png", r.board_png(&view, Theme::Default));
    write(
        "board-high-contrast.png",
        r.board_png(&view, Theme::HighContrast),
    );

    let mut shoved = Battle::new(Variant::Classic);
    shoved.play(&"dF1-F3".parse().unwrap()).unwrap();
    shoved.play(&"TG7-G4xF3".parse().unwrap()).unwrap();
    let view = BoardView {
        position: shoved.position(),
        last_move: shoved.last_move(),
        caption: None,
    };
    write("board-shove.png", r.board_png(&view, Theme::Default));

    let kv = Position::from_fen(
        "5/7/9/11/13/15/15/7R7/15/6d8/13/5d5/5T3/7/5 t",
        Variant::KoomValley,
    )
    .unwrap();
    let trample = kv.resolve(&"TI3-G5-G7xH4xG6".parse().unwrap()).unwrap();
    let after = kv.after(&trample);
    let caption = Caption {
        title: "Match #7 · Koom Valley · Battle 2 of 2".into(),
        dwarfs: "carol".into(),
        trolls: "dave".into(),
        status: "carol to move".into(),
        over: false,
    };
    let view = BoardView {
        position: &after,
        last_move: Some(&trample),
        caption: Some(&caption),
    };
    write("board-koom-valley.png", r.board_png(&view, Theme::Default));
    let opening = fixed_battle(Variant::Classic, 40);
    write("replay.gif", r.replay_gif(&opening, None, Theme::Default));
}

#[test]
fn the_render_command_draws_a_position_and_refuses_bad_input_with_exit_code_2() {
    let exe = env!("CARGO_BIN_EXE_thudbot");
    let dir = std::env::temp_dir().join(format!("thudbot-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("board.png");
    // The classic start after the dwarf on J1 moved to J3.
    let after = "dd1dd/d5d/d7d/d9d/d11d/d13d/d5TTT5d/6TRT6/d5TTT5d/d13d/d11d/d9d/d5d1d/d5d/dd1d1 t";
    let run = |args: &[&str]| std::process::Command::new(exe).args(args).output().unwrap();
    let done = run(&[
        "render",
        after,
        "--out",
        out.to_str().unwrap(),
        "--last-move",
        "J1-J3",
        "--theme",
        "high-contrast",
    ]);
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    let img = image::open(&out).unwrap().to_rgb8();
    let c = Theme::HighContrast.colours();
    assert_eq!(pixel(&img, square_centre(sq("J1"), false)), c.moved_light);
    assert_eq!(pixel(&img, square_centre(sq("J2"), false)), c.footstep);
    assert_eq!(pixel(&img, square_centre(sq("J3"), false)), c.dwarf);

    let text = run(&["render", after, "--text"]);
    assert!(text.status.success());
    assert_eq!(
        String::from_utf8_lossy(&text.stdout).trim_end(),
        text_board(&Position::from_fen(after, Variant::Classic).unwrap())
    );

    let out = out.to_str().unwrap();
    for bad in [
        vec!["render", "not a position", "--out", out],
        vec!["render", after, "--out", out, "--last-move", "J1-J4"],
        vec!["render", after, "--out", out, "--last-move", "Z9-J3"],
        vec!["render", after, "--out", out, "--theme", "neon"],
        vec!["render", after, "--out", out, "--variant", "chess"],
        vec!["render", after],
    ] {
        let refused = run(&bad);
        assert_eq!(refused.status.code(), Some(2), "{bad:?}");
        assert!(!refused.stderr.is_empty(), "{bad:?} says why");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn one_renderer_can_be_shared_between_threads() {
    fn shareable<T: Send + Sync>(_: &T) {}
    shareable(renderer());
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
