//! A player's settings, and `/thud rules`.

use super::People;
use crate::game::Variant;
use crate::render::Theme;
use crate::service::echo;
use crate::service::error::{refuse, Result};
use crate::service::outcome::Reply;
use crate::service::refusal::Refusal;
use crate::service::see;
use crate::service::voice;
use crate::service::Actor;
use crate::store::{BoardStyle, Notify, Player, UserId};

impl People {
    /// Changes `actor`'s board style, theme and how they hear of their turn; with none of
    /// them, shows the current ones.
    pub async fn settings(
        &self,
        actor: &Actor,
        style: Option<&str>,
        theme: Option<&str>,
        notify: Option<Notify>,
    ) -> Result<Reply> {
        let mut settings = self.store.settings(actor.id).await?;
        if let Some(s) = style {
            settings.board_style =
                match BoardStyle::from_name(s.trim().to_ascii_lowercase().as_str()) {
                    Some(b) => b,
                    None => return refuse(Refusal::NotABoardStyle { given: echo(s) }),
                };
        }
        if let Some(t) = theme {
            let parsed: Theme = match t.parse() {
                Ok(t) => t,
                Err(_) => return refuse(Refusal::NotATheme { given: echo(t) }),
            };
            settings.theme = parsed.to_string();
        }
        if let Some(n) = notify {
            settings.notify = n;
        }
        // Saved only once every option was read: a refusal changes nothing.
        let changed = style.is_some() || theme.is_some() || notify.is_some();
        if changed {
            see(&self.store, actor, self.clock.now()).await?;
            self.store.save_settings(actor.id, &settings).await?;
        }
        Ok(Reply::private(voice::settings_said(&settings, changed)))
    }

    /// The rules of a variant (classic by default), for `/thud rules`.
    pub fn rules(&self, variant: Option<Variant>) -> Result<Reply> {
        Ok(Reply::private(crate::service::voice::rules_text(
            variant.unwrap_or_default(),
        )))
    }

    /// The picture theme `player` chose (`None`: the default).
    pub async fn theme_of(&self, player: UserId) -> Result<Option<Theme>> {
        let settings = self.store.settings(player).await?;
        Ok(settings.theme.parse().ok())
    }

    /// The player the bot knows by `name` (any case), if any.
    pub async fn named(&self, name: &str) -> Result<Option<Player>> {
        Ok(self.store.player_named(name).await?)
    }

    /// The name `player` was last seen with.
    pub async fn name_of(&self, player: UserId) -> Result<String> {
        Ok(self.store.name_of(player).await?)
    }
}
