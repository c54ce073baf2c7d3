//! A match's record as text, and a battle's replay as an animated picture.

use super::Records;
use crate::render::Theme;
use crate::service::error::{refuse, Result, ServiceError};
use crate::service::names_of;
use crate::service::outcome::Reply;
use crate::service::refusal::Refusal;
use crate::service::voice::{self, caption};
use crate::service::Place;
use crate::store::{MatchId, Store, StoredMatch};

impl Records {
    /// The game record of a match, attached as a text file the engine can replay.
    pub async fn record(&self, place: Place, id: Option<MatchId>) -> Result<Reply> {
        let m = match_for_record(&self.store, place, id).await?;
        let names = names_of(&self.store, &m).await?;
        let record = voice::game_record(&m, &names);
        let text = record.to_text();
        let moves: usize = m.game.battles().iter().map(|b| b.moves().len()).sum();
        Ok(Reply::public(voice::record_caption(&m, &names, moves))
            .attach(format!("thud-match-{}.txt", m.id), text.into_bytes()))
    }

    /// A battle of a match (the current or last one by default) as an animated GIF of at
    /// most `upload_limit` bytes (Discord's default of 10 MiB when unknown): a battle too long
    /// for it is replayed from as far back as fits, and the message says so.
    pub async fn replay(
        &self,
        place: Place,
        id: Option<MatchId>,
        battle: Option<u8>,
        theme: Option<Theme>,
        upload_limit: Option<usize>,
    ) -> Result<Reply> {
        let m = match_for_record(&self.store, place, id).await?;
        let battles = m.game.battles();
        let number = battle.unwrap_or(battles.len() as u8);
        if !(1..=2).contains(&number) {
            return refuse(Refusal::NoSuchBattle(number));
        }
        let Some(b) = battles.get((number as usize).wrapping_sub(1)) else {
            return refuse(Refusal::NoBattleYet {
                match_id: m.id,
                battle: number,
            });
        };
        if b.moves().is_empty() {
            return refuse(Refusal::NothingToReplay {
                match_id: m.id,
                battle: number,
            });
        }
        let names = names_of(&self.store, &m).await?;
        let status = voice::replay_status(m.variant, number, b);
        // The caption is the last frame's (the frames before say who is to move there): a
        // battle over shows no one to move.
        let caption = caption(&m, &names, number, status, b.is_over());
        let limit = upload_limit.unwrap_or(DEFAULT_UPLOAD_LIMIT);
        let renderer = self.renderer.clone();
        let battle = b.clone();
        // A long replay takes a noticeable moment of CPU: draw it away from the async workers.
        let drawn = tokio::task::spawn_blocking(move || {
            renderer.replay_within(&battle, Some(&caption), theme.unwrap_or_default(), limit)
        })
        .await
        .map_err(|e| ServiceError::System(format!("drawing a replay failed: {e}")))?;
        let (gif, span) = match drawn {
            Ok(done) => done,
            Err(too_large) => {
                return refuse(Refusal::ReplayTooLarge {
                    smallest: too_large.smallest,
                    limit: too_large.limit,
                })
            }
        };
        let text = voice::replay_caption(m.id, number, &span, limit);
        Ok(Reply::public(text).attach(format!("thud-match-{}-battle-{number}.gif", m.id), gif))
    }
}

/// Discord's upload limit for a file when the interaction does not say (10 MiB).
const DEFAULT_UPLOAD_LIMIT: usize = 10 * 1024 * 1024;

/// The match `id` of this server, or the latest one played in this channel.
pub(in crate::service) async fn match_for_record(
    store: &Store,
    place: Place,
    id: Option<MatchId>,
) -> Result<StoredMatch> {
    let id = match id {
        Some(id) => id,
        None => match store.latest_match_in(place.channel).await? {
            Some(id) => id,
            None => return refuse(Refusal::NoMatchYet),
        },
    };
    match store.load_match(id).await? {
        Some(m) if m.guild == place.guild => Ok(m),
        _ => refuse(Refusal::NotOnThisServer(id)),
    }
}
