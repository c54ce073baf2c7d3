//! Ratings (Glicko-2, per server and global), leaderboards, stats and history.

use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

use crate::game::{MatchResult, Points, Seat};
use crate::service::error::Result;
use crate::service::events::{Event, RatingChange, ShownRating};
use crate::service::outcome::Reply;
use crate::service::text::{count, Text};
use crate::service::{Actor, Names, Place, Service};
use crate::store::{Finish, MatchState, Rating, Scope, StoredMatch, Tx, UserId};

/// A rating is provisional while its deviation is above this.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

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

/// A rating as a player sees it.
fn shown_rating(r: &Rating) -> ShownRating {
    ShownRating {
        rating: r.rating,
        provisional: r.deviation > PROVISIONAL_DEVIATION,
    }
}

/// A rating as shown: `1662`, or `1500?` while provisional.
fn shown(r: &Rating) -> String {
    crate::service::voice::rating_words(shown_rating(r))
}

/// Points won minus points conceded, signed: `+12`, `-3½`, `0`.
fn net(r: &Rating) -> String {
    let (f, a) = (r.points_for.halves(), r.points_against.halves());
    let diff = Points::from_halves(f.abs_diff(a));
    match f.cmp(&a) {
        std::cmp::Ordering::Greater => format!("+{diff}"),
        std::cmp::Ordering::Less => format!("-{diff}"),
        std::cmp::Ordering::Equal => "0".to_string(),
    }
}

impl Service {
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
        let now = self.now();
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
                        before: shown_rating(&old),
                        after: shown_rating(&r),
                    });
                }
            }
        }
        Ok(Some(Event::Rated { changes }))
    }

    /// One page (from 1) of a ladder.
    pub async fn leaderboard(&self, place: Place, scope: LadderScope, page: u32) -> Result<Reply> {
        let page = page.max(1);
        let (store_scope, title) = match scope {
            LadderScope::Server => (Scope::Guild(place.guild), "this server"),
            LadderScope::Global => (Scope::Global, "all servers"),
        };
        let (standings, total) = self
            .store
            .leaderboard(store_scope, (page as i64 - 1) * PAGE, PAGE)
            .await?;
        let pages = ((total + PAGE - 1) / PAGE).max(1);
        if standings.is_empty() {
            if total == 0 {
                return Ok(Reply::public(format!(
                    "No rated matches on {title} yet. Finish a match to appear here."
                )));
            }
            // A page past the end is the asker's slip: said to them alone.
            return crate::service::error::refuse(crate::service::refusal::Refusal::Input(
                format!(
                    "The leaderboard of {title} has {}; there is no page {page}.",
                    count(pages, "page", "pages")
                ),
            ));
        }
        let mut text = Text::new()
            .strong(format!("Leaderboard — {title}"))
            .plain(format!(" (page {page} of {pages})\n"));
        for s in &standings {
            let r = &s.rating;
            text = text
                .code(format!("{:>3}.", s.rank))
                .plain(" ")
                .strong(&s.name);
            text.push_str(&format!(
                " {} · {} {} · {}W {}D {}L · net {}\n",
                shown(r),
                r.games,
                if r.games == 1 { "match" } else { "matches" },
                r.wins,
                r.draws,
                r.losses,
                net(r)
            ));
        }
        text = text.plain("A ").code("?").plain(format!(
            " marks a provisional rating (deviation above {PROVISIONAL_DEVIATION:.0})."
        ));
        Ok(Reply::public(text))
    }

    /// A player's ratings and record; `viewer`'s record against them when it is someone else,
    /// and the player's record against each level of the computer.
    pub async fn stats(&self, place: Place, viewer: &Actor, player: &Actor) -> Result<Reply> {
        if player.is_bot {
            return self.computer_stats(player).await;
        }
        let mut text = Text::new().strong(&player.name).line();
        let mut any = false;
        for (scope, title) in [
            (Scope::Guild(place.guild), "This server"),
            (Scope::Global, "All servers"),
        ] {
            if let Some((r, rank)) = self.store.standing(scope, player.id).await? {
                any = true;
                text.push_str(&format!(
                    "{title}: rating {} (±{:.0}), rank {rank} · {} · {}W {}D {}L · points {} won, {} conceded (net {})\n",
                    shown(&r),
                    r.deviation,
                    count(r.games as i64, "match", "matches"),
                    r.wins,
                    r.draws,
                    r.losses,
                    r.points_for,
                    r.points_against,
                    net(&r)
                ));
            }
        }
        let active = self
            .store
            .active_matches_of(player.id, Some(place.guild))
            .await?;
        if !active.is_empty() {
            text.push_str(&format!(
                "Playing now: {} on this server.\n",
                count(active.len() as i64, "match", "matches")
            ));
        }
        if !any {
            text.push_str("No rated matches yet.\n");
        }
        let allowance = self.config.vacation_per_year;
        if allowance > chrono::Duration::zero() {
            let now = self.now();
            let left = allowance - self.store.vacation_used(player.id, now).await?;
            let away = self.store.vacations_of(&[player.id]).await?;
            text.push_str(&format!(
                "Vacation: {} left of {} a year",
                crate::service::text::duration_words(left.max(chrono::Duration::zero())),
                crate::service::text::duration_words(allowance),
            ));
            if let Some(v) = away.get(&player.id) {
                text = text.plain("; on vacation until ").time(v.until);
            }
            text.push_str("\n");
        }
        for r in self.store.record_against_computer(player.id).await? {
            text.push_str(&format!(
                "Against the computer at level {}: {} · {}W {}D {}L\n",
                r.level,
                count(r.matches, "match", "matches"),
                r.wins,
                r.draws,
                r.losses
            ));
        }
        if viewer.id != player.id {
            let h = self.store.head_to_head(viewer.id, player.id).await?;
            if h.matches == 0 {
                text.push_str(&format!(
                    "You have not finished a match against {} yet.",
                    player.name
                ));
            } else {
                text.push_str(&format!(
                    "You against {}: {} · {}W {}D {}L · points {} won, {} conceded",
                    player.name,
                    count(h.matches, "match", "matches"),
                    h.wins,
                    h.draws,
                    h.losses,
                    Points::from_halves(h.points_for as u32),
                    Points::from_halves(h.points_against as u32),
                ));
            }
        }
        Ok(Reply::public(text.trim_end()))
    }

    /// The computer's record, level by level: it plays unrated, so it has no rating.
    async fn computer_stats(&self, bot: &Actor) -> Result<Reply> {
        let record = self.store.computer_record(bot.id).await?;
        let mut text = Text::new().strong(&bot.name).line();
        if record.is_empty() {
            text.push_str(&format!(
                "{} is a bot: it has no rating and has finished no match here.",
                bot.name
            ));
            return Ok(Reply::public(text));
        }
        text.push_str(
            "The computer opponent; its matches are never rated. Its record against players:\n",
        );
        for r in record {
            text.push_str(&format!(
                "Level {} ({}): {} · {}W {}D {}L\n",
                r.level,
                crate::service::voice::level_title(r.level),
                count(r.matches, "match", "matches"),
                r.wins,
                r.draws,
                r.losses
            ));
        }
        Ok(Reply::public(text.trim_end()))
    }

    /// A player's recent matches.
    pub async fn history(&self, place: Place, player: &Actor) -> Result<Reply> {
        let matches = self
            .store
            .finished_matches_of(player.id, Some(place.guild), 10)
            .await?;
        if matches.is_empty() {
            return Ok(Reply::public(format!(
                "{} has no finished matches on this server yet.",
                player.name
            )));
        }
        let ids: Vec<UserId> = matches.iter().flat_map(|m| m.players).collect();
        let names = Names(self.store.names(&ids).await?);
        let mut text = Text::new()
            .strong(format!("Recent matches of {}", player.name))
            .line();
        for m in &matches {
            let opponent = if m.players[0] == player.id {
                m.players[1]
            } else {
                m.players[0]
            };
            let mine = usize::from(m.players[0] != player.id);
            let verdict = match (m.state, m.winner) {
                (MatchState::Aborted, _) => "aborted".to_string(),
                (_, Some(w)) if w == player.id => "won".to_string(),
                (_, Some(_)) => "lost".to_string(),
                (_, None) => "drew".to_string(),
            };
            let how = match m.finish {
                Some(Finish::Resigned) => " by resignation",
                Some(Finish::Timeout) => " on time",
                _ => "",
            };
            // Points tell how a played-out match went; one resigned or lost on time was
            // decided otherwise, and its points (often 0–0) would say something false.
            let score = m
                .points
                .filter(|_| m.finish == Some(Finish::Completed))
                .map(|p| format!(" {}–{}", p[mine], p[1 - mine]))
                .unwrap_or_default();
            let date = m.finished_at.unwrap_or(m.created_at).format("%Y-%m-%d");
            text = text
                .code(format!("#{}", m.id))
                .plain(" vs ")
                .strong(names.of(opponent))
                .plain(format!(
                    " · {} · {verdict}{score}{how} · {date} · played in ",
                    m.variant.title()
                ))
                .channel(m.channel)
                .line();
        }
        Ok(Reply::public(text.trim_end()))
    }
}
