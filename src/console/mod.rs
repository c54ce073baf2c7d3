//! The offline console: the same service as the bot, driven by typed lines such as
//! `alice: /thud challenge opponent:bob`, printing what the bot would post. Players are made
//! up by name on first use; everyone may press buttons with `/thud press button:<label>` and
//! act as a moderator, since the console is the operator's own table.

mod analysis;
mod buttons;
mod help;
mod line;
mod printer;
mod shown;
mod tournament;
mod values;

use printer::Printer;
use values::{
    not_a_count, parse_page, parse_side, parse_vacation_days, parse_variant, parse_yes_no,
};

pub use help::help;
pub use line::{options_of, parse, Line, LineError};

use std::io::Write;
use std::path::{Path, PathBuf};

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

use crate::game::Variant;
use crate::render::Theme;
use crate::service::{
    echo, Actor, ChallengeOptions, LadderScope, MoveRequest, Place, Reply, Service, ServiceError,
    Verb,
};
use crate::store::{
    BoardStyle, ChallengeId, ChannelId, GuildId, MatchId, Notify, Recipient, UserId,
};

/// The console's one server.
const GUILD: GuildId = GuildId(1);
/// The computer player: the console's own bot account.
const COMPUTER: UserId = UserId(1);
const COMPUTER_NAME: &str = "thudbot";

/// A console session over a service.
pub struct Console<'a> {
    service: &'a Service,
    pictures: PathBuf,
    /// The buttons last shown in each channel, by label: for everyone there (`None`), or on
    /// a message only one player sees, for that player alone, as Discord keeps an ephemeral
    /// message's buttons to the one who asked.
    buttons: shown::ShownButtons,
}

impl<'a> Console<'a> {
    /// A console writing pictures and records into `pictures`.
    pub fn new(service: &'a Service, pictures: &Path) -> Console<'a> {
        Console {
            service,
            pictures: pictures.to_path_buf(),
            buttons: shown::ShownButtons::load(pictures),
        }
    }

    /// Reads lines until the input ends, answering each, then lets the clock speak.
    pub async fn run(
        &mut self,
        input: impl AsyncBufRead + Unpin,
        out: &mut impl Write,
    ) -> std::io::Result<()> {
        let mut input = input;
        let mut line = Vec::new();
        loop {
            line.clear();
            if input.read_until(b'\n', &mut line).await? == 0 {
                return Ok(());
            }
            match std::str::from_utf8(&line) {
                Ok(text) => {
                    self.handle(text.trim_end_matches(['\n', '\r']), out)
                        .await?
                }
                // One bad line is refused; the lines after it are still read.
                Err(_) => writeln!(out, "! that line is not valid UTF-8 text; it was skipped")?,
            }
        }
    }

    /// Answers one line.
    pub async fn handle(&mut self, text: &str, out: &mut impl Write) -> std::io::Result<()> {
        let line = match parse(text) {
            Ok(Some(line)) => line,
            Ok(None) => return Ok(()),
            Err(e) => return writeln!(out, "! {e}"),
        };
        // Only `/thud help` is read without a player; nobody is made up to ask it.
        if line.player.is_empty() {
            return writeln!(out, "thudbot: {}", help());
        }
        let place = Place {
            guild: GUILD,
            channel: ChannelId(line.channel),
        };
        let actor = match self.actor(&line.player).await {
            Ok(a) => a,
            Err(e) => return writeln!(out, "! {}", e.player_message()),
        };
        let result = match self.analysis_wanted(&line, place, &actor) {
            Some(Ok(id)) => self.analyse(place, &actor, id, out).await?,
            Some(Err(e)) => Err(e),
            None => self.dispatch(&line, place, &actor).await,
        };
        match result {
            Ok(reply) => self.print(place, Some(&actor), &reply, out).await?,
            Err(e) => {
                if let ServiceError::System(detail) = &e {
                    tracing::error!(%detail, "console command failed");
                }
                writeln!(
                    out,
                    "thudbot (only {} sees this): {}",
                    actor.name,
                    e.player_message()
                )?;
            }
        }
        if let Err(e) = self.service.tick().await {
            writeln!(out, "! the clock failed: {}", e.player_message())?;
        }
        self.seat_games(out).await?;
        // The computer answers before the next line is read, as the bot's worker would.
        loop {
            self.deliver(out).await?;
            match self.service.matches().play_computer_turns().await {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) => {
                    writeln!(out, "! the computer failed: {}", e.player_message())?;
                    break;
                }
            }
        }
        Ok(())
    }

    /// Prints what the outbox holds, as the bot would post it: one round of the delivery
    /// worker, through the console's own way of telling players.
    async fn deliver(&mut self, out: &mut impl Write) -> std::io::Result<()> {
        let printer = Printer::default();
        if let Err(e) = self.service.deliver_due(&printer).await {
            writeln!(out, "! the outbox failed: {}", e.player_message())?;
        }
        for d in printer.take() {
            match d.to {
                Recipient::Dm(player) => self.print_dm(player, &d.reply, out).await?,
                Recipient::Channel(channel) => {
                    let at = Place {
                        guild: d.guild,
                        channel,
                    };
                    self.print(at, None, &d.reply, out).await?
                }
            }
        }
        Ok(())
    }

    /// The player called `name`, made up on first use.
    async fn actor(&self, name: &str) -> Result<Actor, ServiceError> {
        // A name is what the line's author typed; one holding control characters (a NUL byte)
        // cannot be stored or shown, so it is refused rather than changed behind their back.
        if name.chars().any(char::is_control) {
            return Err(refused(format!(
                "`{}` cannot be a player's name: it holds control characters",
                echo(name)
            )));
        }
        if name.eq_ignore_ascii_case(COMPUTER_NAME) {
            return Err(refused(format!(
                "{COMPUTER_NAME} is the computer; it plays its own moves"
            )));
        }
        // Names are kept to 64 characters; a longer one is refused rather than cut unsaid.
        if name.chars().count() > crate::service::MAX_NAME {
            return Err(refused(format!(
                "a player's name has at most {} characters; `{}…` has {}",
                crate::service::MAX_NAME,
                echo(&name.chars().take(20).collect::<String>()),
                name.chars().count()
            )));
        }
        let id = match self.service.people().named(name).await? {
            Some(p) => p.id,
            None => UserId(console_id(name)),
        };
        Ok(Actor::new(id, name))
    }

    async fn dispatch(
        &mut self,
        line: &Line,
        place: Place,
        actor: &Actor,
    ) -> Result<Reply, ServiceError> {
        if let Some(why) = line.unknown_option() {
            return Err(refused(why));
        }
        let s = self.service;
        let opt = |name: &str| line.get(name).map(str::to_string);
        let number = |name: &str| -> Result<Option<u64>, ServiceError> {
            match line.get(name) {
                None => Ok(None),
                Some(v) => v
                    .trim()
                    .trim_start_matches('#')
                    .parse()
                    .map(Some)
                    .map_err(|_| refused(not_a_count(name, v))),
            }
        };
        // A number the option's type cannot hold is out of its range too, and said so alike.
        let small = |name: &str| -> Result<Option<u32>, ServiceError> {
            number(name)?
                .map(|n| u32::try_from(n).map_err(|_| refused(not_a_count(name, &n.to_string()))))
                .transpose()
        };
        let verb_move = |verb: Verb| MoveRequest::Verb {
            verb,
            from: opt("from").unwrap_or_default(),
            to: opt("to").unwrap_or_default(),
            captures: opt("capture").unwrap_or_default(),
        };
        match line.subcommand.as_str() {
            "challenge" => {
                let Some(name) = line.get("opponent") else {
                    return Err(refused("challenge needs opponent:<name>"));
                };
                let name = name.trim().trim_start_matches('@');
                if name.trim().is_empty() {
                    return Err(ServiceError::Refused(
                        crate::service::Refusal::NoOpponentNamed,
                    ));
                }
                let options = ChallengeOptions {
                    variant: opt("variant").map(|v| parse_variant(&v)).transpose()?,
                    side: opt("side").map(|v| parse_side(&v)).transpose()?,
                    days_per_move: small("days")?,
                    rated: opt("rated")
                        .map(|v| parse_yes_no("rated", &v))
                        .transpose()?,
                };
                let level = match small("level")?.map(u8::try_from) {
                    Some(Err(_)) => {
                        return Err(refused(not_a_count(
                            "level",
                            line.get("level").unwrap_or_default(),
                        )))
                    }
                    Some(Ok(l)) => Some(l),
                    None => None,
                };
                if name.eq_ignore_ascii_case(COMPUTER_NAME) {
                    let computer = Actor::with_kind(COMPUTER, COMPUTER_NAME, true);
                    return s
                        .matches()
                        .challenge_computer(place, actor, &computer, level, &options, None)
                        .await;
                }
                if level.is_some() {
                    return Err(refused(format!(
                        "`level` is for a match against {COMPUTER_NAME}; leave it out to challenge a person"
                    )));
                }
                let opponent = self.actor(name).await?;
                s.matches()
                    .challenge(place, actor, &opponent, &options)
                    .await
            }
            "accept" => {
                s.matches()
                    .accept(place, actor, number("challenge")?.map(ChallengeId), None)
                    .await
            }
            "decline" => {
                s.matches()
                    .decline(place, actor, number("challenge")?.map(ChallengeId))
                    .await
            }
            "cancel" => {
                s.matches()
                    .cancel(place, actor, number("challenge")?.map(ChallengeId))
                    .await
            }
            "move" => s.matches().play(place, actor, &verb_move(Verb::Move)).await,
            "hurl" => s.matches().play(place, actor, &verb_move(Verb::Hurl)).await,
            "shove" => {
                s.matches()
                    .play(place, actor, &verb_move(Verb::Shove))
                    .await
            }
            "play" => {
                let notation = opt("notation").or_else(|| opt("move")).unwrap_or_default();
                s.matches()
                    .play(place, actor, &MoveRequest::Notation(notation))
                    .await
            }
            "board" => {
                let style = match line.get("style") {
                    None => None,
                    // Refused as `settings style:` refuses it: one sentence for one slip.
                    Some(v) => Some(BoardStyle::from_name(&v.trim().to_ascii_lowercase()).ok_or(
                        ServiceError::Refused(crate::service::Refusal::NotABoardStyle {
                            given: echo(v),
                        }),
                    )?),
                };
                s.matches().board(place, actor, style).await
            }
            "end" => match line
                .get("action")
                .unwrap_or("propose")
                .to_ascii_lowercase()
                .as_str()
            {
                "propose" => s.matches().propose_end(place, actor).await,
                "agree" => s.matches().answer_end(place, actor, true, None).await,
                "decline" => s.matches().answer_end(place, actor, false, None).await,
                other => Err(refused(format!(
                    "`{}` is not an end action; choose propose, agree or decline",
                    echo(other)
                ))),
            },
            "resign" => s.matches().resign_prompt(place, actor).await,
            "claim" => s.matches().claim(place, actor).await,
            "games" => {
                let everywhere = match line.get("scope").map(str::to_ascii_lowercase).as_deref() {
                    None | Some("server") => false,
                    Some("all") => true,
                    Some(other) => {
                        return Err(refused(format!(
                            "`{}` is not a scope; choose server or all",
                            echo(other)
                        )))
                    }
                };
                s.matches().my_games(place, actor, everywhere).await
            }
            "leaderboard" => {
                let scope = match line.get("scope").map(str::to_ascii_lowercase).as_deref() {
                    None | Some("server") => LadderScope::Server,
                    Some("global") => LadderScope::Global,
                    Some(other) => {
                        return Err(refused(format!(
                            "`{}` is not a scope; choose server or global",
                            echo(other)
                        )))
                    }
                };
                let page = line.get("page").map(parse_page).transpose()?.unwrap_or(1);
                s.ladder().leaderboard(place, scope, page).await
            }
            "stats" | "history" => {
                let who = match line.get("player").map(|n| n.trim().trim_start_matches('@')) {
                    Some(name) if name.eq_ignore_ascii_case(COMPUTER_NAME) => {
                        Actor::with_kind(COMPUTER, COMPUTER_NAME, true)
                    }
                    Some(name) => self.actor(name).await?,
                    None => actor.clone(),
                };
                if line.subcommand == "stats" {
                    s.ladder().stats(place, actor, &who).await
                } else {
                    s.ladder().history(place, &who).await
                }
            }
            "record" => {
                s.records()
                    .record(place, number("match")?.map(MatchId))
                    .await
            }
            "replay" => {
                let battle = small("battle")?.map(|b| u8::try_from(b).unwrap_or(u8::MAX));
                let theme = match line.get("theme") {
                    Some(t) => Some(t.parse::<Theme>().map_err(|_| {
                        ServiceError::Refused(crate::service::Refusal::NotATheme { given: echo(t) })
                    })?),
                    None => None,
                };
                s.records()
                    .replay(place, number("match")?.map(MatchId), battle, theme, None)
                    .await
            }
            "settings" => {
                let notify = match line.get("notify") {
                    None => None,
                    Some(v) => Some(
                        Notify::from_name(&v.trim().to_ascii_lowercase()).ok_or_else(|| {
                            refused(format!(
                                "`{}` is not a way to notify; choose channel, dm or both",
                                echo(v)
                            ))
                        })?,
                    ),
                };
                s.people()
                    .settings(actor, line.get("style"), line.get("theme"), notify)
                    .await
            }
            "vacation" => match line.get("action").map(str::to_ascii_lowercase).as_deref() {
                Some("start") => {
                    let days = line.get("days").map(parse_vacation_days).transpose()?;
                    s.matches().start_vacation(actor, days).await
                }
                Some("end") => s.matches().end_vacation(actor).await,
                _ => Err(refused(
                    "write `vacation start [days:<n>]` or `vacation end`",
                )),
            },
            "plan" => {
                let clear = line
                    .get("clear")
                    .map(|v| parse_yes_no("clear", v))
                    .transpose()?
                    == Some(true);
                match line.get("line") {
                    Some(text) => s.matches().plan(place, actor, text, clear).await,
                    None if clear => s.matches().clear_plan(place, actor).await,
                    None => s.matches().show_plan(place, actor).await,
                }
            }
            "rules" => s
                .people()
                .rules(opt("variant").map(|v| parse_variant(&v)).transpose()?),
            "abort" => s.matches().abort(place, actor, true).await,
            "tournament" => self.tournament(line, place, actor).await,
            "press" => {
                self.press(place, actor, line.get("button").unwrap_or_default())
                    .await
            }
            "help" => Ok(Reply::private(help())),
            // A group typed without its subcommand is answered with how to write it, as
            // `tournament` is.
            group @ ("ladder" | "review") => Err(refused(
                line::group_usage(group).unwrap_or_else(|| "try `/thud help`".into()),
            )),
            other => Err(refused(format!(
                "`{}` is not a command; try `/thud help`",
                echo(other)
            ))),
        }
    }

    /// Prints a reply as the bot would post it.
    async fn print(
        &mut self,
        place: Place,
        asker: Option<&Actor>,
        reply: &Reply,
        out: &mut impl Write,
    ) -> std::io::Result<()> {
        let text = reply.text.to_plain(self.service.now());
        match (reply.private, asker) {
            (true, Some(a)) => writeln!(out, "thudbot (only {} sees this): {text}", a.name)?,
            _ if place.channel.0 != 1 => writeln!(out, "thudbot in #{}: {text}", place.channel)?,
            _ => writeln!(out, "thudbot: {text}")?,
        }
        if let Some(shot) = reply.board.filter(|_| !reply.private) {
            // The board is shown: direct messages about it may go (the console has no
            // message ids to link to).
            if let Err(e) = self
                .service
                .outbox()
                .board_posted(place.channel, shot, None)
                .await
            {
                writeln!(out, "! {}", e.player_message().to_plain(self.service.now()))?;
            }
        }
        let owner = asker.filter(|_| reply.private).map(|a| a.id);
        self.print_body(Some((place.channel, owner)), reply, out)
    }

    /// A direct message to `player`, as the bot would send it.
    async fn print_dm(
        &mut self,
        player: UserId,
        reply: &Reply,
        out: &mut impl Write,
    ) -> std::io::Result<()> {
        let text = reply.text.to_plain(self.service.now());
        let name = match self.service.people().name_of(player).await {
            Ok(name) => name,
            Err(_) => format!("player {player}"),
        };
        writeln!(out, "thudbot to {name} (direct message): {text}")?;
        // The console has no direct message channel to press a button in.
        self.print_body(None, reply, out)
    }

    /// What follows a message's text: its buttons (pressable in the channel, by the owner of
    /// a private message, that `key` names), its board in text, its files.
    fn print_body(
        &mut self,
        key: Option<(ChannelId, Option<UserId>)>,
        reply: &Reply,
        out: &mut impl Write,
    ) -> std::io::Result<()> {
        if let (true, Some(key)) = (reply.spend_buttons, key) {
            self.buttons.remove(&key);
        }
        if !reply.buttons.is_empty() {
            let labels: Vec<String> = reply
                .buttons
                .iter()
                .map(|b| format!("[{}]", b.label))
                .collect();
            writeln!(
                out,
                "  buttons: {}  (press with `/thud press button:<label>`)",
                labels.join(" ")
            )?;
            if let Some(key) = key {
                self.buttons.insert(key, reply.buttons.clone());
            }
        }
        if let (Some(board), false) = (&reply.board_text, reply.text.has_block()) {
            for l in board.lines() {
                writeln!(out, "  {l}")?;
            }
        }
        for a in &reply.attachments {
            std::fs::create_dir_all(&self.pictures)?;
            let path = self.pictures.join(&a.filename);
            std::fs::write(&path, &a.bytes)?;
            writeln!(out, "  file: {}", path.display())?;
        }
        Ok(())
    }
}

/// A refusal of the console's own.
fn refused(text: impl Into<String>) -> ServiceError {
    ServiceError::Refused(crate::service::Refusal::Input(text.into()))
}

/// A stable id for a console player's name, far above any test or sample id.
fn console_id(name: &str) -> u64 {
    // FNV-1a: the same name gets the same id in every run, so matches survive restarts.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.to_lowercase().bytes() {
        hash ^= b as u64;
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    (hash >> 12) | (1 << 50)
}

/// "classic, original or koom-valley".
pub(super) fn variant_names() -> String {
    let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => names.join(""),
    }
}
