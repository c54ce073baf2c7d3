//! A tournament's standings, computed from its stored games and worded as text (for the
//! console, screen readers and the round announcements).

use super::refusal::TournamentRefusal as Why;
use super::refuse_tournament;
use crate::service::error::Result;
use crate::service::outcome::Reply;
use crate::service::text::Text;
use crate::service::{Names, Place, Service};
use crate::store::{Entrant, StoredTournament, TournamentGame, TournamentState, Tx, UserId};
use crate::tournament::{Cell, Game, HalfPoints, Standings, TieBreaks};

/// Lines of standings a round's announcement shows (a message has room for about this many).
const ANNOUNCED_LINES: usize = 10;

/// The standings after the stored games.
pub(super) fn standings_of(
    t: &StoredTournament,
    entrants: &[Entrant],
    games: &[TournamentGame],
) -> Standings {
    let games: Vec<Game> = games
        .iter()
        .map(|g| Game {
            round: g.round,
            pairing: g.pairing,
            outcome: g.result(),
        })
        .collect();
    let rounds = t.rounds.unwrap_or(t.current_round).max(t.current_round);
    Standings::compute(t.format, entrants.len(), rounds, &games)
}

/// One line a player: rank, name, points, tie-breaks, results by round.
fn line(standings: &Standings, index: usize, name: &dyn Fn(usize) -> String) -> Option<String> {
    let s = standings.lines.get(index)?;
    let tie_breaks = match s.tie_breaks {
        TieBreaks::SonnebornBerger(sb) => format!("SB {sb}"),
        TieBreaks::Swiss { buchholz, margin } => {
            let sign = if margin < 0 { "−" } else { "+" };
            let m = HalfPoints(margin.unsigned_abs().try_into().unwrap_or(u32::MAX));
            format!("Buchholz {buchholz}, margin {sign}{m}")
        }
    };
    let rank_of = |seed: usize| {
        standings
            .lines
            .iter()
            .find(|l| l.player == seed)
            .map(|l| l.rank)
            .unwrap_or(0)
    };
    let results: Vec<String> = s
        .cells
        .iter()
        .map(|c| match *c {
            Cell::Won { opponent, .. } => format!("+{}", rank_of(opponent)),
            Cell::Drawn { opponent } => format!("={}", rank_of(opponent)),
            Cell::Lost { opponent, .. } => format!("−{}", rank_of(opponent)),
            Cell::ForfeitWon { .. } => "+F".into(),
            Cell::ForfeitLost { .. } => "−F".into(),
            Cell::Bye => "bye".into(),
            Cell::Playing { opponent } => format!("…{}", rank_of(opponent)),
            Cell::Absent => "·".into(),
        })
        .collect();
    let points = if s.points.0 == 2 {
        "1 point".to_string()
    } else {
        format!("{} points", s.points)
    };
    Some(format!(
        "{}. {} — {points} ({tie_breaks}); by round: {}",
        s.rank,
        name(s.player),
        results.join(" ")
    ))
}

/// The standings as lines of text, at most `limit` players.
pub(super) async fn standings_lines(
    tx: &mut Tx,
    entrants: &[Entrant],
    standings: &Standings,
    limit: usize,
) -> Result<Text> {
    let users: Vec<UserId> = entrants.iter().map(|e| e.user).collect();
    let names = Names(tx.names(&users).await?);
    let name = |seed: usize| match entrants.get(seed) {
        Some(e) if e.withdrawn => format!("{} (withdrawn)", names.of(e.user)),
        Some(e) => names.of(e.user),
        None => format!("seed {seed}"),
    };
    let mut text = Text::new();
    for i in 0..standings.lines.len().min(limit) {
        if let Some(l) = line(standings, i, &name) {
            if i > 0 {
                text = text.line();
            }
            text = text.plain(l);
        }
    }
    if standings.lines.len() > limit {
        text = text.line().plain(format!(
            "… and {} more; see /thud tournament standings.",
            standings.lines.len() - limit
        ));
    }
    Ok(text)
}

/// The standings for a round's announcement.
pub(super) async fn standings_text(
    tx: &mut Tx,
    _t: &StoredTournament,
    entrants: &[Entrant],
    standings: &Standings,
) -> Result<Text> {
    standings_lines(tx, entrants, standings, ANNOUNCED_LINES).await
}

impl Service {
    /// The standings of the latest tournament of this channel, as text.
    pub async fn tournament_standings(&self, place: Place) -> Result<Reply> {
        let Some(t) = self.store.latest_tournament_in(place.channel).await? else {
            return refuse_tournament(Why::NoTournamentHere);
        };
        let mut tx = self.store.begin().await?;
        let entrants = tx.entrants(t.id).await?;
        let games = tx.games(t.id).await?;
        let standings = standings_of(&t, &entrants, &games);
        let state = match t.state {
            TournamentState::Open => format!("taking players ({} so far)", entrants.len()),
            TournamentState::Running => format!(
                "round {} of {}",
                t.current_round,
                t.rounds.unwrap_or(t.current_round)
            ),
            TournamentState::Finished => "finished".into(),
            TournamentState::Cancelled => "cancelled".into(),
        };
        let body = standings_lines(&mut tx, &entrants, &standings, 40).await?;
        tx.rollback().await?;
        let key = match t.format {
            crate::tournament::Format::RoundRobin => "SB: Sonneborn–Berger.",
            crate::tournament::Format::Swiss { .. } => "Ties: Buchholz, then margin.",
        };
        Ok(Reply::public(
            Text::new()
                .strong(format!("{} — standings, {state}", t.name))
                .line()
                .then(body)
                .line()
                .plain(format!(
                    "+n won, =n drew, −n lost against the player ranked n; F a forfeit. {key}"
                )),
        ))
    }
}
