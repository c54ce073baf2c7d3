//! The buttons the console last showed, kept in a file beside its pictures, so that a later
//! run can still press them, as a Discord message keeps its buttons for as long as it stands.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::service::Button;
use crate::store::{ChannelId, UserId};

/// Where the buttons are, by channel and by the one player who sees them (`None`: everyone).
type Key = (ChannelId, Option<UserId>);

/// The buttons shown, by where they were shown, kept in `buttons.json`.
pub(super) struct ShownButtons {
    path: PathBuf,
    shown: HashMap<Key, Vec<Button>>,
}

/// One place's buttons as written to the file.
#[derive(serde::Serialize, serde::Deserialize)]
struct Entry {
    channel: u64,
    owner: Option<u64>,
    buttons: Vec<Button>,
}

impl ShownButtons {
    /// The buttons kept in `dir`, or none when the file is missing or unreadable (a file of
    /// an older version must not stop the console).
    pub(super) fn load(dir: &Path) -> ShownButtons {
        let path = dir.join("buttons.json");
        let entries: Vec<Entry> = std::fs::read(&path)
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default();
        let shown = entries
            .into_iter()
            .map(|e| ((ChannelId(e.channel), e.owner.map(UserId)), e.buttons))
            .collect();
        ShownButtons { path, shown }
    }

    pub(super) fn get(&self, key: &Key) -> Option<&Vec<Button>> {
        self.shown.get(key)
    }

    pub(super) fn insert(&mut self, key: Key, buttons: Vec<Button>) {
        self.shown.insert(key, buttons);
        self.save();
    }

    pub(super) fn remove(&mut self, key: &Key) {
        if self.shown.remove(key).is_some() {
            self.save();
        }
    }

    /// Writes the file; a failure is logged, not fatal: the buttons still work in this run.
    fn save(&self) {
        let entries: Vec<Entry> = self
            .shown
            .iter()
            .map(|((channel, owner), buttons)| Entry {
                channel: channel.0,
                owner: owner.map(|o| o.0),
                buttons: buttons.clone(),
            })
            .collect();
        let written = serde_json::to_vec(&entries)
            .map_err(std::io::Error::other)
            .and_then(|json| {
                if let Some(dir) = self.path.parent() {
                    std::fs::create_dir_all(dir)?;
                }
                std::fs::write(&self.path, json)
            });
        if let Err(e) = written {
            tracing::warn!(path = %self.path.display(), error = %e, "could not keep the console's buttons");
        }
    }
}
