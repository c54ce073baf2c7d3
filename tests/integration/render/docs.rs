//! The pictures shown in the README.

use super::*;

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
