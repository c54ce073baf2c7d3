//! Analysis in the console: refused during the match, then the Analyse button of the result
//! judges the match there and prints the report, as text and with the graph as a file.

use crate::common::TempDir;
use crate::console::run_console;
use thudbot::store::ScratchDatabase;

#[tokio::test]
async fn the_console_analyses_a_finished_match_and_prints_the_report_and_the_graph() {
    let db = ScratchDatabase::create().await.expect("a scratch database");
    let dir = TempDir::new("console-analysis");
    let input = "\
alice: /thud challenge opponent:bob side:dwarfs
bob: /thud accept
alice: /thud play notation:dA7-F7
bob: /thud play notation:TG8-F8xF7
carol: /thud analysis
alice: /thud resign
alice: /thud press button:confirm
carol: /thud press button:analyse
carol: /thud analysis match:1
carol: /thud analysis match:x
";
    let (out, err, ok) = run_console(&db, &dir, input);
    assert!(ok, "stdout:\n{out}\nstderr:\n{err}");
    assert!(
        out.contains("(only carol sees this): Match #1 is still in play"),
        "{out}"
    );
    assert!(out.contains("buttons: [Rematch] [Analyse]"), "{out}");
    assert!(
        out.contains("(only carol sees this): Analysing match #1: 0 of 3 positions judged"),
        "{out}"
    );
    // Printed once when judged, once more when asked again.
    assert_eq!(out.matches("Analysis of match #1").count(), 2, "{out}");
    assert!(out.contains("alice (dwarfs): 1 move"), "{out}");
    assert!(out.contains("bob (trolls): 1 move"), "{out}");
    assert!(out.contains("Score every 10 plies"), "{out}");
    assert!(out.contains("match: `x` is not a number"), "{out}");
    let graph = dir.path().join("thud-match-1-analysis.png");
    assert!(out.contains(&graph.display().to_string()), "{out}");
    let picture = image::open(&graph).expect("the graph decodes").to_rgb8();
    assert_eq!(picture.width(), thudbot::render::graph::WIDTH);
}
