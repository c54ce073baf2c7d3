//! The thudbot command line: run the bot, or use the engine and renderer directly.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use thudbot::game::{perft, Position, Variant};

#[derive(Parser)]
#[command(name = "thudbot", version, about = "Correspondence Thud on Discord")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal-move tree from a position, for each depth up to DEPTH.
    Perft {
        /// The position, e.g. the classic start
        /// `dd1dd/d5d/d7d/d9d/d11d/d13d/d5TTT5d/6TRT6/d5TTT5d/d13d/d11d/d9d/d7d/d5d/dd1dd d`.
        fen: String,
        depth: u32,
        /// Rules to count under: classic, original or koom-valley.
        #[arg(long, default_value = "classic")]
        variant: String,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft {
            fen,
            depth,
            variant,
        }) => run_perft(&fen, depth, &variant),
        None => {
            eprintln!("thudbot: give a command; see `thudbot --help`");
            ExitCode::from(2)
        }
    }
}

fn run_perft(fen: &str, depth: u32, variant: &str) -> ExitCode {
    let variant: Variant = match variant.parse() {
        Ok(v) => v,
        Err(e) => {
            eprintln!("thudbot perft: {e}");
            return ExitCode::from(2);
        }
    };
    let position = match Position::from_fen(fen, variant) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("thudbot perft: bad position: {e}");
            return ExitCode::from(2);
        }
    };
    for d in 1..=depth {
        println!("perft {d}: {}", perft(&position, d));
    }
    ExitCode::SUCCESS
}
