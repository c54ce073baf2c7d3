//! The thudbot command line: run the bot, or use the engine and renderer directly.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Parser, Subcommand};
use poise::serenity_prelude as serenity;
use thudbot::computer::{think, Level};
use thudbot::config::Config;
use thudbot::console::Console;
use thudbot::discord::{self, BotOptions};
use thudbot::game::{last_move_into, perft, MoveText, Position, Variant};
use thudbot::render::{text_board, BoardView, Renderer, Theme};
use thudbot::service::{Service, SystemClock};
use thudbot::store::{Database, Store};

#[derive(Parser)]
#[command(name = "thudbot", version, about = "Correspondence Thud on Discord")]
struct Cli {
    /// The configuration file (default: config.toml if present).
    #[arg(long, global = true)]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run the bot on Discord (the default). Needs a bot token: DISCORD_TOKEN or
    /// `discord_token` in the config file.
    Run,
    /// Try the bot without Discord: read `<player>: /thud <subcommand> [option:value ...]`
    /// lines from standard input and print what the bot would post.
    Local {
        /// Where to write board pictures, replays and records (default: <data_dir>/local).
        #[arg(long)]
        pictures: Option<PathBuf>,
    },
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
    /// Print the move the computer player would play, in canonical notation, as the last line.
    Bestmove {
        /// The position, e.g. the classic start
        /// `dd1dd/d5d/d7d/d9d/d11d/d13d/d5TTT5d/6TRT6/d5TTT5d/d13d/d11d/d9d/d7d/d5d/dd1dd d`.
        fen: String,
        /// Rules the position is played under: classic, original or koom-valley.
        #[arg(long, default_value = "classic")]
        variant: String,
        /// 1 (a beginner) to 5 (the full engine, up to 2 s).
        #[arg(long, default_value = "3")]
        level: String,
        /// Decides between equal moves, and levels 1 and 2's mistakes.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// Play as an engine for benchmarks: answer each `go <milliseconds> <FEN>` line on standard
    /// input with the move, in canonical notation, searched for that long; `quit` ends.
    Engine {
        /// Rules the positions are played under: classic, original or koom-valley.
        #[arg(long, default_value = "classic")]
        variant: String,
        /// The level whose search answers (its own time is replaced by the `go` line's).
        #[arg(long, default_value = "5")]
        level: String,
    },
    /// Draw a position as a PNG board picture, or print it as the brief text board.
    Render {
        /// The position to draw (the position after --last-move, if one is given).
        fen: String,
        /// Where to write the PNG.
        #[arg(long, required_unless_present = "text")]
        out: Option<std::path::PathBuf>,
        /// The move that led to the position, with its captures as a record writes them
        /// (e.g. TG7-F6xE5xF5); it is checked by taking it back and playing it again.
        #[arg(long)]
        last_move: Option<String>,
        /// default or high-contrast.
        #[arg(long, default_value = "default")]
        theme: String,
        /// Rules the position is played under: classic, original or koom-valley.
        #[arg(long, default_value = "classic")]
        variant: String,
        /// Print the brief text board instead of writing a picture.
        #[arg(long)]
        text: bool,
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
        Some(Command::Bestmove {
            fen,
            variant,
            level,
            seed,
        }) => run_bestmove(&fen, &variant, &level, seed),
        Some(Command::Engine { variant, level }) => run_engine(&variant, &level),
        Some(Command::Local { pictures }) => run_local(cli.config, pictures),
        Some(Command::Render {
            fen,
            out,
            last_move,
            theme,
            variant,
            text,
        }) => run_render(RenderArgs {
            fen: &fen,
            out: out.as_deref(),
            last_move: last_move.as_deref(),
            theme: &theme,
            variant: &variant,
            text,
        }),
        Some(Command::Run) | None => run_bot(cli.config),
    }
}

/// Reads the configuration and starts logging, or says why it cannot.
fn setup(path: Option<PathBuf>) -> Result<Config, ExitCode> {
    let config = match Config::load(path.as_deref()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("thudbot: {e}");
            return Err(ExitCode::from(2));
        }
    };
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .or_else(|_| tracing_subscriber::EnvFilter::try_new(&config.log_level))
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
    Ok(config)
}

fn runtime() -> Result<tokio::runtime::Runtime, ExitCode> {
    tokio::runtime::Runtime::new().map_err(|e| {
        eprintln!("thudbot: cannot start the async runtime: {e}");
        ExitCode::FAILURE
    })
}

/// Opens the configured (or managed) database and the service over it.
async fn open_service(config: &Config) -> Result<(Database, Service), ExitCode> {
    let db = Database::open(&config.database()).await.map_err(|e| {
        eprintln!("thudbot: {e}");
        ExitCode::FAILURE
    })?;
    let service = Service::new(
        Store::new(db.pool().clone()),
        Arc::new(Renderer::new()),
        Arc::new(SystemClock),
        config.service(),
    );
    Ok((db, service))
}

fn run_local(config: Option<PathBuf>, pictures: Option<PathBuf>) -> ExitCode {
    let config = match setup(config) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let runtime = match runtime() {
        Ok(r) => r,
        Err(code) => return code,
    };
    runtime.block_on(async {
        let (db, service) = match open_service(&config).await {
            Ok(opened) => opened,
            Err(code) => return code,
        };
        let pictures = pictures.unwrap_or_else(|| config.data_dir.join("local"));
        let mut console = Console::new(&service, &pictures);
        let input = tokio::io::BufReader::new(tokio::io::stdin());
        let mut out = std::io::stdout();
        let result = console.run(input, &mut out).await;
        db.close().await;
        match result {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("thudbot: {e}");
                ExitCode::FAILURE
            }
        }
    })
}

/// What to do without a token.
const NO_TOKEN: &str = "thudbot: no Discord bot token.\n\
  1. Open https://discord.com/developers/applications and create an application (New Application).\n\
  2. Under Bot, press Reset Token and copy the token.\n\
  3. Run `DISCORD_TOKEN=<the token> thudbot`, or put `discord_token = \"<the token>\"` in config.toml.\n\
  The README's Discord set-up section shows how to invite the bot to a server.\n\
  To try the game without Discord, run `thudbot local`.";

fn run_bot(config: Option<PathBuf>) -> ExitCode {
    let config = match setup(config) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let Some(token) = config
        .discord_token
        .clone()
        .filter(|t| !t.trim().is_empty())
    else {
        eprintln!("{NO_TOKEN}");
        return ExitCode::from(2);
    };
    let runtime = match runtime() {
        Ok(r) => r,
        Err(code) => return code,
    };
    runtime.block_on(async {
        let (db, service) = match open_service(&config).await {
            Ok(opened) => opened,
            Err(code) => return code,
        };
        let service = Arc::new(service);
        let http = discord::http(
            token.trim(),
            config.discord_proxy.as_deref(),
            std::time::Duration::from_secs(config.request_timeout_seconds.max(1)),
        );
        let code = match discord::start(http, service, BotOptions::from_config(&config)).await {
            Err(e) => {
                tracing::error!(error = %e, "could not start");
                eprintln!("thudbot: {e}");
                ExitCode::FAILURE
            }
            Ok(mut bot) => {
                let code = tokio::select! {
                    signal = shutdown_signal() => {
                        tracing::info!(%signal, "shutting down: finishing the commands in flight");
                        ExitCode::SUCCESS
                    }
                    result = bot.stopped() => match result {
                        Ok(()) => ExitCode::SUCCESS,
                        Err(e) => {
                            eprintln!("thudbot: Discord closed the connection: {e}{}", token_hint(&e));
                            ExitCode::FAILURE
                        }
                    }
                };
                if let Err(e) = bot.shutdown().await {
                    tracing::warn!(error = %e, "the Discord client did not stop cleanly");
                }
                code
            }
        };
        db.close().await;
        tracing::info!("stopped");
        code
    })
}

/// A hint when Discord refused the token.
fn token_hint(e: &serenity::Error) -> &'static str {
    let text = e.to_string();
    if text.contains("401") || text.contains("Unauthorized") || text.contains("Authentication") {
        " (is the bot token right? Reset it in the developer portal and try again)"
    } else {
        ""
    }
}

/// SIGINT (Ctrl-C) or SIGTERM, whichever comes first.
async fn shutdown_signal() -> &'static str {
    let mut term = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
        Ok(s) => s,
        Err(e) => {
            tracing::warn!(error = %e, "cannot listen for SIGTERM");
            let _ = tokio::signal::ctrl_c().await;
            return "SIGINT";
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => "SIGINT",
        _ = term.recv() => "SIGTERM",
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

fn run_bestmove(fen: &str, variant: &str, level: &str, seed: u64) -> ExitCode {
    let fail = |message: String| {
        eprintln!("thudbot bestmove: {message}");
        ExitCode::from(2)
    };
    let (variant, level) = match variant_and_level(variant, level) {
        Ok(both) => both,
        Err(message) => return fail(message),
    };
    let position = match Position::from_fen(fen, variant) {
        Ok(p) => p,
        Err(e) => return fail(format!("bad position: {e}")),
    };
    let began = std::time::Instant::now();
    match think(&position, &level.settings(position.variant()), seed) {
        Some(thought) => {
            use std::io::Write;
            // A closed pipe (`| head -1`) is not worth a panic.
            let mut out = std::io::stdout();
            let _ = writeln!(
                out,
                "level {level}: depth {}, {} positions, expected final margin {:+.2} points for the dwarfs, {:.3} s",
                thought.depth,
                thought.nodes,
                f64::from(thought.expected_margin(&position)) / 100.0,
                began.elapsed().as_secs_f64()
            );
            let _ = writeln!(out, "{}", thought.best);
            ExitCode::SUCCESS
        }
        None => fail("the position has no legal move".into()),
    }
}

/// The rules and the level named on the command line, or what is wrong with them.
fn variant_and_level(variant: &str, level: &str) -> Result<(Variant, Level), String> {
    let variant: Variant = variant
        .parse()
        .map_err(|e: thudbot::game::UnknownVariant| e.to_string())?;
    let level: Level = level
        .parse()
        .map_err(|e: thudbot::computer::UnknownLevel| e.to_string())?;
    Ok((variant, level))
}

fn run_engine(variant: &str, level: &str) -> ExitCode {
    let served = variant_and_level(variant, level).and_then(|(variant, level)| {
        thudbot::computer::protocol::serve(
            std::io::stdin().lock(),
            std::io::stdout(),
            variant,
            level,
        )
    });
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("thudbot engine: {message}");
            ExitCode::from(2)
        }
    }
}

struct RenderArgs<'a> {
    fen: &'a str,
    out: Option<&'a std::path::Path>,
    last_move: Option<&'a str>,
    theme: &'a str,
    variant: &'a str,
    text: bool,
}

fn run_render(args: RenderArgs<'_>) -> ExitCode {
    let fail = |message: String| {
        eprintln!("thudbot render: {message}");
        ExitCode::from(2)
    };
    let variant: Variant = match args.variant.parse() {
        Ok(v) => v,
        Err(e) => return fail(e.to_string()),
    };
    let theme: Theme = match args.theme.parse() {
        Ok(t) => t,
        Err(e) => return fail(e.to_string()),
    };
    let position = match Position::from_fen(args.fen, variant) {
        Ok(p) => p,
        Err(e) => return fail(format!("bad position: {e}")),
    };
    if args.text {
        println!("{}", text_board(&position));
        return ExitCode::SUCCESS;
    }
    let last_move = match args.last_move {
        None => None,
        Some(notation) => {
            let parsed: MoveText = match notation.parse() {
                Ok(m) => m,
                Err(e) => return fail(format!("bad last move: {e}")),
            };
            match last_move_into(&position, &parsed) {
                Ok(mv) => Some(mv),
                Err(e) => return fail(format!("last move `{notation}`: {e}")),
            }
        }
    };
    let Some(out) = args.out else {
        return fail("give --out FILE.png, or --text to print the board".into());
    };
    let view = BoardView {
        position: &position,
        last_move: last_move.as_ref(),
        caption: None,
    };
    let png = Renderer::new().board_png(&view, theme);
    match std::fs::write(out, png) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("thudbot render: cannot write {}: {e}", out.display());
            ExitCode::FAILURE
        }
    }
}
