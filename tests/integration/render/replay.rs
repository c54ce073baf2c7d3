//! Replay GIFs: a frame per position, and replays kept under a byte limit.

use super::*;

fn replay_caption() -> Caption {
    Caption {
        title: "Match #3 · Battle 2 of 2".into(),
        dwarfs: "bob".into(),
        trolls: "alice".into(),
        status: "Replay".into(),
        over: false,
    }
}

fn frames_of(gif: &[u8]) -> Vec<image::Frame> {
    image::codecs::gif::GifDecoder::new(Cursor::new(gif))
        .unwrap()
        .into_frames()
        .collect_frames()
        .unwrap()
}

/// Checks that frame `i` shows the position after `first + i` moves, with the move that led
/// there highlighted, and that the last frame is held longest.
fn assert_frames_show(frames: &[image::Frame], battle: &Battle, first: usize) {
    let c = Theme::Default.colours();
    let positions = battle.positions();
    for (i, frame) in frames.iter().enumerate() {
        let img = image::DynamicImage::ImageRgba8(frame.buffer().clone()).to_rgb8();
        assert_eq!(img.dimensions(), (600, 692));
        let shown = first + i;
        let touched = match shown.checked_sub(1).map(|m| battle.moves()[m]) {
            Some(mv) => {
                mv.captured() | SquareSet::single(mv.from()) | mv.path().into_iter().collect()
            }
            None => SquareSet::EMPTY,
        };
        assert_squares_match(&img, &c, &positions[shown], true, touched);
    }
    let (last_ms, _) = frames.last().unwrap().delay().numer_denom_ms();
    let (step_ms, _) = frames[1].delay().numer_denom_ms();
    assert!(last_ms > step_ms, "the last frame is held longer");
}

#[test]
fn a_replay_has_one_frame_per_position_and_each_frame_shows_its_position() {
    let battle = fixed_battle(Variant::Classic, 30);
    let gif = renderer().replay_gif(&battle, Some(&replay_caption()), Theme::Default);
    let frames = frames_of(&gif);
    assert_eq!(frames.len(), battle.moves().len() + 1);
    assert_frames_show(&frames, &battle, 0);
}

#[test]
fn a_long_battle_over_the_limit_is_replayed_from_as_far_back_as_fits() {
    let battle = fixed_battle(Variant::Classic, 300);
    let total = battle.moves().len();
    assert_eq!(total, 300, "the fixed battle lasts");
    let caption = replay_caption();
    let whole = renderer().replay_gif(&battle, Some(&caption), Theme::Default);
    let limit = 200 * 1024;
    assert!(whole.len() > 3 * limit, "{} bytes", whole.len());

    let (gif, span) = renderer()
        .replay_within(&battle, Some(&caption), Theme::Default, limit)
        .unwrap();
    assert!(gif.len() <= limit, "{} bytes", gif.len());
    assert_eq!((span.last_move, span.total_moves), (total, total));
    assert!(!span.is_whole() && span.first_move > 1);
    assert_eq!(span.moves_left_out(), span.first_move - 1);
    // The replay starts from the position before its first move, then one frame a move.
    let frames = frames_of(&gif);
    assert_eq!(frames.len(), total - span.first_move + 2);
    assert_frames_show(&frames, &battle, span.first_move - 1);
    // Most of the limit is used: a replay a tenth smaller starts later.
    assert!(gif.len() > limit * 9 / 10, "{} bytes", gif.len());
    let (_, shorter) = renderer()
        .replay_within(&battle, Some(&caption), Theme::Default, limit * 9 / 10)
        .unwrap();
    assert!(shorter.first_move > span.first_move);
}

#[test]
fn a_replay_that_fits_is_the_whole_battle_and_one_that_cannot_is_refused() {
    let battle = fixed_battle(Variant::Classic, 20);
    let whole = renderer().replay_gif(&battle, None, Theme::HighContrast);
    let (gif, span) = renderer()
        .replay_within(&battle, None, Theme::HighContrast, whole.len())
        .unwrap();
    assert_eq!(gif, whole);
    assert!(span.is_whole());
    assert_eq!(
        (span.first_move, span.last_move, span.total_moves),
        (1, 20, 20)
    );

    let refused = renderer()
        .replay_within(&battle, None, Theme::HighContrast, 5_000)
        .unwrap_err();
    assert_eq!(refused.limit, 5_000);
    assert!(refused.smallest > 5_000, "{refused}");
}

/// The caption band above the board, as pixels.
fn caption_band(frame: &image::Frame) -> Vec<u8> {
    let img = image::DynamicImage::ImageRgba8(frame.buffer().clone()).to_rgb8();
    image::imageops::crop_imm(&img, 0, 0, 600, 92)
        .to_image()
        .into_raw()
}

#[test]
fn only_the_last_frame_of_a_replay_shows_the_result() {
    let battle = fixed_battle(Variant::Classic, 6);
    let status = |status: &str| Caption {
        status: status.into(),
        ..replay_caption()
    };
    let won = frames_of(&renderer().replay_gif(
        &battle,
        Some(&status("Trolls win battle 2 by 8")),
        Theme::Default,
    ));
    let other =
        frames_of(&renderer().replay_gif(&battle, Some(&status("Battle 2 drawn")), Theme::Default));
    for i in 0..won.len() - 1 {
        assert_eq!(
            caption_band(&won[i]),
            caption_band(&other[i]),
            "frame {i} shows no result"
        );
    }
    // Frames before the last say who is to move, so they differ from one another.
    assert_ne!(caption_band(&won[0]), caption_band(&won[1]));
    assert_ne!(
        caption_band(won.last().unwrap()),
        caption_band(other.last().unwrap()),
        "the last frame shows the result"
    );
}
