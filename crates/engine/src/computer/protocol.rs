//! The line protocol the strength benchmark speaks to an engine: each `go <milliseconds>
//! <FEN>` line is answered with the move, in canonical notation, searched for that long;
//! `quit` (or the end of the input) ends. `thudbot engine` and the lab's `thudbot-engine`
//! both serve it from here.

use std::io::{BufRead, Write};
use std::time::Duration;

use super::{think, Level, Settings};
use crate::game::{Position, Variant};

/// Answers `input`'s lines on `out` with `level`'s search under `variant`'s rules, or says
/// what was wrong with a line. A closed output ends it quietly.
pub fn serve(
    input: impl BufRead,
    mut out: impl Write,
    variant: Variant,
    level: Level,
) -> Result<(), String> {
    for (seed, line) in input.lines().enumerate() {
        let Ok(line) = line else { break };
        let line = line.trim();
        if line == "quit" {
            break;
        }
        // `go <milliseconds> <FEN>`; the FEN holds a space before the side to move.
        let mut parts = line.splitn(3, ' ');
        let (Some("go"), Some(millis), Some(fen)) = (parts.next(), parts.next(), parts.next())
        else {
            return Err(format!("expected `go <milliseconds> <FEN>`, read `{line}`"));
        };
        let Ok(millis) = millis.parse::<u64>() else {
            return Err(format!("`{millis}` is not a number of milliseconds"));
        };
        let position =
            Position::from_fen(fen, variant).map_err(|e| format!("bad position: {e}"))?;
        let settings = Settings {
            time: Duration::from_millis(millis),
            ..level.settings(variant)
        };
        let Some(thought) = think(&position, &settings, seed as u64) else {
            return Err(format!("no legal move in {fen}"));
        };
        if writeln!(out, "{}", thought.best)
            .and_then(|()| out.flush())
            .is_err()
        {
            break;
        }
    }
    Ok(())
}
