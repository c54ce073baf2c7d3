//! Looking at a match: the board for anyone in the channel, and a player's list of games.

use super::Matches;
use crate::service::error::Result;
use crate::service::flow::told::{News, Told};
use crate::service::names_of;
use crate::service::pictures::{board_to_show, finish_drawing, start_drawing};
use crate::service::Reply;
use crate::service::{Actor, Names, Place};
use crate::store::BoardStyle;

impl Matches {
    /// The board of the match in play here (or of the last one played here), with the score,
    /// whose turn it is and the deadline. Spectators may look too.
    pub async fn board(
        &self,
        place: Place,
        viewer: &Actor,
        style: Option<BoardStyle>,
    ) -> Result<Reply> {
        let m = match self.store.active_match_in(place.channel).await? {
            Some(m) => m,
            None => match self.store.latest_match_in(place.channel).await? {
                Some(id) => match self.store.load_match(id).await? {
                    Some(m) => m,
                    None => return Ok(nothing_yet(false).worded()),
                },
                None => return Ok(nothing_yet(true).worded()),
            },
        };
        let names = names_of(&self.store, &m).await?;
        let index = m.game.battles().len() - 1;
        let away = self.store.vacations_of(&m.players).await?;
        let mut settings = self.store.settings(viewer.id).await?;
        if let Some(style) = style {
            settings.board_style = style;
        }
        let drawing = start_drawing(&self.renderer, board_to_show(&m, &names, index, &settings));
        let board = finish_drawing(drawing).await?;
        let m = Box::new(m);
        Ok(Told::new(News::Board { m, away }, names)
            .showing(vec![board])
            .worded())
    }

    /// `actor`'s matches in play on this server, with opponent, whose turn and time left, and
    /// from every server the matches the bot cannot reach, with buttons to resume or stop them.
    pub async fn my_games(&self, place: Place, actor: &Actor, everywhere: bool) -> Result<Reply> {
        let guild = (!everywhere).then_some(place.guild);
        let mut games = self.store.active_matches_of(actor.id, guild).await?;
        for g in self.store.troubled_matches_of(actor.id).await? {
            if !games.iter().any(|h| h.id == g.id) {
                games.push(g);
            }
        }
        // The matches waiting for the player come first, the most urgent at the top.
        games.sort_by_key(|g| {
            let mine = g.clock.is_some_and(|c| c.player == actor.id);
            (!mine, g.clock.map(|c| c.deadline), g.id)
        });
        let ids: Vec<_> = games.iter().flat_map(|g| g.players).collect();
        let (names, away) = if games.is_empty() {
            Default::default()
        } else {
            (
                Names(self.store.names(&ids).await?),
                self.store.vacations_of(&ids).await?,
            )
        };
        let games = News::Games {
            games,
            player: actor.id,
            away,
            now: self.clock.now(),
            everywhere,
        };
        Ok(Told::new(games, names).worded())
    }
}

/// No match to show here; `never` when none was ever played here.
fn nothing_yet(never: bool) -> Told {
    Told::new(News::NoMatchYet { never }, Names::default())
}
