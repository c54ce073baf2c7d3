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

mod clock;
mod error;
mod events;
mod facade;
mod flow;
mod notices;
mod outcome;
mod people;
mod pictures;
mod records;
mod refusal;
mod standings;
mod text;
mod thinking;
mod tournaments;
mod voice;
mod watch;
mod wording;

pub use crate::input::{clean_name, echo, MAX_NAME};
pub use clock::{Clock, ManualClock, SystemClock};
pub use error::{Result, ServiceError};
pub use events::{
    Entrants, Event, Occasion, RatingChange, ShownRating, TournamentEvent, PROVISIONAL_DEVIATION,
};
pub use flow::challenges::ChallengeOptions;
pub use flow::play::{MoveRequest, Verb};
pub use flow::room::{NoRoom, Room};
pub use flow::suggestions::Choice;
pub use notices::delivery::{Delivery, Notice};
pub use notices::failure::DeliveryFailure;
pub use outcome::{Action, Attachment, BoardShot, Button, ButtonStyle, Reply};
pub use people::ladder::LadderScope;
pub use records::analysis::AnalysisAnswer;
pub use refusal::{Refusal, Unseatable};
pub use text::{Span, Text, TimeStyle};
pub use tournaments::{
    Announcement, Departure, GameToSeat, OrganiserRoleChange, Seating, TournamentOptions,
    TournamentRefusal, TournamentTick,
};
pub use voice::{boards_shown_as_text, file_not_attached, progress_text, rules_text};
pub use watch::courier::Deliverer;
pub use watch::timekeeping::TickReport;

use std::collections::HashMap;
use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};

use crate::render::Renderer;
use crate::store::{ChannelId, GuildId, Player, Store, StoredMatch, Tx, UserId};
pub use flow::Matches;
pub use notices::Outbox;
pub use people::{Ladder, People};
pub use records::analysis::Analysis;
pub use records::Records;
use thinking::Thinking;
pub use tournaments::Tournaments;
use watch::courier::Courier;
use watch::timekeeping::Timekeeper;
pub use watch::trouble::{ArchivedThread, Channels};

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

/// The match service: the front-ends' one door to the concerns below, each an object built
/// with what it uses (see `docs/architecture.md` for the picture).
pub struct Service {
    store: Store,
    clock: Arc<dyn Clock>,
    config: ServiceConfig,
    outbox: Arc<Outbox>,
    ladder: Arc<Ladder>,
    people: Arc<People>,
    matches: Arc<Matches>,
    records: Records,
    tournaments: Arc<Tournaments>,
    analysis: Arc<Analysis>,
    channels: Arc<Channels>,
    courier: Arc<Courier>,
    timekeeper: Arc<Timekeeper>,
}

/// What wakes the workers: queued notices, a computer's move, an analysis asked for.
#[derive(Clone, Default)]
struct Signals {
    outbox: Arc<tokio::sync::Notify>,
    computer: Arc<tokio::sync::Notify>,
    analysis: Arc<tokio::sync::Notify>,
}

impl Service {
    pub fn new(
        store: Store,
        renderer: Arc<Renderer>,
        clock: Arc<dyn Clock>,
        config: ServiceConfig,
    ) -> Service {
        let signals = Signals::default();
        let thinking = Thinking::new(flow::computer::searches_at_once());
        let outbox = Arc::new(Outbox::new(
            store.clone(),
            clock.clone(),
            renderer.clone(),
            signals.outbox.clone(),
        ));
        let ladder = Arc::new(Ladder::new(store.clone(), clock.clone(), config.clone()));
        let people = Arc::new(People::new(store.clone(), clock.clone()));
        let matches = Arc::new(Matches::new(
            flow::Parts {
                store: store.clone(),
                clock: clock.clone(),
                renderer: renderer.clone(),
                config: config.clone(),
                outbox_signal: signals.outbox.clone(),
                computer_signal: signals.computer.clone(),
                thinking: thinking.clone(),
            },
            ladder.clone(),
        ));
        let records = Records::new(store.clone(), renderer.clone());
        let tournaments = Arc::new(Tournaments::new(
            store.clone(),
            clock.clone(),
            signals.outbox.clone(),
            matches.clone(),
        ));
        let channels = Arc::new(Channels::new(
            store.clone(),
            clock.clone(),
            matches.clone(),
            tournaments.clone(),
            outbox.clone(),
        ));
        let courier = Arc::new(Courier::new(outbox.clone(), channels.clone()));
        let timekeeper = Arc::new(Timekeeper::new(
            store.clone(),
            clock.clone(),
            config.clone(),
            signals.outbox.clone(),
            (matches.clone(), tournaments.clone()),
        ));
        let analysis = Arc::new(Analysis::new(
            store.clone(),
            clock.clone(),
            outbox.clone(),
            thinking.clone(),
            signals.analysis.clone(),
            crate::computer::analysis::Budget::STANDARD,
        ));
        Service {
            store,
            clock,
            config,
            outbox,
            ladder,
            people,
            matches,
            records,
            tournaments,
            analysis,
            channels,
            courier,
            timekeeper,
        }
    }

    /// The same service judging each position of an analysis under `budget` (tests and
    /// benchmarks shrink it).
    pub fn with_analysis_budget(mut self, budget: crate::computer::analysis::Budget) -> Service {
        self.analysis = Arc::new(self.analysis.with_budget(budget));
        self
    }

    /// A match from challenge to result: challenges, moves, ends by agreement, forfeits,
    /// rematches, the board and a player's games.
    pub fn matches(&self) -> &Matches {
        &self.matches
    }

    /// Tournaments: entries, rounds, standings, corrections and their organisers.
    pub fn tournaments(&self) -> &Tournaments {
        &self.tournaments
    }

    /// The leaderboards, a player's statistics and history.
    pub fn ladder(&self) -> &Ladder {
        &self.ladder
    }

    /// A player's settings and vacations, and the rules.
    pub fn people(&self) -> &People {
        &self.people
    }

    /// Finished matches' records and replays.
    pub fn records(&self) -> &Records {
        &self.records
    }

    /// Analyses: asking, judging, and showing their progress and report.
    pub fn analysis(&self) -> &Analysis {
        &self.analysis
    }

    /// What happens when a match's channel or thread, or a whole server, goes away.
    pub fn channels(&self) -> &Channels {
        &self.channels
    }

    /// The notices queued for delivery and what became of them.
    pub fn outbox(&self) -> &Outbox {
        &self.outbox
    }

    /// The store itself, for the tests and the load binary to look behind the concerns; the
    /// front-ends go through the concerns, so the bot's own build has no such door.
    #[cfg(feature = "testing")]
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
}

/// Remembers `actor`'s current name.
async fn see(store: &Store, actor: &Actor, now: DateTime<Utc>) -> Result<()> {
    store.save_player(&actor.player(), now).await?;
    Ok(())
}

/// The display names of a match's players.
async fn names_of(store: &Store, m: &StoredMatch) -> Result<Names> {
    Ok(Names(store.names(&m.players).await?))
}

/// Display names by id, with a fallback for players never seen.
#[derive(Default)]
struct Names(HashMap<UserId, String>);

impl Names {
    fn of(&self, id: UserId) -> String {
        self.0
            .get(&id)
            .cloned()
            .unwrap_or_else(|| format!("player {id}"))
    }
}
