//! The fixed choices of `/thud`'s options, as Discord shows them, turned into the service's
//! own values so that no command parses a name again.

use crate::game::Variant;
use crate::store::{Notify, SideChoice};

/// Which game to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, poise::ChoiceParameter)]
pub enum VariantOption {
    #[name = "classic"]
    Classic,
    #[name = "original"]
    Original,
    #[name = "koom-valley"]
    KoomValley,
}

impl From<VariantOption> for Variant {
    fn from(option: VariantOption) -> Variant {
        match option {
            VariantOption::Classic => Variant::Classic,
            VariantOption::Original => Variant::Original,
            VariantOption::KoomValley => Variant::KoomValley,
        }
    }
}

/// What the challenger commands in battle 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, poise::ChoiceParameter)]
pub enum SideOption {
    #[name = "dwarfs"]
    Dwarfs,
    #[name = "trolls"]
    Trolls,
    #[name = "random"]
    Random,
}

impl From<SideOption> for SideChoice {
    fn from(option: SideOption) -> SideChoice {
        match option {
            SideOption::Dwarfs => SideChoice::Dwarfs,
            SideOption::Trolls => SideChoice::Trolls,
            SideOption::Random => SideChoice::Random,
        }
    }
}

/// Which matches `/thud games` lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, poise::ChoiceParameter)]
pub enum GamesScope {
    #[name = "server"]
    Server,
    #[name = "all"]
    All,
}

/// How a player hears that it is their move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, poise::ChoiceParameter)]
pub enum NotifyOption {
    #[name = "channel"]
    Channel,
    #[name = "dm"]
    Dm,
    #[name = "both"]
    Both,
}

impl From<NotifyOption> for Notify {
    fn from(option: NotifyOption) -> Notify {
        match option {
            NotifyOption::Channel => Notify::Channel,
            NotifyOption::Dm => Notify::Dm,
            NotifyOption::Both => Notify::Both,
        }
    }
}
