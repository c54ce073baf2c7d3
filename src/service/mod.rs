//! The application: one function per thing a player or the clock does.
//!
//! Functions take plain ids and text and return a [`Reply`] (or [`Notice`]s for the clock).
//! Every change to a match runs in one store transaction that locks the match first, so a
//! refusal changes nothing and two requests for the same match are taken one at a time.
//! Nothing here knows of Discord: the same service runs the bot and the offline console.
//!
//! The folders follow the concerns: `flow` (a match from challenge to result), `notices` (the
//! clock and the outbox), `people` (ladders, vacations, settings), `records` (records, replays,
//! analyses) and `tournaments`; the modules at this level are what they all share.

mod error;
mod flow;
mod notices;
mod outcome;
mod people;
mod pictures;
mod records;
mod refusal;
mod text;
mod tournaments;

pub use error::{Result, ServiceError};
pub use flow::challenges::ChallengeOptions;
pub use flow::play::{MoveRequest, Verb};
pub use flow::room::Room;
pub use flow::suggestions::Choice;
pub use notices::clock::{Clock, ManualClock, SystemClock};
pub use notices::delivery::{Delivery, DeliveryFailure, NoticeBody, NoticeKind};
pub use notices::timekeeping::TickReport;
pub use outcome::{Action, Attachment, BoardShot, Button, ButtonStyle, Reply};
pub use people::ladder::{LadderScope, PROVISIONAL_DEVIATION};
pub use people::settings::rules_text;
pub use records::analysis::{progress_text, AnalysisAnswer};
pub use refusal::Refusal;
pub use text::{Span, Text, TimeStyle};
pub use tournaments::{
    Departure, GameToSeat, OrganiserRoleChange, TournamentOptions, TournamentRefusal,
    TournamentTick,
};

use std::collections::HashMap;
use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};

use crate::game::{BattleEnd, BattleResult, MatchResult, Progress, Seat, Side, Variant};
use crate::render::Renderer;
use crate::store::{
    ChannelId, Finish, GuildId, Player, Settings, Store, StoredMatch, TurnClock, Tx, UserId,
};
use pictures::{board_to_show, finish_drawing};

/// The days a player may take over a move, and the default.
pub const DAYS_PER_MOVE: [u32; 7] = [1, 2, 3, 5, 7, 10, 14];
pub const DEFAULT_DAYS_PER_MOVE: u32 = 3;

/// Settings of the match flow.
#[derive(Clone, Debug)]
pub struct ServiceConfig {
    /// How long a challenge stays open.
    pub challenge_expiry: Duration,
    /// When set, the clock forfeits a match this long after a missed deadline.
    pub auto_forfeit_after: Option<Duration>,
    /// The vacation each player may take in any year.
    pub vacation_per_year: Duration,
}

impl Default for ServiceConfig {
    fn default() -> ServiceConfig {
        ServiceConfig {
            challenge_expiry: Duration::hours(24),
            auto_forfeit_after: None,
            vacation_per_year: Duration::days(14),
        }
    }
}

/// The person acting, as the front-end knows them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Actor {
    pub id: UserId,
    pub name: String,
    pub is_bot: bool,
}

impl Actor {
    /// A person; the name is cleaned with [`clean_name`].
    pub fn new(id: UserId, name: impl AsRef<str>) -> Actor {
        Actor::with_kind(id, name.as_ref(), false)
    }

    /// A person or a bot account; the name is cleaned with [`clean_name`].
    pub fn with_kind(id: UserId, name: &str, is_bot: bool) -> Actor {
        Actor {
            id,
            name: clean_name(name, id),
            is_bot,
        }
    }
}

/// The longest name the bot shows or stores (Discord's display names are at most 32).
const MAX_NAME: usize = 64;

/// A display name safe to store and show: control characters (a NUL byte, line breaks) become
/// spaces, runs of white space one space, at most [`MAX_NAME`] characters, and an empty name
/// becomes "player <id>".
pub fn clean_name(name: &str, id: UserId) -> String {
    let mut out = String::new();
    for word in name
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .split_whitespace()
    {
        if out.chars().count() >= MAX_NAME {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.extend(word.chars().take(MAX_NAME));
    }
    if out.is_empty() {
        format!("player {id}")
    } else {
        out.chars().take(MAX_NAME).collect()
    }
}

/// Player input echoed in a message, cut to a length a message can carry.
pub fn echo(input: &str) -> String {
    const MAX_ECHO: usize = 40;
    let clean: String = input
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .filter(|c| *c != '`')
        .collect();
    if clean.chars().count() <= MAX_ECHO {
        clean
    } else {
        let cut: String = clean.chars().take(MAX_ECHO - 1).collect();
        format!("{cut}…")
    }
}

impl Actor {
    fn player(&self) -> Player {
        Player {
            id: self.id,
            name: self.name.clone(),
            is_bot: self.is_bot,
        }
    }
}

/// The display names of a match's players, read inside the match's transaction.
async fn names_in(tx: &mut Tx, m: &StoredMatch) -> Result<Names> {
    Ok(Names(tx.names(&m.players).await?))
}

/// Where the action happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    pub guild: GuildId,
    pub channel: ChannelId,
}

/// The match service.
pub struct Service {
    store: Store,
    renderer: Arc<Renderer>,
    clock: Arc<dyn Clock>,
    config: ServiceConfig,
    /// Woken whenever notices are queued, so a delivery worker need not wait for its next round.
    outbox_signal: Arc<tokio::sync::Notify>,
    /// Woken whenever it may be the computer's move, so its worker need not wait.
    computer_signal: Arc<tokio::sync::Notify>,
    /// Bounds the computer's searches running at once, so they never take every core.
    /// Analyses judge under the same permits, so their searches and the computer's together
    /// keep within that bound.
    thinking: Arc<tokio::sync::Semaphore>,
    /// How hard an analysis looks at each position.
    analysis_budget: crate::computer::analysis::Budget,
    /// Woken whenever an analysis is asked for.
    analysis_signal: Arc<tokio::sync::Notify>,
}

impl Service {
    pub fn new(
        store: Store,
        renderer: Arc<Renderer>,
        clock: Arc<dyn Clock>,
        config: ServiceConfig,
    ) -> Service {
        Service {
            store,
            renderer,
            clock,
            config,
            outbox_signal: Arc::new(tokio::sync::Notify::new()),
            computer_signal: Arc::new(tokio::sync::Notify::new()),
            thinking: Arc::new(tokio::sync::Semaphore::new(
                flow::computer::searches_at_once(),
            )),
            analysis_budget: crate::computer::analysis::Budget::STANDARD,
            analysis_signal: Arc::new(tokio::sync::Notify::new()),
        }
    }

    /// The same service judging each position of an analysis under `budget` (tests and
    /// benchmarks shrink it).
    pub fn with_analysis_budget(mut self, budget: crate::computer::analysis::Budget) -> Service {
        self.analysis_budget = budget;
        self
    }

    /// Notified whenever it may be the computer's move in some match.
    pub fn computer_signal(&self) -> Arc<tokio::sync::Notify> {
        self.computer_signal.clone()
    }

    fn wake_computer(&self) {
        self.computer_signal.notify_waiters();
    }

    /// Notified whenever notices are queued in the outbox.
    pub fn outbox_signal(&self) -> Arc<tokio::sync::Notify> {
        self.outbox_signal.clone()
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    pub fn config(&self) -> &ServiceConfig {
        &self.config
    }

    /// The time on the service's clock.
    pub fn now(&self) -> DateTime<Utc> {
        self.clock.now()
    }

    /// Remembers the actor's current name.
    async fn see(&self, actor: &Actor) -> Result<()> {
        self.store.save_player(&actor.player(), self.now()).await?;
        Ok(())
    }

    /// The display names of a match's players.
    async fn names(&self, m: &StoredMatch) -> Result<Names> {
        Ok(Names(self.store.names(&m.players).await?))
    }

    /// The board of battle `index` (from 0) as the viewer likes it, added to `reply`.
    async fn board_output(
        &self,
        m: &StoredMatch,
        names: &Names,
        index: usize,
        settings: &Settings,
        reply: Reply,
    ) -> Result<Reply> {
        let drawing = self.start_drawing(board_to_show(m, names, index, settings));
        Ok(finish_drawing(drawing).await?.onto(reply))
    }

    /// Writes what an action did to the match beyond the move itself: a battle ended, battle 2
    /// begun, the match finished and rated, or the next turn's clock. Returns the lines to
    /// announce and who to ping.
    async fn record_progress(
        &self,
        tx: &mut Tx,
        m: &StoredMatch,
        names: &Names,
        progress: &Progress,
        battle_id: i64,
    ) -> Result<(Vec<Text>, Option<UserId>)> {
        let now = self.now();
        let mut lines = Vec::new();
        if let Some(result) = &progress.battle_result {
            tx.finish_battle(battle_id, result, now).await?;
            lines.push(battle_over_text(m, names, progress.battle, result));
            if progress.match_result.is_none()
                && m.game.battles().len() == 2
                && progress.battle == 1
            {
                tx.insert_battle(m.id, 2, m.players, m.variant, now).await?;
                lines.push(
                    Text::new()
                        .strong("Battle 2")
                        .plain(" begins with the roles swapped: ")
                        .strong(names.of(m.player(Seat::commanding(Side::Dwarfs, 2))))
                        .plain(" commands the dwarfs, ")
                        .strong(names.of(m.player(Seat::commanding(Side::Trolls, 2))))
                        .plain(" the trolls."),
                );
            }
        }
        if let Some(result) = &progress.match_result {
            lines.extend(self.finish(tx, m, names, result, Finish::Completed).await?);
            return Ok((lines, None));
        }
        let next =
            m.game.seat_to_move().map(|s| m.player(s)).ok_or_else(|| {
                ServiceError::System(format!("match {} has no player to move", m.id))
            })?;
        let clock = start_clock(tx, m.id, next, now, m.days_per_move).await?;
        if m.trouble.is_some() {
            // A player acted: the new turn's clock runs, and its notices will show whether
            // the channel works again.
            tx.clear_trouble(m.id).await?;
        }
        let side = side_of(m, next);
        if m.computer.is_some_and(|c| c.player == next) {
            // The computer is not pinged: its worker is woken after the commit.
            lines.push(
                Text::new()
                    .strong(names.of(next))
                    .plain(format!(" ({side}) is thinking.")),
            );
            return Ok((lines, None));
        }
        lines.push(
            Text::new()
                .player(next, names.of(next))
                .plain(format!(", your move ({side}). Deadline "))
                .time(clock.deadline)
                .plain(" (")
                .relative(clock.deadline)
                .plain(")."),
        );
        Ok((lines, Some(next)))
    }

    /// What every move and every agreed end does after the game changed, in one place:
    /// `opening` (the move, or the agreement) and the lines of what it brought about
    /// ([`Self::record_progress`]), the next player told of their turn, and the reply to post.
    async fn after_move(
        &self,
        tx: &mut Tx,
        m: &StoredMatch,
        names: &Names,
        progress: &Progress,
        battle_id: i64,
        opening: Vec<Text>,
    ) -> Result<Said> {
        let (more, next) = self
            .record_progress(tx, m, names, progress, battle_id)
            .await?;
        let mut lines = opening;
        lines.extend(more);
        let ping = self.tell_next(tx, m, next, &lines).await?;
        Ok(Said {
            lines,
            ping,
            match_id: m.id,
            match_over: progress.match_result.is_some(),
        })
    }

    /// Ends a match with `result` and rates it; returns the lines announcing it.
    async fn finish(
        &self,
        tx: &mut Tx,
        m: &StoredMatch,
        names: &Names,
        result: &MatchResult,
        finish: Finish,
    ) -> Result<Vec<Text>> {
        let now = self.now();
        let winner = result.winner.map(|s| m.player(s));
        tx.finish_match(m.id, finish, winner, Some(result.totals), None, now)
            .await?;
        notices::delivery::queue_match_over(tx, m, now).await?;
        let mut lines: Vec<Text> = vec![match_result_text(m, names, result)];
        lines.extend(self.rate(tx, m, names, result).await?);
        Ok(lines)
    }
}

/// What a move or an agreed end says in the match's channel.
struct Said {
    lines: Vec<Text>,
    /// The player the message pings: the one to move, unless told by DM only.
    ping: Option<UserId>,
    match_id: crate::store::MatchId,
    match_over: bool,
}

impl Said {
    /// The channel's message: the lines, the ping, and a rematch offer once the match is over.
    fn reply(self) -> Reply {
        let mut reply = Reply::public(Text::lines(self.lines)).saved();
        if let Some(next) = self.ping {
            reply = reply.mention(next);
        }
        if self.match_over {
            reply = outcome::offer_rematch(reply, self.match_id);
        }
        reply
    }
}

/// Display names by id, with a fallback for players never seen.
struct Names(HashMap<UserId, String>);

impl Names {
    fn of(&self, id: UserId) -> String {
        self.0
            .get(&id)
            .cloned()
            .unwrap_or_else(|| format!("player {id}"))
    }
}

/// The clock of a turn that starts `now`: the deadline, and the first reminder, when half the
/// time is left. The second, a day before the deadline, is set when the first is claimed
/// (see `Tx::claim_due_reminders`); with one or two days a move they are one reminder.
fn turn_clock(player: UserId, now: DateTime<Utc>, days: u32) -> TurnClock {
    let allowance = Duration::days(days as i64);
    let deadline = now + allowance;
    TurnClock {
        player,
        turn_started_at: now,
        deadline,
        remind_at: deadline - allowance / 2,
        reminder_sent_at: None,
        paused_at: None,
        vacation_since: None,
    }
}

/// Starts the clock of `player`'s turn in match `id` at `now`, standing still from the start
/// if they are on vacation.
async fn start_clock(
    tx: &mut Tx,
    id: crate::store::MatchId,
    player: UserId,
    now: DateTime<Utc>,
    days: u32,
) -> Result<TurnClock> {
    let mut clock = turn_clock(player, now, days);
    if tx.vacation_of(player).await?.is_some() {
        clock.vacation_since = Some(now);
    }
    tx.set_clock(id, &clock).await?;
    Ok(clock)
}

/// The side `player` commands in the current battle.
fn side_of(m: &StoredMatch, player: UserId) -> Side {
    let number = m.game.battle_number();
    match m.seat_of(player) {
        Some(seat) => seat.side_in(number),
        None => Side::Dwarfs,
    }
}

fn side_title(side: Side) -> &'static str {
    match side {
        Side::Dwarfs => "Dwarfs",
        Side::Trolls => "Trolls",
    }
}

/// One line on where battle `index` (from 0) stands: whose move, or how it ended.
fn battle_status(m: &StoredMatch, names: &Names, index: usize) -> String {
    let battle = &m.game.battles()[index];
    let number = index as u8 + 1;
    if let Some(result) = battle.result() {
        return battle_result_line(m.variant, number, &result);
    }
    match m.state {
        crate::store::MatchState::Aborted => "Match aborted".to_string(),
        crate::store::MatchState::Finished => "Match over".to_string(),
        crate::store::MatchState::Active => match battle.side_to_move() {
            Some(side) => format!(
                "{} to move ({})",
                names.of(m.player(Seat::commanding(side, number))),
                side
            ),
            None => "Battle over".to_string(),
        },
    }
}

/// "Trolls win battle 1 by 8", "Battle 2 drawn".
fn battle_result_line(variant: Variant, number: u8, result: &BattleResult) -> String {
    match result.winner {
        Some(side) if variant.wins_by_objective() => {
            format!("{} win battle {number}", side_title(side))
        }
        Some(side) => format!(
            "{} win battle {number} by {}",
            side_title(side),
            result.margin
        ),
        None => format!("Battle {number} drawn"),
    }
}

/// The announcement of a finished battle.
fn battle_over_text(m: &StoredMatch, names: &Names, number: u8, result: &BattleResult) -> Text {
    let why = match result.end {
        BattleEnd::Agreement => "both players agreed to end it".to_string(),
        BattleEnd::NoLegalMove { side } => format!("the {side} have no legal move"),
        BattleEnd::Objective {
            winner: Side::Trolls,
        } => "three trolls stand around the Rock".to_string(),
        BattleEnd::Objective {
            winner: Side::Dwarfs,
        } => "the dwarfs brought the Rock to the far side of the valley".to_string(),
    };
    let verdict = match result.winner {
        Some(side) => {
            let winner = names.of(m.player(Seat::commanding(side, number)));
            let by = if m.variant.wins_by_objective() {
                String::new()
            } else {
                format!(" by {}", result.margin)
            };
            Text::new()
                .strong(winner)
                .plain(format!(" ({side}) wins battle {number}{by}."))
        }
        None => Text::from(format!("Battle {number} is drawn.")),
    };
    let score = if m.variant.wins_by_objective() {
        String::new()
    } else {
        format!(
            " Dwarfs {} · Trolls {}.",
            result.score.dwarfs, result.score.trolls
        )
    };
    Text::new()
        .strong(format!("Battle {number} is over"))
        .plain(format!(": {why}.{score} "))
        .then(verdict)
}

/// The announcement of a finished match.
fn match_result_text(m: &StoredMatch, names: &Names, result: &MatchResult) -> Text {
    let first = names.of(m.players[0]);
    let second = names.of(m.players[1]);
    let mut per_battle = Vec::new();
    for (i, points) in result.battles.iter().enumerate() {
        per_battle.push(format!(
            "battle {}: {first} {} – {second} {}",
            i + 1,
            points[0],
            points[1]
        ));
    }
    let totals = format!(
        "{first} {} – {second} {}",
        result.total(Seat::First),
        result.total(Seat::Second)
    );
    let verdict = match (result.winner, result.forfeited_by) {
        (Some(w), Some(_)) => Text::new()
            .strong(names.of(m.player(w)))
            .plain(" wins the match by forfeit."),
        (Some(w), None) => Text::new()
            .strong(names.of(m.player(w)))
            .plain(format!(" wins the match by {}.", result.margin)),
        (None, _) => Text::from("The match is drawn."),
    };
    if per_battle.is_empty() {
        Text::new().strong("Match over.").plain(" ").then(verdict)
    } else {
        Text::new()
            .strong("Match over")
            .plain(format!(" ({}). Total: {totals}. ", per_battle.join("; ")))
            .then(verdict)
    }
}

/// The match a spectator or player means: the one in play in the channel.
async fn match_in_play(tx: &mut Tx, channel: ChannelId) -> Result<StoredMatch> {
    match tx.lock_active_match(channel).await? {
        Some(m) => Ok(m),
        None => error::refuse(Refusal::NoMatchHere),
    }
}

/// The seat of `actor` in `m`, or a refusal for spectators.
fn seat_of(m: &StoredMatch, actor: &Actor) -> Result<Seat> {
    match m.seat_of(actor.id) {
        Some(s) => Ok(s),
        None => error::refuse(Refusal::NotAPlayer),
    }
}
