//! The engine alone on the strength benchmark's line protocol (as `thudbot engine`, without
//! the bot around it): `thudbot-engine --level 1` answers `go <milliseconds> <FEN>` lines.

use std::process::ExitCode;

use clap::Parser;
use thud_engine::computer::{protocol, Level, UnknownLevel};
use thud_engine::game::{UnknownVariant, Variant};

#[derive(Parser)]
#[command(about = "Play as an engine on the line protocol of thudbot-strength")]
struct Args {
    /// Rules the positions are played under: classic, original or koom-valley.
    #[arg(long, default_value = "classic")]
    variant: String,
    /// The level whose search answers (its own time is replaced by the `go` line's).
    #[arg(long, default_value = "5")]
    level: String,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let served = args
        .variant
        .parse::<Variant>()
        .map_err(|e: UnknownVariant| e.to_string())
        .and_then(|v| {
            Ok((
                v,
                args.level
                    .parse::<Level>()
                    .map_err(|e: UnknownLevel| e.to_string())?,
            ))
        })
        .and_then(|(variant, level)| {
            protocol::serve(std::io::stdin().lock(), std::io::stdout(), variant, level)
        });
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("thudbot-engine: {message}");
            ExitCode::from(2)
        }
    }
}
