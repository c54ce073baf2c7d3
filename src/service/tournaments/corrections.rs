//! What a tournament director fixes by hand while a tournament runs: a result corrected, a
//! late entry to a Swiss, a withdrawn player reinstated. Each is announced in the
//! tournament's channel and counted by the standings at once; ratings are never touched.

use super::here::{lock_here, news_from};
use super::refuse_tournament;
use super::rounds::told;
use super::Tournaments;
use crate::service::error::Result;
use crate::service::events::TournamentEvent;
use crate::service::outcome::Reply;
use crate::service::refusal::TournamentRefusal as Why;
use crate::service::voice::Reader;
use crate::service::wording::word;
use crate::service::{Actor, Place};
use crate::store::{GameOutcome, MatchId, Store, StoredTournament, TournamentState, Tx, UserId};
use crate::tournament::{Format, Pairing};

impl Tournaments {
    /// An organiser sets the result of match `match_id`, a decided game of this channel's
    /// running tournament: `winner` wins it, or it is drawn (`None`).
    pub async fn correct_result(
        &self,
        place: Place,
        actor: &Actor,
        is_organiser: bool,
        match_id: MatchId,
        winner: Option<UserId>,
    ) -> Result<Reply> {
        if !is_organiser {
            return self.not_organiser(place.guild).await;
        }
        let mut tx = self.store.begin().await?;
        let t = running_here(&self.store, &mut tx, place, Why::NotRunningYet).await?;
        let entrants = tx.entrants(t.id).await?;
        let user = |seed: usize| entrants.get(seed).map(|e| e.user);
        let Some((game, first, second)) =
            tx.games(t.id)
                .await?
                .into_iter()
                .find_map(|g| match (g.match_id, g.pairing) {
                    (Some(id), Pairing::Match { first, second }) if id == match_id => {
                        Some((g, user(first)?, user(second)?))
                    }
                    _ => None,
                })
        else {
            return refuse_tournament(Why::NotAGameHere(match_id));
        };
        let outcome = match winner {
            None => GameOutcome::Drawn,
            Some(w) if w == first => GameOutcome::First,
            Some(w) if w == second => GameOutcome::Second,
            Some(_) => return refuse_tournament(Why::NotAPlayerOfTheGame(match_id)),
        };
        // A correction carries no margin: the battles that gave one are what is corrected.
        if !tx.correct_game(game.id, outcome, 0).await? {
            return refuse_tournament(Why::GameUndecided(match_id));
        }
        let now = self.clock.now();
        tx.save_player(&actor.player(), now).await?;
        let corrected = told(TournamentEvent::ResultCorrected {
            name: t.name.clone(),
            match_id,
            first,
            second,
            winner,
            by: actor.id,
        });
        let news = news_from(&mut tx, &t, place, vec![corrected], now).await?;
        tx.commit().await?;
        self.outbox_signal.notify_waiters();
        Ok(word(&self.store, &news, &Reader::Channel).await?.saved())
    }

    /// An organiser adds `player` to this channel's running Swiss; they are paired from the
    /// next round, with no points for the rounds before.
    pub async fn add_late_entry(
        &self,
        place: Place,
        actor: &Actor,
        is_organiser: bool,
        player: &Actor,
    ) -> Result<Reply> {
        if !is_organiser {
            return self.not_organiser(place.guild).await;
        }
        if player.is_bot {
            return refuse_tournament(Why::BotCannotJoin);
        }
        let mut tx = self.store.begin().await?;
        let t = running_here(&self.store, &mut tx, place, Why::LateEntryBeforeStart).await?;
        if t.format == Format::RoundRobin {
            return refuse_tournament(Why::LateEntryOnlySwiss);
        }
        let entrants = tx.entrants(t.id).await?;
        if entrants.iter().any(|e| e.user == player.id) {
            return refuse_tournament(Why::AlreadyIn);
        }
        let most = t.format.most_players();
        if entrants.len() >= most {
            return refuse_tournament(Why::Full { most });
        }
        let now = self.clock.now();
        tx.save_player(&player.player(), now).await?;
        tx.save_player(&actor.player(), now).await?;
        tx.add_entrant(t.id, player.id, now).await?;
        let added = told(TournamentEvent::LateEntry {
            name: t.name.clone(),
            player: player.id,
            by: actor.id,
            from: t.current_round + 1,
        });
        let news = news_from(&mut tx, &t, place, vec![added], now).await?;
        tx.commit().await?;
        self.outbox_signal.notify_waiters();
        Ok(word(&self.store, &news, &Reader::Channel).await?.saved())
    }

    /// An organiser takes withdrawn `player` back into this channel's running tournament,
    /// paired from the next round; what they forfeited meanwhile stays forfeited.
    pub async fn reinstate(
        &self,
        place: Place,
        actor: &Actor,
        is_organiser: bool,
        player: UserId,
    ) -> Result<Reply> {
        if !is_organiser {
            return self.not_organiser(place.guild).await;
        }
        let mut tx = self.store.begin().await?;
        let t = running_here(&self.store, &mut tx, place, Why::NotRunningYet).await?;
        if !tx.reinstate_entrant(t.id, player).await? {
            return refuse_tournament(Why::NotWithdrawn);
        }
        let now = self.clock.now();
        tx.save_player(&actor.player(), now).await?;
        let back = told(TournamentEvent::Reinstated {
            name: t.name.clone(),
            player,
            by: actor.id,
            from: t.current_round + 1,
        });
        let news = news_from(&mut tx, &t, place, vec![back], now).await?;
        tx.commit().await?;
        self.outbox_signal.notify_waiters();
        Ok(word(&self.store, &news, &Reader::Channel).await?.saved())
    }
}

/// The tournament running here, locked, or a refusal (`before_start` while it takes players).
async fn running_here(
    store: &Store,
    tx: &mut Tx,
    place: Place,
    before_start: Why,
) -> Result<StoredTournament> {
    match lock_here(store, tx, place).await? {
        Some(t) if t.state == TournamentState::Running => Ok(t),
        Some(_) => refuse_tournament(before_start),
        None => refuse_tournament(Why::NoTournamentHere),
    }
}
