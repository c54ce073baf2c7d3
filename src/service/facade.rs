//! The front-ends' door: each call goes to the concern that owns it, so a front-end needs one
//! value and no knowledge of how the service is divided.

use std::future::Future;

use delegate::delegate;
use tokio::sync::watch;

use super::*;
use crate::game::Variant;
use crate::render::Theme;
use crate::service::flow::told::Told;
use crate::store::{
    AnalysisStatus, BoardStyle, Challenge, ChallengeId, MatchId, Notify, TournamentId,
};

impl Service {
    delegate! {
        to self.matches {
            /// `actor` proposes ending the current battle.
            #[expr($.map(Told::worded))]
            pub async fn propose_end(&self, place: Place, actor: &Actor) -> Result<Reply>;
            /// `actor` answers the open proposal; `pressed` names the proposal when answered by
            /// button, so a stale button is refused.
            #[expr($.map(Told::worded))]
            pub async fn answer_end(&self, place: Place, actor: &Actor, agree: bool, pressed: Option<(MatchId, i64)>) -> Result<Reply>;
            /// The board of the match in play here (or of the last one played here), with the score,
            /// whose turn it is and the deadline. Spectators may look too.
            #[expr($.map(Told::worded))]
            pub async fn board(&self, place: Place, viewer: &Actor, style: Option<BoardStyle>) -> Result<Reply>;
            /// `actor`'s matches in play on this server, with opponent, whose turn and time left, and
            /// from every server the matches the bot cannot reach, with buttons to resume or stop them.
            #[expr($.map(Told::worded))]
            pub async fn my_games(&self, place: Place, actor: &Actor, everywhere: bool) -> Result<Reply>;
            /// `challenger` invites `opponent` to a match in this channel.
            #[expr($.map(Told::worded))]
            pub async fn challenge(&self, place: Place, challenger: &Actor, opponent: &Actor, options: &ChallengeOptions) -> Result<Reply>;
            /// The open challenge `actor` could accept here, without accepting it: lets a front-end
            /// check before it opens a thread for the match.
            pub async fn challenge_to_accept(&self, place: Place, actor: &Actor, id: Option<ChallengeId>) -> Result<Challenge>;
            /// The opponent accepts; battle 1 begins in a `room` of its own (a thread in the channel
            /// of the challenge, opened once the challenge is closed) or in the channel itself.
            #[expr($.map(Told::worded))]
            pub async fn accept(&self, place: Place, actor: &Actor, id: Option<ChallengeId>, room: Option<Room<'_>>) -> Result<Reply>;
            /// The opponent declines.
            #[expr($.map(Told::worded))]
            pub async fn decline(&self, place: Place, actor: &Actor, id: Option<ChallengeId>) -> Result<Reply>;
            /// The challenger withdraws.
            #[expr($.map(Told::worded))]
            pub async fn cancel(&self, place: Place, actor: &Actor, id: Option<ChallengeId>) -> Result<Reply>;
            /// `challenger` plays `computer` (the bot's own account) at `level` (default 3): the match
            /// begins at once, here or in a `room` of its own (a thread). It is never rated.
            #[expr($.map(Told::worded))]
            pub async fn challenge_computer(&self, place: Place, challenger: &Actor, computer: &Actor, level: Option<u8>, options: &ChallengeOptions, room: Option<Room<'_>>) -> Result<Reply>;
            /// Plays the computer's moves that are due, one round of at most a few matches; returns
            /// how many it played. The clock worker and the console call it whenever woken.
            pub async fn play_computer_turns(&self) -> Result<usize>;
            /// Asks `actor` to confirm resigning: a private message with a Confirm button.
            #[expr($.map(Told::worded))]
            pub async fn resign_prompt(&self, place: Place, actor: &Actor) -> Result<Reply>;
            /// `actor` resigns the match in this channel (`confirmed` names it when confirmed by button).
            #[expr($.map(Told::worded))]
            pub async fn resign(&self, place: Place, actor: &Actor, confirmed: Option<MatchId>) -> Result<Reply>;
            /// `actor` claims the match because the opponent let the deadline pass.
            #[expr($.map(Told::worded))]
            pub async fn claim(&self, place: Place, actor: &Actor) -> Result<Reply>;
            /// A moderator stops the match in this channel; it is recorded and unrated.
            #[expr($.map(Told::worded))]
            pub async fn abort(&self, place: Place, actor: &Actor, is_moderator: bool) -> Result<Reply>;
            /// `actor` plays a move in this channel's match.
            #[expr($.map(Told::worded))]
            pub async fn play(&self, place: Place, actor: &Actor, request: &MoveRequest) -> Result<Reply>;
            /// `actor` asks for a rematch of match `id`, here: a challenge to the other player (the
            /// other player accepts as for any challenge), or against the computer a new match at once
            /// at the same level, in a `room` of its own if one opens. Whoever commanded the dwarfs first in
            /// match `id` commands the trolls first in the rematch.
            #[expr($.map(Told::worded))]
            pub async fn rematch(&self, place: Place, actor: &Actor, id: MatchId, room: Option<Room<'_>>) -> Result<Reply>;
            /// Squares holding a piece of the player's that can make a `verb` move.
            pub async fn suggest_from(&self, place: Place, actor: &Actor, verb: Verb, typed: &str) -> Vec<Choice>;
            /// Where the piece on `from` can go with a `verb` move.
            pub async fn suggest_to(&self, place: Place, actor: &Actor, verb: Verb, from: &str, typed: &str) -> Vec<Choice>;
            /// The capture lists possible for the piece on `from` landing on `to`, largest first.
            pub async fn suggest_captures(&self, place: Place, actor: &Actor, verb: Verb, from: &str, to: &str, typed: &str) -> Vec<Choice>;
            /// Legal moves in notation that start with what the player typed, for `/thud play`.
            pub async fn suggest_notation(&self, place: Place, actor: &Actor, typed: &str) -> Vec<Choice>;
        }
    }

    delegate! {
        to self.analysis {
            /// The report of match `id`'s finished analysis.
            pub async fn analysis_report_of(&self, id: MatchId) -> Result<Reply>;
            /// The analysis of match `id` (the latest in this channel by default): its report when
            /// finished, else where it stands, asking for it first if nobody had.
            pub async fn analysis(&self, place: Place, id: Option<MatchId>) -> Result<AnalysisAnswer>;
            /// The message `message` in `channel` shows the progress of match `id`'s analysis; false
            /// when another message already does (this one may then be left as it is).
            pub async fn analysis_shown_in(&self, id: MatchId, channel: ChannelId, message: u64) -> Result<bool>;
            /// The analyses whose progress message has something new to show and may be edited now.
            pub async fn analyses_to_show(&self) -> Result<Vec<AnalysisStatus>>;
            /// Claims the posting of match `id`'s progress message in `channel`: false when another
            /// request (a second press at the same moment) posts it.
            pub async fn claim_analysis_progress(&self, id: MatchId, channel: ChannelId) -> Result<bool>;
            /// The progress message could not be posted: a later request may.
            pub async fn release_analysis_progress(&self, id: MatchId) -> Result<()>;
            /// Showing match `id`'s analysis failed: tried again after a growing pause (or Discord's
            /// `retry_after`) when Discord may take it later, else given up for good with its reason;
            /// `/thud analysis` still answers with the report. The thread it was shown in then no
            /// longer waits for it.
            pub async fn analysis_show_failed(&self, id: MatchId, failure: &crate::service::DeliveryFailure) -> Result<()>;
            /// The progress message of match `id`'s analysis now says `judged` positions.
            pub async fn analysis_progress_shown(&self, id: MatchId, judged: u32) -> Result<()>;
            /// Claims the showing of match `id`'s finished report: true for exactly one caller.
            pub async fn claim_analysis_report(&self, id: MatchId) -> Result<bool>;
            /// The report of match `id`'s analysis is shown: the thread it was shown in is closed if
            /// the bot opened it for a match and nothing else lives in it.
            pub async fn analysis_reported(&self, id: MatchId) -> Result<()>;
            /// The report could not be shown: a later round tries again.
            pub async fn unclaim_analysis_report(&self, id: MatchId) -> Result<()>;
            /// Judges up to `max` positions of the longest-waiting analysis no process holds;
            /// returns how many it judged (0 when nothing waits).
            pub async fn analyse_some(&self, max: usize) -> Result<usize>;
        }
    }

    delegate! {
        to self.records {
            /// The game record of a match, attached as a text file the engine can replay.
            pub async fn record(&self, place: Place, id: Option<MatchId>) -> Result<Reply>;
            /// A battle of a match (the current or last one by default) as an animated GIF of at
            /// most `upload_limit` bytes (Discord's default of 10 MiB when unknown): a battle too long
            /// for it is replayed from as far back as fits, and the message says so.
            pub async fn replay(&self, place: Place, id: Option<MatchId>, battle: Option<u8>, theme: Option<Theme>, upload_limit: Option<usize>) -> Result<Reply>;
        }
    }

    delegate! {
        to self.tournaments {
            /// `message` announced tournament `id` (the answer to its creation).
            pub async fn tournament_announced(&self, id: TournamentId, message: u64) -> Result<()>;
            /// The announcement of the latest tournament in `channel` as it should read now (its
            /// field's size, and the Join button only while it takes players); `None` when no
            /// announcement of it was recorded.
            pub async fn tournament_announcement_in(&self, channel: ChannelId) -> Result<Option<Announcement>>;
            /// An organiser sets the result of match `match_id`, a decided game of this channel's
            /// running tournament: `winner` wins it, or it is drawn (`None`).
            pub async fn correct_tournament_result(&self, place: Place, actor: &Actor, is_organiser: bool, match_id: MatchId, winner: Option<UserId>) -> Result<Reply>;
            /// An organiser adds `player` to this channel's running Swiss; they are paired from the
            /// next round, with no points for the rounds before.
            pub async fn add_late_entry(&self, place: Place, actor: &Actor, is_organiser: bool, player: &Actor) -> Result<Reply>;
            /// An organiser takes withdrawn `player` back into this channel's running tournament,
            /// paired from the next round; what they forfeited meanwhile stays forfeited.
            pub async fn reinstate_tournament_player(&self, place: Place, actor: &Actor, is_organiser: bool, player: UserId) -> Result<Reply>;
            /// An organiser announces a tournament in this channel; players join until it starts.
            pub async fn create_tournament(&self, place: Place, actor: &Actor, is_organiser: bool, options: &TournamentOptions) -> Result<Reply>;
            /// A player joins the tournament open in this channel.
            pub async fn join_tournament(&self, place: Place, actor: &Actor) -> Result<Reply>;
            /// A player joins tournament `id` by its Join button.
            pub async fn join_tournament_numbered(&self, actor: &Actor, id: crate::store::TournamentId) -> Result<Reply>;
            /// A player leaves the tournament before it starts.
            pub async fn leave_tournament(&self, place: Place, actor: &Actor) -> Result<Reply>;
            /// The organiser starts the tournament now: round 1 is paired.
            pub async fn start_tournament_now(&self, place: Place, actor: &Actor, is_organiser: bool) -> Result<Reply>;
            /// A player withdraws from a running tournament: their match in play is forfeited, their
            /// games waiting for a channel are won by their opponents, later rounds skip them.
            pub async fn withdraw_from_tournament(&self, place: Place, actor: &Actor) -> Result<Reply>;
            /// Withdraws `user`, who left the server `guild` or was banned from it, from every
            /// tournament of `guild` (one not started yet just loses them); returns how many.
            pub async fn withdraw_everywhere(&self, guild: crate::store::GuildId, user: crate::store::UserId, why: Departure) -> Result<usize>;
            /// The organiser cancels the tournament: its matches in play are stopped, unrated.
            pub async fn cancel_tournament(&self, place: Place, actor: &Actor, is_organiser: bool) -> Result<Reply>;
            /// Whether a member of `guild` may create, start and cancel tournaments: they manage the
            /// server, or hold the role it named (`roles` are the member's role ids).
            pub async fn is_organiser(&self, guild: GuildId, manages_server: bool, roles: &[u64]) -> Result<bool>;
            /// Shows, names or clears the role whose members organise tournaments in `guild`; a
            /// change needs Manage Server.
            pub async fn tournament_organisers(&self, guild: GuildId, actor: &Actor, manages_server: bool, change: OrganiserRoleChange) -> Result<Reply>;
            /// Discord says role `role` of `guild` was renamed to `name`, or deleted (`None`): the
            /// organisers' role keeps its name up to date, and a deleted one is forgotten.
            pub async fn role_changed(&self, guild: GuildId, role: u64, name: Option<&str>) -> Result<bool>;
            /// Moves every tournament on as far as it can go now; called by the clock's tick.
            pub async fn tick_tournaments(&self) -> Result<TournamentTick>;
            /// Games of running tournaments that wait for a channel, oldest first.
            pub async fn tournament_games_to_seat(&self, limit: i64) -> Result<Vec<GameToSeat>>;
            /// Begins the match of tournament game `game` in `channel` (a thread the front-end made
            /// for it); its opening goes there through the outbox. `None` when the game needs no
            /// match any more (seated by another process, decided, or its tournament over), or when
            /// its room could not be opened (the game then backs off, and its players and organiser
            /// are told the first time).
            pub async fn seat_tournament_game(&self, game: i64, room: Room<'_>) -> Result<Option<MatchId>>;
            /// Page `page` (from 1) of the standings of the latest tournament of this channel, as
            /// text and a picture.
            pub async fn tournament_standings(&self, place: Place, page: u32) -> Result<Reply>;
        }
    }

    delegate! {
        to self.timekeeper {
            /// Does everything that is due now, including anything missed while the bot was down,
            /// and queues what to announce.
            pub async fn tick(&self) -> Result<TickReport>;
        }
    }

    delegate! {
        to self.channels {
            /// A channel or thread was deleted: its matches' clocks stop until a player resumes them.
            pub async fn channel_gone(&self, channel: ChannelId) -> Result<usize>;
            /// A match's thread was locked: the bot cannot post in it, so its clock stops.
            pub async fn thread_locked(&self, channel: ChannelId) -> Result<usize>;
            /// The bot can no longer see a match's channel (its permissions there were taken away).
            pub async fn channel_hidden(&self, channel: ChannelId) -> Result<usize>;
            /// A moderator archived a match's thread again soon after the bot had reopened it: the
            /// bot leaves it closed, the match's clock stops, and its players are told in `parent`
            /// (the channel the thread belongs to), where either of them can carry it on.
            pub async fn thread_closed(&self, guild: GuildId, thread: ChannelId, parent: Option<ChannelId>) -> Result<usize>;
            /// The channels of the matches in play on `guild`, to check when the bot (re)connects.
            pub async fn match_channels_in(&self, guild: GuildId) -> Result<Vec<ChannelId>>;
            /// The bot was removed from a server: its matches' clocks stop.
            pub async fn guild_gone(&self, guild: GuildId) -> Result<usize>;
            /// A player carries a troubled match on at `place`: the match moves here if it was played
            /// elsewhere, and its clock runs again with the time it stood still added.
            pub async fn resume(&self, place: Place, actor: &Actor, id: MatchId) -> Result<Reply>;
            /// A player stops a troubled match: it is recorded, unrated, as aborted by them.
            pub async fn abort_unreachable(&self, actor: &Actor, id: MatchId) -> Result<Reply>;
        }
    }

    delegate! {
        to self.outbox {
            /// Queues the public part of `reply` for the channel at `place`, for when it could not be
            /// given as the answer to the command that made it.
            pub async fn announce_later(&self, place: Place, match_id: Option<MatchId>, reply: &Reply) -> Result<()>;
            /// Claims up to `limit` notices that are due and makes them ready to send. A reminder
            /// whose turn has been played since is dropped here, never sent.
            pub async fn claim_deliveries(&self, limit: i64) -> Result<Vec<Delivery>>;
            /// The board `shot` was shown in `channel`, as message `message` where the front-end has
            /// ids: direct messages about it link there, and those waiting for it go now.
            pub async fn board_posted(&self, channel: crate::store::ChannelId, shot: BoardShot, message: Option<u64>) -> Result<()>;
            /// The notice was posted.
            pub async fn delivered(&self, delivery: &Delivery) -> Result<()>;
            /// The post failed: tried again later, or, when Discord will never take it, marked
            /// undeliverable and its match's clock paused until a player acts.
            pub async fn delivery_failed(&self, delivery: &Delivery, failure: &DeliveryFailure) -> Result<()>;
            /// The bot is about to archive `thread` itself: remembered, so that the archive is not
            /// taken for a moderator's when a match in it (one that began in a race) reopens it.
            pub async fn closing_thread(&self, thread: crate::store::ChannelId) -> Result<()>;
        }
    }

    delegate! {
        to self.people {
            /// Changes `actor`'s board style, theme and how they hear of their turn; with none of
            /// them, shows the current ones.
            pub async fn settings(&self, actor: &Actor, style: Option<&str>, theme: Option<&str>, notify: Option<Notify>) -> Result<Reply>;
            /// The rules of a variant (classic by default), for `/thud rules`.
            pub fn rules(&self, variant: Option<Variant>) -> Result<Reply>;
            /// `actor` goes on vacation for `days` (default: all the allowance left).
            pub async fn start_vacation(&self, actor: &Actor, days: Option<u32>) -> Result<Reply>;
            /// `actor` comes back early.
            pub async fn end_vacation(&self, actor: &Actor) -> Result<Reply>;
        }
    }

    delegate! {
        to self.ladder {
            /// One page (from 1) of a ladder.
            pub async fn leaderboard(&self, place: Place, scope: LadderScope, page: u32) -> Result<Reply>;
            /// A player's ratings and record; `viewer`'s record against them when it is someone else,
            /// and the player's record against each level of the computer.
            pub async fn stats(&self, place: Place, viewer: &Actor, player: &Actor) -> Result<Reply>;
            /// A player's recent matches.
            pub async fn history(&self, place: Place, player: &Actor) -> Result<Reply>;
        }
    }
}

/// The workers, each a future to spawn: they live with the concern they drive. The bot spawns
/// them; the console runs one round of each after every line (`tick`, `play_computer_turns`,
/// `analyse_some`, `deliver_due`), the same work in an order it can print.
impl Service {
    /// The clock worker: what is due on the clock, every `every` and after downtime.
    pub fn clock_worker(
        &self,
        every: std::time::Duration,
        stop: watch::Receiver<bool>,
    ) -> impl Future<Output = ()> + Send + 'static {
        self.timekeeper.clone().run(every, stop)
    }

    /// The computer's worker: its moves as they fall due.
    pub fn computer_worker(
        &self,
        stop: watch::Receiver<bool>,
    ) -> impl Future<Output = ()> + Send + 'static {
        self.matches.clone().run_computer(stop)
    }

    /// The judging worker: analyses, a position at a time.
    pub fn judging_worker(
        &self,
        stop: watch::Receiver<bool>,
    ) -> impl Future<Output = ()> + Send + 'static {
        self.analysis.clone().run_judging(stop)
    }

    /// One round of the delivery worker, for a front-end that needs its output in order (the
    /// console): every notice due now through `deliverer`, one at a time; returns how many.
    pub async fn deliver_due(&self, deliverer: &impl Deliverer) -> Result<usize> {
        self.outbox.deliver_due(deliverer).await
    }

    /// The delivery worker: the outbox's notices through `deliverer` as they fall due.
    pub fn delivery_worker<D: Deliverer>(
        &self,
        deliverer: D,
        every: std::time::Duration,
        stop: watch::Receiver<bool>,
    ) -> impl Future<Output = ()> + Send + 'static {
        self.outbox.clone().run(deliverer, every, stop)
    }
}
