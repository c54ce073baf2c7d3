//! A rematch: either player of a finished match challenges the other again, with the same
//! variant, days and rating, and the roles swapped.

use super::Matches;
use crate::game::Seat;
use crate::service::error::{refuse, Result};
use crate::service::flow::computer::computer_actor;
use crate::service::flow::room::Room;
use crate::service::refusal::Refusal;
use crate::service::Reply;
use crate::service::{Actor, ChallengeOptions, Names, Place};
use crate::store::{MatchId, MatchState, SideChoice};

impl Matches {
    /// `actor` asks for a rematch of match `id`, here: a challenge to the other player (the
    /// other player accepts as for any challenge), or against the computer a new match at once
    /// at the same level, in a `room` of its own if one opens. Whoever commanded the dwarfs first in
    /// match `id` commands the trolls first in the rematch.
    pub async fn rematch(
        &self,
        place: Place,
        actor: &Actor,
        id: MatchId,
        room: Option<Room<'_>>,
    ) -> Result<Reply> {
        let Some(m) = self.store.load_match(id).await? else {
            return refuse(Refusal::NoSuchMatch);
        };
        let Some(seat) = m.seat_of(actor.id) else {
            return refuse(Refusal::RematchNotAPlayer(id));
        };
        match m.state {
            MatchState::Active => return refuse(Refusal::RematchTooEarly(id)),
            MatchState::Aborted => return refuse(Refusal::RematchOfStopped(id)),
            MatchState::Finished => {}
        }
        // The second player of this match commands the dwarfs in battle 1 of the next.
        let side = match seat {
            Seat::Second => SideChoice::Dwarfs,
            Seat::First => SideChoice::Trolls,
        };
        let mut options = ChallengeOptions {
            variant: Some(m.variant),
            side: Some(side),
            days_per_move: Some(m.days_per_move),
            rated: Some(m.rated),
        };
        let names = Names(self.store.names(&m.players).await?);
        if let Some(seat) = m.computer {
            options.rated = None;
            let computer = computer_actor(seat, &names);
            return self
                .challenge_computer(place, actor, &computer, Some(seat.level), &options, room)
                .await;
        }
        let other = m.player(seat.other());
        let opponent = Actor::new(other, names.of(other));
        self.challenge(place, actor, &opponent, &options).await
    }
}
