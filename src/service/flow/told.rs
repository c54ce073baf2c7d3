//! What a match command tells the player who gave it, before it is worded. The match flow
//! decides, commits and draws; each public command then has the voice word the result
//! (`Told::worded`), so the flow holds no sentence.

use std::collections::HashMap;

use chrono::{DateTime, Utc};

use crate::service::events::Event;
use crate::service::outcome::Reply;
use crate::service::pictures::DrawnBoard;
use crate::service::voice::{self, Reader};
use crate::service::Names;
use crate::store::{MatchId, MatchSummary, StoredMatch, UserId, Vacation};

/// The answer to a match command, with all the voice needs to word it.
pub struct Told {
    pub(in crate::service) news: News,
    /// The names of everyone the news names, read in the command's transaction.
    pub(in crate::service) names: Names,
    /// The players the answer pings.
    pub(in crate::service) ping: Vec<UserId>,
    /// The boards the answer shows, drawn; the last is the one it is about.
    pub(in crate::service) boards: Vec<DrawnBoard>,
    /// The answer reports a change that was saved.
    pub(in crate::service) saved: bool,
    /// The answer is to a button, whose message's buttons are now spent.
    pub(in crate::service) spend_buttons: bool,
}

/// What the answer is about.
pub(in crate::service) enum News {
    /// What happened, as the match's channel reads it.
    Happened(Vec<Event>),
    /// The board of a match as it stands, and who of its players is away.
    Board {
        m: Box<StoredMatch>,
        away: HashMap<UserId, Vacation>,
    },
    /// No match to show in this channel; `never` when none was ever played in it.
    NoMatchYet { never: bool },
    /// A player's matches in play, on this server or `everywhere`.
    Games {
        games: Vec<MatchSummary>,
        player: UserId,
        away: HashMap<UserId, Vacation>,
        now: DateTime<Utc>,
        everywhere: bool,
    },
    /// A player asked to resign match `match_id`; `moved` when they have made a move in it.
    ResignPrompt { match_id: MatchId, moved: bool },
    /// The player went on vacation until `until`, stopping the clocks of `matches` matches,
    /// out of an `allowance` a year.
    Away {
        until: DateTime<Utc>,
        matches: usize,
        allowance: chrono::Duration,
    },
    /// The player came back early, with `left` of vacation left in the last year.
    Back { left: chrono::Duration },
    /// The lines of the player's plan against `opponent`, shown to them alone.
    Plan {
        lines: Vec<Vec<String>>,
        opponent: UserId,
    },
    /// The player dropped their plan of `lines` lines.
    PlanDropped { lines: usize },
}

impl Told {
    pub(in crate::service) fn new(news: News, names: Names) -> Told {
        Told {
            news,
            names,
            ping: Vec::new(),
            boards: Vec::new(),
            saved: false,
            spend_buttons: false,
        }
    }

    /// What happened, saved.
    pub(in crate::service) fn happened(events: Vec<Event>, names: Names) -> Told {
        Told::new(News::Happened(events), names).saved()
    }

    pub(in crate::service) fn saved(mut self) -> Told {
        self.saved = true;
        self
    }

    pub(in crate::service) fn pinging(mut self, player: Option<UserId>) -> Told {
        if let Some(p) = player.filter(|p| !self.ping.contains(p)) {
            self.ping.push(p);
        }
        self
    }

    /// Marks the buttons of the message pressed as spent when the command came from one.
    pub(in crate::service) fn spending(mut self, from_button: bool) -> Told {
        self.spend_buttons = from_button;
        self
    }

    pub(in crate::service) fn showing(mut self, boards: Vec<DrawnBoard>) -> Told {
        self.boards.extend(boards);
        self
    }
}

impl Told {
    /// The answer to a match command in words, pinging whom it pings, its boards laid on it.
    pub(in crate::service) fn worded(self) -> Reply {
        let names = &self.names;
        let mut reply = match &self.news {
            News::Happened(events) => voice::reply(events, names, &Reader::Channel),
            News::Board { m, away } => Reply::public(voice::board_caption(m, names, away)),
            News::NoMatchYet { never } => Reply::private(voice::no_match_yet(*never)),
            News::Games {
                games, everywhere, ..
            } if games.is_empty() => Reply::private(voice::no_games(*everywhere)),
            News::Games {
                games,
                player,
                away,
                now,
                everywhere,
            } => voice::games_list(games, *player, (names, away), *now, *everywhere),
            News::ResignPrompt { match_id, moved } => voice::resign_prompt(*match_id, *moved),
            News::Away {
                until,
                matches,
                allowance,
            } => Reply::private(voice::on_vacation(*until, *matches, *allowance)),
            News::Back { left } => Reply::private(voice::back_from_vacation(*left)),
            News::Plan { lines, opponent } => {
                Reply::private(voice::plan(lines, &names.of(*opponent)))
            }
            News::PlanDropped { lines } => Reply::private(voice::plan_dropped(*lines)),
        };
        for player in self.ping {
            reply = reply.mention(player);
        }
        for board in self.boards {
            reply = board.onto(reply);
        }
        reply.saved = self.saved;
        reply.spend_buttons = self.spend_buttons;
        reply
    }
}
