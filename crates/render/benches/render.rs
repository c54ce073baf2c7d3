//! Board pictures: the mid-game PNG the bot posts, with its caption band (targets: drawn and
//! encoded in ≤ 5 ms, ≤ 12 KB), and a 150-move replay GIF (target: ≤ 300 ms). Run with
//! `cargo bench --bench render`; the sizes are printed before the timings.

use criterion::{criterion_group, criterion_main, Criterion};
use thud_engine::game::{Battle, Variant};
use thud_render::{text_board, BoardView, Caption, Renderer, Theme};

/// A battle of up to `moves` moves, each picked from the legal moves by a fixed
/// pseudo-random sequence: deterministic, with captures on both sides, and it does not end
/// early the way always-capture play does.
fn battle(moves: usize) -> Battle {
    let mut battle = Battle::new(Variant::Classic);
    let mut seed: u64 = 1;
    for _ in 0..moves {
        if battle.is_over() {
            break;
        }
        let legal = battle.position().legal_moves();
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let mv = legal[(seed >> 33) as usize % legal.len()];
        battle.play_move(mv).expect("a legal move plays");
    }
    battle
}

fn caption() -> Caption {
    Caption {
        title: "Match #12 · Battle 1 of 2".into(),
        dwarfs: "alice".into(),
        trolls: "bob".into(),
        status: "alice to move".into(),
        over: false,
    }
}

fn bench_render(c: &mut Criterion) {
    let renderer = Renderer::new();
    // Move 50 of the fixed battle: 20 dwarfs and 7 trolls left, the last move a troll's
    // capture, so highlights and a crossed-out dwarf are drawn.
    let mid = battle(50);
    let view = BoardView {
        position: mid.position(),
        last_move: mid.last_move(),
        caption: None,
    };
    let caption = caption();
    let captioned = BoardView {
        caption: Some(&caption),
        ..view
    };
    let long = battle(150);
    println!(
        "mid-game position (move {}, last {}): {}",
        mid.moves().len(),
        mid.last_move().map(|m| m.to_string()).unwrap_or_default(),
        mid.position().fen()
    );
    for theme in Theme::ALL {
        println!(
            "board PNG, {theme}: {} bytes; with caption: {} bytes",
            renderer.board_png(&view, theme).len(),
            renderer.board_png(&captioned, theme).len()
        );
    }
    println!(
        "replay GIF of {} moves: {} bytes",
        long.moves().len(),
        renderer
            .replay_gif(&long, Some(&caption), Theme::Default)
            .len()
    );

    c.bench_function("board_png mid-game", |b| {
        b.iter(|| renderer.board_png(&view, Theme::Default))
    });
    c.bench_function("board_png mid-game with caption", |b| {
        b.iter(|| renderer.board_png(&captioned, Theme::Default))
    });
    c.bench_function("board_png mid-game high-contrast", |b| {
        b.iter(|| renderer.board_png(&view, Theme::HighContrast))
    });
    c.bench_function("text_board mid-game", |b| {
        b.iter(|| text_board(mid.position()))
    });
    let mut group = c.benchmark_group("slow");
    group.sample_size(20);
    group.bench_function("replay_gif 150 moves", |b| {
        b.iter(|| renderer.replay_gif(&long, Some(&caption), Theme::Default))
    });
    group.bench_function("Renderer::new", |b| b.iter(Renderer::new));
    group.finish();
}

criterion_group!(benches, bench_render);
criterion_main!(benches);
