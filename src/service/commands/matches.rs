//! `MatchCommands`: the front-ends' door to the match flow.

use super::*;

/// The match flow as the front-ends ask it: challenges, moves, ends by agreement, forfeits,
/// rematches, the board and a player's games; each answer worded after the change is saved.
// Implemented by `Service` alone and called on it, so whether a future is `Send` is known
// where it is called.
#[allow(async_fn_in_trait)]
pub trait MatchCommands {
    /// The concern that does the work.
    #[doc(hidden)]
    fn concern(&self) -> &Matches;

    delegate! {
        to self.concern() {
            /// `actor` proposes ending the current battle.
            #[expr($.map(Told::worded))]
            async fn propose_end(&self, place: Place, actor: &Actor) -> Result<Reply>;
            /// `actor` answers the open proposal; `pressed` names the proposal when answered by
            /// button, so a stale button is refused.
            #[expr($.map(Told::worded))]
            async fn answer_end(&self, place: Place, actor: &Actor, agree: bool, pressed: Option<(MatchId, i64)>) -> Result<Reply>;
            /// The board of the match in play here (or of the last one played here), with the score,
            /// whose turn it is and the deadline. Spectators may look too.
            #[expr($.map(Told::worded))]
            async fn board(&self, place: Place, viewer: &Actor, style: Option<BoardStyle>) -> Result<Reply>;
            /// `actor`'s matches in play on this server, with opponent, whose turn and time left, and
            /// from every server the matches the bot cannot reach, with buttons to resume or stop them.
            #[expr($.map(Told::worded))]
            async fn my_games(&self, place: Place, actor: &Actor, everywhere: bool) -> Result<Reply>;
            /// `challenger` invites `opponent` to a match in this channel.
            #[expr($.map(Told::worded))]
            async fn challenge(&self, place: Place, challenger: &Actor, opponent: &Actor, options: &ChallengeOptions) -> Result<Reply>;
            /// The open challenge `actor` could accept here, without accepting it: lets a front-end
            /// check before it opens a thread for the match.
            async fn challenge_to_accept(&self, place: Place, actor: &Actor, id: Option<ChallengeId>) -> Result<Challenge>;
            /// The opponent accepts; battle 1 begins in a `room` of its own (a thread in the channel
            /// of the challenge, opened once the challenge is closed) or in the channel itself.
            #[expr($.map(Told::worded))]
            async fn accept(&self, place: Place, actor: &Actor, id: Option<ChallengeId>, room: Option<Room<'_>>) -> Result<Reply>;
            /// The opponent declines.
            #[expr($.map(Told::worded))]
            async fn decline(&self, place: Place, actor: &Actor, id: Option<ChallengeId>) -> Result<Reply>;
            /// The challenger withdraws.
            #[expr($.map(Told::worded))]
            async fn cancel(&self, place: Place, actor: &Actor, id: Option<ChallengeId>) -> Result<Reply>;
            /// `challenger` plays `computer` (the bot's own account) at `level` (default 3): the match
            /// begins at once, here or in a `room` of its own (a thread). It is never rated.
            #[expr($.map(Told::worded))]
            async fn challenge_computer(&self, place: Place, challenger: &Actor, computer: &Actor, level: Option<u8>, options: &ChallengeOptions, room: Option<Room<'_>>) -> Result<Reply>;
            /// Plays the computer's moves that are due, one round of at most a few matches; returns
            /// how many it played. The clock worker and the console call it whenever woken.
            async fn play_computer_turns(&self) -> Result<usize>;
            /// Asks `actor` to confirm resigning: a private message with a Confirm button.
            #[expr($.map(Told::worded))]
            async fn resign_prompt(&self, place: Place, actor: &Actor) -> Result<Reply>;
            /// `actor` resigns the match in this channel (`confirmed` names it when confirmed by button).
            #[expr($.map(Told::worded))]
            async fn resign(&self, place: Place, actor: &Actor, confirmed: Option<MatchId>) -> Result<Reply>;
            /// `actor` claims the match because the opponent let the deadline pass.
            #[expr($.map(Told::worded))]
            async fn claim(&self, place: Place, actor: &Actor) -> Result<Reply>;
            /// A moderator stops the match in this channel; it is recorded and unrated.
            #[expr($.map(Told::worded))]
            async fn abort(&self, place: Place, actor: &Actor, is_moderator: bool) -> Result<Reply>;
            /// `actor` plays a move in this channel's match.
            #[expr($.map(Told::worded))]
            async fn play(&self, place: Place, actor: &Actor, request: &MoveRequest) -> Result<Reply>;
            /// `actor` asks for a rematch of match `id`, here: a challenge to the other player (the
            /// other player accepts as for any challenge), or against the computer a new match at once
            /// at the same level, in a `room` of its own if one opens. Whoever commanded the dwarfs first in
            /// match `id` commands the trolls first in the rematch.
            #[expr($.map(Told::worded))]
            async fn rematch(&self, place: Place, actor: &Actor, id: MatchId, room: Option<Room<'_>>) -> Result<Reply>;
            /// Squares holding a piece of the player's that can make a `verb` move.
            async fn suggest_from(&self, place: Place, actor: &Actor, verb: Verb, typed: &str) -> Vec<Choice>;
            /// Where the piece on `from` can go with a `verb` move.
            async fn suggest_to(&self, place: Place, actor: &Actor, verb: Verb, from: &str, typed: &str) -> Vec<Choice>;
            /// The capture lists possible for the piece on `from` landing on `to`, largest first.
            async fn suggest_captures(&self, place: Place, actor: &Actor, verb: Verb, from: &str, to: &str, typed: &str) -> Vec<Choice>;
            /// Legal moves in notation that start with what the player typed, for `/thud play`.
            async fn suggest_notation(&self, place: Place, actor: &Actor, typed: &str) -> Vec<Choice>;
        }
    }
}

impl MatchCommands for Service {
    fn concern(&self) -> &Matches {
        &self.matches
    }
}
