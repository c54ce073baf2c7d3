//! Wording with what it needs loaded first: the names of the players the events name, as
//! they are now, and a tournament's standings after a round that ended. The voice itself
//! reads nothing.

use crate::service::error::Result;
use crate::service::events::{Event, TournamentEvent};
use crate::service::outcome::Reply;
use crate::service::standings::standings_after;
use crate::service::voice::{people, reply_with, Reader};
use crate::service::Names;
use crate::store::Store;

/// `events` worded for `reader`: names read now; the end of a tournament's round followed
/// by the standings after it, and the message carrying their picture.
pub(in crate::service) async fn word(
    store: &Store,
    events: &[Event],
    reader: &Reader,
) -> Result<Reply> {
    let names = Names(store.names(&people(events)).await?);
    let mut standings = Vec::new();
    let mut picture = None;
    for event in events {
        let Event::Tournament(t) = event else {
            continue;
        };
        let Some(key) = t.standings() else {
            continue;
        };
        if standings.iter().any(|(k, _)| *k == key) {
            continue;
        }
        if let Some((text, png)) = standings_after(store, key.0, key.1).await? {
            standings.push((key, text));
            picture = Some(png);
        }
    }
    let more = |event: &Event| match event {
        Event::Tournament(t @ TournamentEvent::RoundOver { .. }) => {
            let key = t.standings()?;
            standings
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, text)| text.clone())
        }
        _ => None,
    };
    let mut reply = reply_with(events, &names, reader, &more);
    if let Some((file, png)) = picture {
        reply = reply.attach(file, png);
    }
    Ok(reply)
}
