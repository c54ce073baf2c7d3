//! The `render` command and the last move it finds from notation.

use super::*;

#[test]
fn the_last_move_given_as_notation_is_found_and_drawn() {
    let battle = fixed_battle(Variant::Classic, 25);
    let played = *battle.last_move().unwrap();
    let found = last_move_into(battle.position(), &played.to_string().parse().unwrap());
    assert_eq!(found, Ok(played));
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
