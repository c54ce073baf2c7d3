//! Ratings (Glicko-2, per server and global), leaderboards, stats and history.

use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

use super::Ladder;
use crate::game::{MatchResult, Points, Seat};
use crate::service::error::{refuse, Result};
use crate::service::events::{Event, RatingChange, ShownRating};
use crate::service::outcome::Reply;
use crate::service::refusal::Refusal;
use crate::service::voice;
use crate::service::{Actor, Names, Place};
use crate::store::{Rating, Scope, StoredMatch, Tx, UserId};

/// Lines on one leaderboard page.
const PAGE: i64 = 10;

/// Which ladder to show.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LadderScope {
    /// This server's players.
    #[default]
    Server,
    Global,
}

fn fresh(player: UserId) -> Rating {
    let g = Glicko2Rating::new();
    Rating {
        player,
        rating: g.rating,
        deviation: g.deviation,
        volatility: g.volatility,
        games: 0,
        wins: 0,
        draws: 0,
        losses: 0,
        points_for: Points::ZERO,
        points_against: Points::ZERO,
    }
}

impl Ladder {
    /// Rates a finished match on the server's ladder and the global one. Forfeits count;
    /// aborted matches never reach here.
    pub(in crate::service) async fn rate(
        &self,
        tx: &mut Tx,
        m: &StoredMatch,
        result: &MatchResult,
    ) -> Result<Option<Event>> {
        if !m.rated {
            return Ok(None);
        }
        let now = self.clock.now();
        let outcome = match result.winner {
            Some(Seat::First) => Outcomes::WIN,
            Some(Seat::Second) => Outcomes::LOSS,
            None => Outcomes::DRAW,
        };
        let mut changes = Vec::new();
        for scope in [Scope::Guild(m.guild), Scope::Global] {
            // Lock both rows in id order so two matches finishing at once cannot deadlock.
            let mut ordered = m.players;
            ordered.sort();
            let mut rows = Vec::new();
            for p in ordered {
                rows.push(
                    tx.rating_for_update(scope, p)
                        .await?
                        .unwrap_or_else(|| fresh(p)),
                );
            }
            let row = |p: UserId| {
                rows.iter()
                    .find(|r| r.player == p)
                    .copied()
                    .unwrap_or_else(|| fresh(p))
            };
            let (a, b) = (row(m.players[0]), row(m.players[1]));
            let g = |r: &Rating| Glicko2Rating {
                rating: r.rating,
                deviation: r.deviation,
                volatility: r.volatility,
            };
            let (na, nb) = glicko2(&g(&a), &g(&b), &outcome, &Glicko2Config::new());
            for (seat, old, new) in [(Seat::First, a, na), (Seat::Second, b, nb)] {
                let mut r = old;
                r.rating = new.rating;
                r.deviation = new.deviation;
                r.volatility = new.volatility;
                r.games += 1;
                match result.winner {
                    Some(w) if w == seat => r.wins += 1,
                    Some(_) => r.losses += 1,
                    None => r.draws += 1,
                }
                r.points_for = r.points_for + result.total(seat);
                r.points_against = r.points_against + result.total(seat.other());
                tx.save_rating(scope, &r, now).await?;
                if matches!(scope, Scope::Guild(_)) {
                    changes.push(RatingChange {
                        player: r.player,
                        before: ShownRating::of(&old),
                        after: ShownRating::of(&r),
                    });
                }
            }
        }
        Ok(Some(Event::Rated { changes }))
    }

    /// One page (from 1) of a ladder.
    pub async fn leaderboard(&self, place: Place, scope: LadderScope, page: i64) -> Result<Reply> {
        let store_scope = match scope {
            LadderScope::Server => Scope::Guild(place.guild),
            LadderScope::Global => Scope::Global,
        };
        let (standings, total) = self
            .store
            .leaderboard(store_scope, (page.max(1) - 1).saturating_mul(PAGE), PAGE)
            .await?;
        let pages = ((total + PAGE - 1) / PAGE).max(1);
        if total == 0 {
            return Ok(Reply::public(voice::no_rated_matches(scope)));
        }
        if standings.is_empty() || page < 1 {
            // A page past the end, or before the first, is the asker's slip: said to them
            // alone, in the same words.
            return refuse(Refusal::Input(voice::no_such_ladder_page(
                scope, pages, page,
            )));
        }
        Ok(Reply::public(voice::leaderboard(
            scope,
            (page, pages),
            &standings,
        )))
    }

    /// A player's ratings and record; `viewer`'s record against them when it is someone else,
    /// and the player's record against each level of the computer.
    pub async fn stats(&self, place: Place, viewer: &Actor, player: &Actor) -> Result<Reply> {
        if player.is_bot {
            return self.computer_stats(player).await;
        }
        let mut standings = Vec::new();
        for (scope, ladder) in [
            (Scope::Guild(place.guild), LadderScope::Server),
            (Scope::Global, LadderScope::Global),
        ] {
            if let Some((r, rank)) = self.store.standing(scope, player.id).await? {
                standings.push((ladder, r, rank));
            }
        }
        let playing = self
            .store
            .active_matches_of(player.id, Some(place.guild))
            .await?
            .len();
        let allowance = self.config.vacation_per_year;
        let vacation = if allowance > chrono::Duration::zero() {
            let now = self.clock.now();
            let left = allowance - self.store.vacation_used(player.id, now).await?;
            let away = self.store.vacations_of(&[player.id]).await?;
            Some(voice::VacationFigures {
                left: left.max(chrono::Duration::zero()),
                allowance,
                until: away.get(&player.id).map(|v| v.until),
            })
        } else {
            None
        };
        let against_computer = self.store.record_against_computer(player.id).await?;
        let head_to_head = if viewer.id != player.id {
            Some(self.store.head_to_head(viewer.id, player.id).await?)
        } else {
            None
        };
        Ok(Reply::public(voice::player_figures(
            &voice::PlayerFigures {
                name: &player.name,
                standings,
                playing,
                vacation,
                against_computer,
                head_to_head,
            },
        )))
    }

    /// The computer's record, level by level: it plays unrated, so it has no rating.
    async fn computer_stats(&self, bot: &Actor) -> Result<Reply> {
        let record = self.store.computer_record(bot.id).await?;
        Ok(Reply::public(voice::computer_figures(&bot.name, &record)))
    }

    /// A player's recent matches.
    pub async fn history(&self, place: Place, player: &Actor) -> Result<Reply> {
        let matches = self
            .store
            .finished_matches_of(player.id, Some(place.guild), 10)
            .await?;
        let ids: Vec<UserId> = matches.iter().flat_map(|m| m.players).collect();
        let names = Names(self.store.names(&ids).await?);
        Ok(Reply::public(voice::history(player, &matches, &names)))
    }
}
