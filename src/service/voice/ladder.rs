//! What the bot says of ratings and records: the leaderboards, a player's figures, the
//! computer's record, a player's recent matches. Pure: the ladder loads what it reads.

use chrono::{DateTime, Duration, Utc};

use super::{level_title, rating_words};
use crate::game::Points;
use crate::service::events::{ShownRating, PROVISIONAL_DEVIATION};
use crate::service::text::{count, duration_words, Text};
use crate::service::LadderScope;
use crate::service::{Actor, Names};
use crate::store::{Finish, HeadToHead, LevelRecord, MatchState, MatchSummary, Rating, Standing};

/// A rating as shown: `1662`, or `1500?` while provisional.
fn shown(r: &Rating) -> String {
    rating_words(ShownRating::of(r))
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

/// A ladder's name in a sentence: "this server", "all servers".
fn ladder_name(scope: LadderScope) -> &'static str {
    match scope {
        LadderScope::Server => "this server",
        LadderScope::Global => "all servers",
    }
}

/// A ladder's name heading a line of figures: "This server", "All servers".
fn ladder_heading(scope: LadderScope) -> &'static str {
    match scope {
        LadderScope::Server => "This server",
        LadderScope::Global => "All servers",
    }
}

/// A ladder with no rated match yet.
pub(in crate::service) fn no_rated_matches(scope: LadderScope) -> Text {
    let title = ladder_name(scope);
    Text::from(format!(
        "No rated matches on {title} yet. Finish a match to appear here."
    ))
}

/// A leaderboard page asked for past its end.
pub(in crate::service) fn no_such_ladder_page(scope: LadderScope, pages: i64, page: i64) -> String {
    format!(
        "The leaderboard of {} has {}; there is no page {page}.",
        ladder_name(scope),
        count(pages, "page", "pages")
    )
}

/// Page `page` of `pages` of a ladder.
pub(in crate::service) fn leaderboard(
    scope: LadderScope,
    (page, pages): (i64, i64),
    standings: &[Standing],
) -> Text {
    let title = ladder_name(scope);
    let mut text = Text::new()
        .strong(format!("Leaderboard — {title}"))
        .plain(format!(" (page {page} of {pages})\n"));
    for s in standings {
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
    text
}

/// A player's vacation figures.
pub(in crate::service) struct VacationFigures {
    pub left: Duration,
    pub allowance: Duration,
    /// When they are away now, until when.
    pub until: Option<DateTime<Utc>>,
}

/// What `/thud stats` shows of a player, loaded before it is worded.
pub(in crate::service) struct PlayerFigures<'a> {
    pub name: &'a str,
    /// Their standing on each ladder they are on: which, their rating, their rank.
    pub standings: Vec<(LadderScope, Rating, i64)>,
    /// Matches in play on this server.
    pub playing: usize,
    /// `None` where the operator gives no vacation.
    pub vacation: Option<VacationFigures>,
    pub against_computer: Vec<LevelRecord>,
    /// The asker's record against them, when the asker is someone else.
    pub head_to_head: Option<HeadToHead>,
}

/// A player's ratings and record.
pub(in crate::service) fn player_figures(figures: &PlayerFigures) -> Text {
    let mut text = Text::new().strong(figures.name).line();
    for (scope, r, rank) in &figures.standings {
        text.push_str(&format!(
            "{}: rating {} (±{:.0}), rank {rank} · {} · {}W {}D {}L · points {} won, {} conceded (net {})\n",
            ladder_heading(*scope),
            shown(r),
            r.deviation,
            count(r.games as i64, "match", "matches"),
            r.wins,
            r.draws,
            r.losses,
            r.points_for,
            r.points_against,
            net(r)
        ));
    }
    if figures.playing > 0 {
        text.push_str(&format!(
            "Playing now: {} on this server.\n",
            count(figures.playing as i64, "match", "matches")
        ));
    }
    if figures.standings.is_empty() {
        text.push_str("No rated matches yet.\n");
    }
    if let Some(v) = &figures.vacation {
        text.push_str(&format!(
            "Vacation: {} left of {} a year",
            duration_words(v.left),
            duration_words(v.allowance),
        ));
        if let Some(until) = v.until {
            text = text.plain("; on vacation until ").time(until);
        }
        text.push_str("\n");
    }
    for r in &figures.against_computer {
        text.push_str(&format!(
            "Against the computer at level {}: {} · {}W {}D {}L\n",
            r.level,
            count(r.matches, "match", "matches"),
            r.wins,
            r.draws,
            r.losses
        ));
    }
    if let Some(h) = &figures.head_to_head {
        if h.matches == 0 {
            text.push_str(&format!(
                "You have not finished a match against {} yet.",
                figures.name
            ));
        } else {
            text.push_str(&format!(
                "You against {}, every finished match, rated or not: {} · {}W {}D {}L · points {} won, {} conceded",
                figures.name,
                count(h.matches, "match", "matches"),
                h.wins,
                h.draws,
                h.losses,
                Points::from_halves(h.points_for as u32),
                Points::from_halves(h.points_against as u32),
            ));
        }
    }
    text.trim_end()
}

/// The computer's record, level by level: it plays unrated, so it has no rating.
pub(in crate::service) fn computer_figures(name: &str, record: &[LevelRecord]) -> Text {
    let mut text = Text::new().strong(name).line();
    if record.is_empty() {
        text.push_str(&format!(
            "{} is a bot: it has no rating and has finished no match here.",
            name
        ));
        return text;
    }
    text.push_str(
        "The computer opponent; its matches are never rated. Its record against players:\n",
    );
    for r in record {
        text.push_str(&format!(
            "Level {} ({}): {} · {}W {}D {}L\n",
            r.level,
            level_title(r.level),
            count(r.matches, "match", "matches"),
            r.wins,
            r.draws,
            r.losses
        ));
    }
    text.trim_end()
}

/// A player's recent matches (`matches`, the latest first).
pub(in crate::service) fn history(player: &Actor, matches: &[MatchSummary], names: &Names) -> Text {
    if matches.is_empty() {
        return Text::from(format!(
            "{} has no finished matches on this server yet.",
            player.name
        ));
    }
    let mut text = Text::new()
        .strong(format!("Recent matches of {}", player.name))
        .line();
    for m in matches {
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
        // An unrated match moved no rating: said, so it is not read as one that did.
        let rated = match (m.state, m.rated) {
            (MatchState::Aborted, _) | (_, true) => "",
            (_, false) => " · unrated",
        };
        let date = m.finished_at.unwrap_or(m.created_at).format("%Y-%m-%d");
        text = text
            .code(format!("#{}", m.id))
            .plain(" vs ")
            .strong(names.of(opponent))
            .plain(format!(
                " · {} · {verdict}{score}{how}{rated} · {date} · played in ",
                m.variant.title()
            ))
            .channel(m.channel)
            .line();
    }
    text.trim_end()
}
