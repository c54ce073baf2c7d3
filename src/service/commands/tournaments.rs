//! `TournamentCommands`: the front-ends' door to tournaments.

use super::*;

/// Tournaments as organisers and players use them, and the seating of their games.
// Implemented by `Service` alone and called on it, so whether a future is `Send` is known
// where it is called.
#[allow(async_fn_in_trait)]
pub trait TournamentCommands {
    /// The concern that does the work.
    #[doc(hidden)]
    fn concern(&self) -> &Tournaments;

    delegate! {
        to self.concern() {
            /// `message` announced tournament `id` (the answer to its creation).
            async fn tournament_announced(&self, id: TournamentId, message: u64) -> Result<()>;
            /// The announcement of the latest tournament in `channel` as it should read now (its
            /// field's size, and the Join button only while it takes players); `None` when no
            /// announcement of it was recorded.
            async fn tournament_announcement_in(&self, channel: ChannelId) -> Result<Option<Announcement>>;
            /// An organiser sets the result of match `match_id`, a decided game of this channel's
            /// running tournament: `winner` wins it, or it is drawn (`None`).
            async fn correct_tournament_result(&self, place: Place, actor: &Actor, is_organiser: bool, match_id: MatchId, winner: Option<UserId>) -> Result<Reply>;
            /// An organiser adds `player` to this channel's running Swiss; they are paired from the
            /// next round, with no points for the rounds before.
            async fn add_late_entry(&self, place: Place, actor: &Actor, is_organiser: bool, player: &Actor) -> Result<Reply>;
            /// An organiser takes withdrawn `player` back into this channel's running tournament,
            /// paired from the next round; what they forfeited meanwhile stays forfeited.
            async fn reinstate_tournament_player(&self, place: Place, actor: &Actor, is_organiser: bool, player: UserId) -> Result<Reply>;
            /// An organiser announces a tournament in this channel; players join until it starts.
            async fn create_tournament(&self, place: Place, actor: &Actor, is_organiser: bool, options: &TournamentOptions) -> Result<Reply>;
            /// A player joins the tournament open in this channel.
            async fn join_tournament(&self, place: Place, actor: &Actor) -> Result<Reply>;
            /// A player joins tournament `id` by its Join button.
            async fn join_tournament_numbered(&self, actor: &Actor, id: crate::store::TournamentId) -> Result<Reply>;
            /// A player leaves the tournament before it starts.
            async fn leave_tournament(&self, place: Place, actor: &Actor) -> Result<Reply>;
            /// The organiser starts the tournament now: round 1 is paired.
            async fn start_tournament_now(&self, place: Place, actor: &Actor, is_organiser: bool) -> Result<Reply>;
            /// A player withdraws from a running tournament: their match in play is forfeited, their
            /// games waiting for a channel are won by their opponents, later rounds skip them.
            async fn withdraw_from_tournament(&self, place: Place, actor: &Actor) -> Result<Reply>;
            /// Withdraws `user`, who left the server `guild` or was banned from it, from every
            /// tournament of `guild` (one not started yet just loses them); returns how many.
            async fn withdraw_everywhere(&self, guild: crate::store::GuildId, user: crate::store::UserId, why: Departure) -> Result<usize>;
            /// The organiser cancels the tournament: its matches in play are stopped, unrated.
            async fn cancel_tournament(&self, place: Place, actor: &Actor, is_organiser: bool) -> Result<Reply>;
            /// Whether a member of `guild` may create, start and cancel tournaments: they manage the
            /// server, or hold the role it named (`roles` are the member's role ids).
            async fn is_organiser(&self, guild: GuildId, manages_server: bool, roles: &[u64]) -> Result<bool>;
            /// Shows, names or clears the role whose members organise tournaments in `guild`; a
            /// change needs Manage Server.
            async fn tournament_organisers(&self, guild: GuildId, actor: &Actor, manages_server: bool, change: OrganiserRoleChange) -> Result<Reply>;
            /// Discord says role `role` of `guild` was renamed to `name`, or deleted (`None`): the
            /// organisers' role keeps its name up to date, and a deleted one is forgotten.
            async fn role_changed(&self, guild: GuildId, role: u64, name: Option<&str>) -> Result<bool>;
            /// Moves every tournament on as far as it can go now; called by the clock's tick.
            async fn tick_tournaments(&self) -> Result<TournamentTick>;
            /// Games of running tournaments that wait for a channel, oldest first.
            async fn tournament_games_to_seat(&self, limit: i64) -> Result<Vec<GameToSeat>>;
            /// Begins the match of tournament game `game` in `channel` (a thread the front-end made
            /// for it); its opening goes there through the outbox. `None` when the game needs no
            /// match any more (seated by another process, decided, or its tournament over), or when
            /// its room could not be opened (the game then backs off, and its players and organiser
            /// are told the first time).
            async fn seat_tournament_game(&self, game: i64, room: Room<'_>) -> Result<Option<MatchId>>;
            /// Page `page` (from 1) of the standings of the latest tournament of this channel, as
            /// text and a picture.
            async fn tournament_standings(&self, place: Place, page: i64) -> Result<Reply>;
        }
    }
}

impl TournamentCommands for Service {
    fn concern(&self) -> &Tournaments {
        &self.tournaments
    }
}
