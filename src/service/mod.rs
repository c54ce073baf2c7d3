//! The application: one function per thing a player or the clock does.
//!
//! Functions take plain ids and text and return a [`Reply`], worded (by `voice`) from the
//! [`Event`]s of what they did; what is said unasked is queued in the outbox as a [`Notice`].
//! Every change to a match runs in one store transaction that locks the match first, so a
//! refusal changes nothing and two requests for the same match are taken one at a time.
//! Nothing here knows of Discord: the same service runs the bot and the offline console.
//!
//! The folders follow the concerns: `flow` (a match from challenge to result), `notices` (the
//! clock and the outbox), `people` (ladders, vacations, settings), `records` (records, replays,
//! analyses) and `tournaments`; the modules at this level are what they all share.

mod error;
mod events;
mod flow;
mod notices;
mod outcome;
mod people;
mod pictures;
mod records;
mod refusal;
mod text;
mod tournaments;
mod voice;

pub use error::{Result, ServiceError};
pub use events::{Entrants, Event, Occasion, RatingChange, ShownRating, TournamentEvent};
pub use flow::challenges::ChallengeOptions;
pub use flow::play::{MoveRequest, Verb};
pub use flow::room::Room;
pub use flow::suggestions::Choice;
pub use notices::clock::{Clock, ManualClock, SystemClock};
pub use notices::delivery::{Delivery, DeliveryFailure, Notice};
pub use notices::timekeeping::TickReport;
pub use outcome::{Action, Attachment, BoardShot, Button, ButtonStyle, Reply};
pub use people::ladder::{LadderScope, PROVISIONAL_DEVIATION};
pub use records::analysis::{progress_text, AnalysisAnswer};
pub use refusal::Refusal;
pub use text::{Span, Text, TimeStyle};
pub use tournaments::{
    Announcement, Departure, GameToSeat, OrganiserRoleChange, TournamentOptions, TournamentRefusal,
    TournamentTick,
};
pub use voice::rules_text;

use std::collections::HashMap;
use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};

use crate::game::{MatchResult, Progress, Seat, Side};
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
pub const MAX_NAME: usize = 64;

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
    /// begun, the match finished and rated, or the next turn's clock. Returns what happened.
    async fn record_progress(
        &self,
        tx: &mut Tx,
        m: &StoredMatch,
        progress: &Progress,
        battle_id: i64,
    ) -> Result<Vec<Event>> {
        let now = self.now();
        let mut events = Vec::new();
        if let Some(result) = &progress.battle_result {
            tx.finish_battle(battle_id, result, now).await?;
            events.push(Event::BattleOver {
                battle: progress.battle,
                variant: m.variant,
                winner: result
                    .winner
                    .map(|side| m.player(Seat::commanding(side, progress.battle))),
                result: *result,
            });
            if progress.match_result.is_none()
                && m.game.battles().len() == 2
                && progress.battle == 1
            {
                tx.insert_battle(m.id, 2, m.players, m.variant, now).await?;
                events.push(Event::BattleBegan {
                    battle: 2,
                    dwarfs: m.player(Seat::commanding(Side::Dwarfs, 2)),
                    trolls: m.player(Seat::commanding(Side::Trolls, 2)),
                });
            }
        }
        if let Some(result) = &progress.match_result {
            events.extend(self.finish(tx, m, result, Finish::Completed).await?);
            return Ok(events);
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
        events.push(turn_event(m, next, clock.deadline));
        Ok(events)
    }

    /// What every move and every agreed end does after the game changed, in one place:
    /// `opening` (the move, or the agreement) and what it brought about
    /// ([`Self::record_progress`]), the next player told of their turn, and what to post.
    async fn after_move(
        &self,
        tx: &mut Tx,
        m: &StoredMatch,
        progress: &Progress,
        battle_id: i64,
        opening: Vec<Event>,
    ) -> Result<Said> {
        let mut events = opening;
        events.extend(self.record_progress(tx, m, progress, battle_id).await?);
        let board = notices::notify::current_board(m);
        let ping = self.tell_turn(tx, m, &events, Some(board)).await?;
        Ok(Said { events, ping })
    }

    /// Ends a match with `result` and rates it; returns what happened.
    async fn finish(
        &self,
        tx: &mut Tx,
        m: &StoredMatch,
        result: &MatchResult,
        finish: Finish,
    ) -> Result<Vec<Event>> {
        self.finish_rating(tx, m, result, finish, true).await
    }

    /// As [`Service::finish`], rating the match only when `rate` holds (a forfeit by a player
    /// who never moved rates nobody: nothing was played).
    async fn finish_rating(
        &self,
        tx: &mut Tx,
        m: &StoredMatch,
        result: &MatchResult,
        finish: Finish,
        rate: bool,
    ) -> Result<Vec<Event>> {
        let now = self.now();
        let winner = result.winner.map(|s| m.player(s));
        tx.finish_match(m.id, finish, winner, Some(result.totals), None, now)
            .await?;
        notices::delivery::queue_match_over(tx, m, now).await?;
        self.record_game_result(tx, m.id).await?;
        let mut events = vec![Event::MatchOver {
            match_id: m.id,
            players: m.players,
            result: result.clone(),
        }];
        if rate {
            events.extend(self.rate(tx, m, result).await?);
        }
        Ok(events)
    }
}

/// `player`'s turn in `m` started, until `deadline`; the computer's is its thinking (it is
/// not told: its worker is woken after the commit).
fn turn_event(m: &StoredMatch, player: UserId, deadline: DateTime<Utc>) -> Event {
    let side = side_of(m, player);
    if m.computer.is_some_and(|c| c.player == player) {
        return Event::ComputerThinking { player, side };
    }
    Event::TurnStarted {
        match_id: m.id,
        variant: m.variant,
        player,
        side,
        deadline,
    }
}

/// What a move or an agreed end says in the match's channel.
struct Said {
    events: Vec<Event>,
    /// The player the message pings: the one to move, unless told by DM only.
    ping: Option<UserId>,
}

impl Said {
    /// The channel's message: what happened, the ping, the buttons that answer it.
    fn reply(&self, names: &Names) -> Reply {
        let mut reply = voice::reply(&self.events, names, &voice::Reader::Channel).saved();
        if let Some(next) = self.ping {
            reply = reply.mention(next);
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
