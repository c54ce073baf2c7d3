//! The offline console, run as a user would: `thudbot local` with lines on standard input.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::common::TempDir;
use thudbot::store::ScratchDatabase;

pub(crate) fn run_console(
    db: &ScratchDatabase,
    dir: &TempDir,
    input: &str,
) -> (String, String, bool) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_thudbot"))
        .arg("local")
        .arg("--pictures")
        .arg(dir.path())
        .env("DATABASE_URL", db.url())
        .env("RUST_LOG", "warn")
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the thudbot binary runs");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input.as_bytes())
        .expect("the console reads its input");
    let out = child.wait_with_output().expect("the console finishes");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}

#[tokio::test]
async fn a_match_can_be_started_and_played_from_the_console() {
    let db = ScratchDatabase::create().await.expect("a scratch database");
    let dir = TempDir::new("console");
    let input = "\
alice: /thud challenge opponent:bob side:dwarfs
bob: /thud accept
alice: /thud move from:F1 to:F5
alice: /thud move from:F5 to:F6
bob: /thud shove from:G7 to:E5 capture:F5
bob: /thud shove from:G7 to:G5 capture:F5
carol: /thud board style:brief
bob: /thud end
alice: /thud press button:agree
alice: /thud nonsense
this is not a command
";
    let (out, err, ok) = run_console(&db, &dir, input);
    assert!(ok, "stdout:\n{out}\nstderr:\n{err}");
    assert!(out.contains("@bob, alice challenges you"), "{out}");
    assert!(
        out.contains("buttons: [Accept] [Decline] [Cancel]"),
        "{out}"
    );
    assert!(out.contains("Match #1"), "{out}");
    assert!(out.contains("plays dF1-F5"), "{out}");
    assert!(
        out.contains("(only alice sees this): It is not your turn; bob is to move."),
        "{out}"
    );
    // H8, behind G7 on that diagonal, is the Thudstone: G7 is a line of one.
    assert!(
        out.contains("(only bob sees this): G7-E5xF5 is not legal: a line of 1 troll can be shoved at most 1 square."),
        "{out}"
    );
    assert!(out.contains("plays TG7-G5xF5, capturing F5"), "{out}");
    assert!(out.contains("Dwarfs 31 · Trolls 32"), "{out}");
    assert!(
        out.contains("Battle 2 begins with the roles swapped"),
        "{out}"
    );
    assert!(out.contains("`nonsense` is not a command"), "{out}");
    assert!(out.contains("! write lines as"), "{out}");
    // Times are shown as dates and spans, not as Discord tokens.
    assert!(!out.contains("<t:") && !out.contains("<@"), "{out}");
    // The brief board is printed, and each picture is written where the console says.
    assert!(out.contains("A B C D E F G H I J K L M N O"), "{out}");
    let pictures: Vec<&str> = out
        .lines()
        .filter_map(|l| l.trim().strip_prefix("file: "))
        .collect();
    assert!(!pictures.is_empty());
    for path in pictures {
        let bytes = std::fs::read(path).expect("the file the console names exists");
        assert!(bytes.starts_with(b"\x89PNG"), "{path}");
    }
}

#[tokio::test]
async fn the_console_keeps_matches_between_runs() {
    let db = ScratchDatabase::create().await.expect("a scratch database");
    let dir = TempDir::new("console-again");
    let (out, _, ok) = run_console(
        &db,
        &dir,
        "alice: /thud challenge opponent:bob side:dwarfs\nbob: /thud accept\nalice: /thud play notation:dF1-F5\n",
    );
    assert!(ok && out.contains("plays dF1-F5"), "{out}");
    let (out, _, ok) = run_console(&db, &dir, "bob: /thud games\nalice: /thud board\n");
    assert!(ok, "{out}");
    assert!(out.contains("your move"), "{out}");
    assert!(out.contains("Last move: dF1-F5"), "{out}");
}

#[tokio::test]
async fn the_computer_can_be_played_from_the_console() {
    let db = ScratchDatabase::create().await.expect("a scratch database");
    let dir = TempDir::new("console-computer");
    let input = "\
alice: /thud challenge opponent:thudbot level:2 side:dwarfs
alice: /thud play notation:dF1-F5
thudbot: /thud board
alice@2: /thud challenge opponent:bob variant:chess
alice@2: /thud challenge opponent:bob side:elves
alice@2: /thud challenge opponent:bob level:3
";
    let (out, err, ok) = run_console(&db, &dir, input);
    assert!(ok, "stdout:\n{out}\nstderr:\n{err}");
    assert!(out.contains("alice plays thudbot at level 2"), "{out}");
    assert!(out.contains("plays dF1-F5"), "{out}");
    // The computer's answer is printed before the next line is read.
    let answer = out
        .find("thudbot (level 2, trolls) plays T")
        .unwrap_or_else(|| panic!("the computer moved: {out}"));
    assert!(
        answer < out.find("thudbot is the computer").expect("refused"),
        "{out}"
    );
    assert!(
        out.contains("(only alice sees this): `chess` is not a variant"),
        "{out}"
    );
    assert!(out.contains("`elves` is not a side"), "{out}");
    assert!(
        out.contains("`level` is for a match against thudbot"),
        "{out}"
    );
}

#[tokio::test]
async fn notices_by_dm_vacation_and_a_rematch_work_in_the_console() {
    let db = ScratchDatabase::create().await.expect("a scratch database");
    let dir = TempDir::new("console-days");
    let input = "\
bob: /thud settings notify:dm
alice: /thud challenge opponent:bob side:dwarfs
bob: /thud accept
alice: /thud play notation:dF1-F5
bob: /thud vacation start days:2
bob: /thud vacation end
bob: /thud play notation:TG7-G6
alice: /thud resign
alice: /thud press button:confirm
bob: /thud press button:rematch
alice: /thud games scope:all
";
    let (out, err, ok) = run_console(&db, &dir, input);
    assert!(ok, "stdout:\n{out}\nstderr:\n{err}");
    assert!(out.contains("notify dm"), "{out}");
    assert!(
        out.contains("thudbot to bob (direct message): alice (dwarfs) plays dF1-F5"),
        "{out}"
    );
    assert!(out.contains("It is your move in match #1"), "{out}");
    assert!(
        out.contains("(only bob sees this): You are on vacation until"),
        "{out}"
    );
    assert!(out.contains("bob is on vacation until"), "{out}");
    assert!(out.contains("bob is back from vacation"), "{out}");
    assert!(out.contains("buttons: [Rematch]"), "{out}");
    assert!(out.contains("bob challenges you"), "{out}");
    assert!(out.contains("bob commands the dwarfs in battle 1"), "{out}");
    // scope:all: the finished match is not in play, on this server or any other.
    assert!(
        out.contains("(only alice sees this): You have no matches in play. Challenge"),
        "{out}"
    );
}

#[tokio::test]
async fn a_round_robin_tournament_is_run_from_the_console() {
    let db = ScratchDatabase::create().await.expect("a scratch database");
    let dir = TempDir::new("console-tournament");
    let mut input = String::from(
        "\
olga: /thud tournament create name:Winter Cup format:round-robin days:3
ann: /thud tournament join
ben: /thud press button:join
cat: /thud tournament join
dan: /thud tournament join
ann: /thud tournament join
olga: /thud tournament start
",
    );
    // Three rounds of two games, each seated in channel 10000 + its number: whoever of the
    // four plays there first resigns (the others are told they do not play in it).
    for game in 10001..=10006 {
        for p in ["ann", "ben", "cat", "dan"] {
            input.push_str(&format!("{p}@{game}: /thud resign\n"));
            input.push_str(&format!("{p}@{game}: /thud press button:confirm\n"));
        }
    }
    input.push_str("olga: /thud tournament standings\n");
    let (out, err, ok) = run_console(&db, &dir, &input);
    assert!(ok, "stdout:\n{out}\nstderr:\n{err}");
    assert!(
        out.contains("Tournament #1: Winter Cup (round robin"),
        "{out}"
    );
    assert!(out.contains("You are already in this tournament."), "{out}");
    assert!(out.contains("Round 1 of Winter Cup is paired"), "{out}");
    assert!(
        out.contains("thudbot in #10001: Winter Cup, round 1: "),
        "{out}"
    );
    assert!(out.contains("Round 3 of Winter Cup is paired"), "{out}");
    assert!(out.contains("Winter Cup is over."), "{out}");
    assert!(out.contains("Winter Cup — standings, finished"), "{out}");
    let picture = dir.path().join("tournament-1-standings.png");
    let bytes = std::fs::read(&picture).expect("the standings picture was written");
    image::load_from_memory(&bytes).expect("a PNG");
}

#[tokio::test]
async fn the_console_refuses_what_it_cannot_use_and_echoes_every_value_alike() {
    let db = ScratchDatabase::create().await.expect("a scratch database");
    let dir = TempDir::new("console-echo");
    let long = "x".repeat(10_000);
    let mut input = String::from(
        "alice: /thud challenge opponent:\n\
         al\0ice: /thud games\n\
         alice: /thud challenge opponent:bob side:dwarfs\n\
         bob: /thud accept\n\
         alice: /thud resign\n\
         bob: /thud press button:Confirm\n\
         alice: /thud press button:Confirm\n",
    );
    for option in [
        "challenge opponent:carol variant",
        "challenge opponent:carol side",
        "challenge opponent:carol days",
        "challenge opponent:carol rated",
        "board style",
        "end action",
        "games scope",
        "leaderboard scope",
        "replay theme",
        "settings notify",
        "settings style",
        "settings theme",
        "press button",
        "record match",
        "analysis match",
        "tournament action:create name:Cup format",
    ] {
        input += &format!("carol@3: /thud {option}:{long}\n");
    }
    input += &format!("carol@{long}: /thud games\n");
    input += &format!("carol: /thud {long}\n");
    let (out, err, ok) = run_console(&db, &dir, &input);
    assert!(ok, "stdout:\n{out}\nstderr:\n{err}");
    assert!(
        out.contains("(only alice sees this): Name the player you challenge"),
        "{out}"
    );
    assert!(out.contains("cannot be a player's name"), "{out}");
    assert!(!out.contains("went wrong"), "{out}");
    // The Confirm button was alice's alone: bob cannot resign by pressing it.
    assert!(
        out.contains("(only bob sees this): there is no `Confirm` button here"),
        "{out}"
    );
    assert!(out.contains("thudbot: alice resigns."), "{out}");
    assert!(!out.contains("bob resigns"), "{out}");
    // Every refusal that shows a value shows at most the same 40 characters of it.
    let refusals: Vec<&str> = out.lines().filter(|l| l.contains("xxxx")).collect();
    assert_eq!(refusals.len(), 18, "{out}");
    for line in refusals {
        let longest = line.split(|c| c != 'x').map(str::len).max().unwrap_or(0);
        assert!(longest <= 40, "{longest} characters echoed: {line}");
    }
}

#[tokio::test]
async fn a_button_shown_in_one_run_can_be_pressed_in_the_next() {
    let db = ScratchDatabase::create().await.expect("a scratch database");
    let dir = TempDir::new("console-buttons");
    let (out, err, ok) = run_console(
        &db,
        &dir,
        "alice: /thud challenge opponent:bob side:dwarfs\n",
    );
    assert!(ok, "stdout:\n{out}\nstderr:\n{err}");
    assert!(out.contains("[Accept]"), "{out}");
    // A new run, as after a restart: the challenge's Accept button still works.
    let (out, err, ok) = run_console(&db, &dir, "bob: /thud press button:accept\n");
    assert!(ok, "stdout:\n{out}\nstderr:\n{err}");
    assert!(!out.contains("there is no `accept` button"), "{out}");
    assert!(out.contains("Battle 1"), "{out}");
}

#[tokio::test]
async fn an_unknown_option_is_refused_and_changes_nothing() {
    let db = ScratchDatabase::create().await.expect("a scratch database");
    let dir = TempDir::new("console-options");
    let input = "\
alice: /thud challenge opponent:bob dayz:1
alice: /thud challenge opponent:bob days:-1
bob: /thud accept
";
    let (out, err, ok) = run_console(&db, &dir, input);
    assert!(ok, "stdout:\n{out}\nstderr:\n{err}");
    assert!(
        out.contains("`dayz` is not an option of `/thud challenge`"),
        "{out}"
    );
    assert!(
        out.contains("-1 days a move is not offered; choose 1, 2, 3, 5, 7, 10 or 14."),
        "{out}"
    );
    // Neither line made a challenge, so there is nothing to accept.
    assert!(!out.contains("challenges you"), "{out}");
}

#[tokio::test]
async fn a_name_too_long_to_keep_is_refused_not_cut() {
    let db = ScratchDatabase::create().await.expect("a scratch database");
    let dir = TempDir::new("console-names");
    let long = "a".repeat(300);
    let input = format!("{long}: /thud challenge opponent:bob\nbob: /thud accept\n");
    let (out, err, ok) = run_console(&db, &dir, &input);
    assert!(ok, "stdout:\n{out}\nstderr:\n{err}");
    assert!(
        out.contains("a player's name has at most 64 characters") && out.contains("has 300"),
        "{out}"
    );
    // No challenge was made under a name cut to 64 characters.
    assert!(!out.contains(&"a".repeat(64)), "{out}");
    assert!(!out.contains("challenges you"), "{out}");
}

#[tokio::test]
async fn help_a_group_alone_and_a_slip_typed_two_ways_read_as_one() {
    let db = ScratchDatabase::create().await.expect("a scratch database");
    let dir = TempDir::new("console-usage");
    let input = "\
/thud help
alice: /thud ladder
alice: /thud board style:tiny
alice: /thud settings style:tiny
alice: /thud review replay theme:dark
alice: /thud settings theme:dark
olga: /thud-admin tournament create name:Cup page:2
";
    let (out, err, ok) = run_console(&db, &dir, input);
    assert!(ok, "stdout:\n{out}\nstderr:\n{err}");
    // The README's `/thud help` line, as it shows it: no player needed.
    assert!(
        out.starts_with("thudbot: Lines look like `<player>: /thud"),
        "{out}"
    );
    // A group alone is answered with its usage, as `tournament` alone is.
    assert!(
        out.contains("(only alice sees this): write `ladder leaderboard|stats|history`"),
        "{out}"
    );
    // A style or theme refused by `board` or `replay` reads as `settings` refuses it.
    assert_eq!(
        out.matches("(only alice sees this): tiny is not a board style; choose full or brief.\n")
            .count(),
        2,
        "{out}"
    );
    assert_eq!(
        out.matches(
            "(only alice sees this): dark is not a theme; choose default or high-contrast.\n"
        )
        .count(),
        2,
        "{out}"
    );
    assert!(
        out.contains(
            "`page` is not an option of `/thud-admin tournament create`; it takes name: format:"
        ),
        "{out}"
    );
}

#[tokio::test]
async fn a_number_out_of_range_is_refused_with_the_range_however_far_out() {
    let db = ScratchDatabase::create().await.expect("a scratch database");
    let dir = TempDir::new("console-ranges");
    let input = "\
alice: /thud challenge opponent:bob days:-3
alice: /thud challenge opponent:bob days:4
alice: /thud challenge opponent:thudbot level:-1
alice: /thud challenge opponent:thudbot level:300
alice: /thud vacation start days:-2
alice: /thud vacation start days:0
alice: /thud challenge opponent:bob side:dwarfs
bob: /thud accept
alice: /thud move from:F1 to:F5
bob: /thud move from:G7 to:G6
alice: /thud resign
alice: /thud press button:confirm
alice: /thud ladder leaderboard page:0
alice: /thud ladder leaderboard page:-1
alice: /thud ladder leaderboard page:2
";
    let (out, err, ok) = run_console(&db, &dir, input);
    assert!(ok, "stdout:\n{out}\nstderr:\n{err}");
    let said = |text: &str| out.matches(text).count();
    // One sentence for days out of range, below the list or between its numbers.
    assert_eq!(
        said("-3 days a move is not offered; choose 1, 2, 3, 5, 7, 10 or 14."),
        1,
        "{out}"
    );
    assert_eq!(
        said(": 4 days a move is not offered; choose 1, 2, 3, 5, 7, 10 or 14."),
        1,
        "{out}"
    );
    assert_eq!(
        said("There is no level -1; choose 1 (a beginner) to 5 (the strongest)."),
        1,
        "{out}"
    );
    assert_eq!(
        said("There is no level 300; choose 1 (a beginner) to 5 (the strongest)."),
        1,
        "{out}"
    );
    assert_eq!(said("A vacation lasts at least one day."), 2, "{out}");
    // Pages start at 1: page 0 is refused like any page that is not there.
    for page in ["0", "-1", "2"] {
        assert!(
            out.contains(&format!(
                "(only alice sees this): The leaderboard of this server has 1 page; there is no page {page}."
            )),
            "{out}"
        );
    }
    assert!(!out.contains("Leaderboard — this server"), "{out}");
}

#[tokio::test]
async fn a_plan_is_queued_shown_to_its_player_and_played_from_the_console() {
    let db = ScratchDatabase::create().await.expect("a scratch database");
    let dir = TempDir::new("console-plan");
    let input = "\
alice: /thud challenge opponent:bob side:dwarfs
bob: /thud accept
alice: /thud move from:F1 to:F5
alice: /thud plan line:if TG7-H6 then dA7-A8
alice: /thud plan line:TG7-F6 dA7-A8
bob: /thud plan line:dF5-F6 TH6-H5
alice: /thud plan line:dF5-F6 TH6-H5
bob: /thud play notation:TG7-H6
alice: /thud plan
";
    let (out, err, ok) = run_console(&db, &dir, input);
    assert!(ok, "stdout:\n{out}\nstderr:\n{err}");
    assert!(
        out.contains("(only alice sees this): Your plan: answered at once when bob moves (2 lines).\n1. If bob plays TG7-H6, you play dA7-A8.\n2. If bob plays TG7-F6, you play dA7-A8."),
        "{out}"
    );
    assert!(
        out.contains("(only bob sees this): It is your turn: play your move."),
        "{out}"
    );
    assert!(
        out.contains("(only alice sees this): Move 1 of the line, dF5-F6, is not legal there"),
        "{out}"
    );
    assert!(
        out.contains("A line starts with your opponent's move, then your answer."),
        "{out}"
    );
    assert!(
        out.contains("thudbot: bob (trolls) plays TG7-H6. Dwarfs 32 · Trolls 32.\nalice (dwarfs) plays dA7-A8."),
        "{out}"
    );
    assert!(out.contains("@bob, your move (trolls)"), "{out}");
    assert!(
        out.contains("(only alice sees this): You have no plan."),
        "{out}"
    );
}
