//! `/thud tournament standings`: a page of the standings of this channel's tournament.

use super::refuse_tournament;
use super::Tournaments;
use crate::service::error::Result;
use crate::service::outcome::Reply;
use crate::service::refusal::TournamentRefusal as Why;
use crate::service::standings::{page_of, standings_of, standings_png, PAGE_LINES};
use crate::service::voice;
use crate::service::{Names, Place};
use crate::store::UserId;

impl Tournaments {
    /// Page `page` (from 1) of the standings of the latest tournament of this channel, as
    /// text and a picture.
    pub async fn standings(&self, place: Place, page: i64) -> Result<Reply> {
        let here = match self.store.latest_tournament_in(place.channel).await? {
            Some(t) => Some(t),
            // In a game's own thread: the tournament the game is of.
            None => match self.store.tournament_of_game_in(place.channel).await? {
                Some(id) => self.store.tournament(id).await?,
                None => None,
            },
        };
        let Some(t) = here else {
            return refuse_tournament(Why::NoTournamentHere);
        };
        let mut tx = self.store.begin().await?;
        let entrants = tx.entrants(t.id).await?;
        let games = tx.games(t.id).await?;
        let all = standings_of(&t, &entrants, &games);
        let pages = all.lines.len().div_ceil(PAGE_LINES).max(1) as u32;
        // Pages count from 1, as the command's `page:2` says.
        let Some(page) = u32::try_from(page).ok().filter(|p| (1..=pages).contains(p)) else {
            return refuse_tournament(Why::NoSuchStandingsPage {
                name: t.name.clone(),
                pages,
                page,
            });
        };
        let (standings, page, pages) = page_of(&all, page);
        let users: Vec<UserId> = entrants.iter().map(|e| e.user).collect();
        let names = Names(tx.names(&users).await?);
        let body = voice::standings_text(&entrants, &names, &standings, PAGE_LINES);
        tx.rollback().await?;
        let (title, text) = voice::standings_page(&t, entrants.len(), body, (page, pages));
        let png = standings_png(title, &entrants, &standings, &names).await?;
        // Each page its own file, so a front-end that keeps them does not overwrite one with
        // the next.
        let file = match pages {
            1 => format!("tournament-{}-standings.png", t.id),
            _ => format!("tournament-{}-standings-page-{page}.png", t.id),
        };
        Ok(Reply::public(text).attach(file, png))
    }
}
