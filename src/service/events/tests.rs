//! Every kind of event reads back as the outbox stores it.

use super::*;
use crate::game::{BattleEnd, Points};
use crate::store::{ChannelId, TournamentId};
use crate::tournament::{Format, FormatError};

/// Every kind of event, each with every field set.
fn every_event() -> Vec<Event> {
    let at = DateTime::from_timestamp(1_800_000_000, 0).unwrap_or_default();
    let (a, b) = (UserId(1), UserId(u64::MAX));
    let score = Score {
        dwarfs: 20,
        trolls: 12,
    };
    let battle = BattleResult {
        end: BattleEnd::NoLegalMove { side: Side::Trolls },
        score,
        winner: Some(Side::Dwarfs),
        margin: Points::from_halves(16),
    };
    let result = MatchResult {
        battles: vec![[Points::from_halves(16), Points::ZERO]],
        totals: [Points::from_halves(16), Points::ZERO],
        winner: Some(crate::game::Seat::First),
        margin: Points::from_halves(16),
        forfeited_by: Some(crate::game::Seat::Second),
    };
    let m = MatchId(3);
    vec![
        Event::MatchBegan {
            match_id: m,
            variant: Variant::KoomValley,
            dwarfs: a,
            trolls: b,
            rated: false,
            occasion: Occasion::Computer {
                player: a,
                computer: b,
                level: 5,
                days_per_move: 3,
            },
        },
        Event::Moved {
            match_id: m,
            battle: 2,
            ply: 41,
            mover: a,
            level: Some(3),
            side: Side::Trolls,
            notation: "TG7-F6xE5xF5".into(),
            captured: "E5, F5".into(),
            score: Some(score),
        },
        Event::ProposalLapsed {
            proposer: a,
            mover: b,
        },
        Event::EndProposed {
            match_id: m,
            battle: 1,
            proposal: 7,
            by: a,
            to: b,
            score: None,
            by_computer: true,
            to_computer: false,
        },
        Event::EndDeclined {
            by: b,
            battle: 1,
            reason: Some("I can still take a troll".into()),
        },
        Event::NoAnswerYet { player: b },
        Event::EndAgreed {
            battle: 2,
            by: a,
            with: b,
            score: Some(score),
            crossed: true,
        },
        Event::BattleOver {
            battle: 1,
            variant: Variant::Classic,
            winner: Some(a),
            result: battle,
        },
        Event::BattleBegan {
            battle: 2,
            dwarfs: b,
            trolls: a,
        },
        Event::MatchOver {
            match_id: m,
            players: [a, b],
            result,
        },
        Event::Resigned { player: b },
        Event::Claimed {
            by: a,
            late: b,
            deadline: at,
        },
        Event::DeadlineMissed {
            player: b,
            deadline: at,
            round_over: true,
        },
        Event::LeftTournament {
            player: b,
            departure: Departure::Banned,
        },
        Event::Aborted { match_id: m, by: a },
        Event::NeverPlayed {
            match_id: m,
            late: b,
            deadline: None,
        },
        Event::NotRated { late: b },
        Event::Away {
            player: a,
            until: at,
        },
        Event::Back { player: a },
        Event::ThreadClosedAgain {
            match_id: m,
            thread: ChannelId(9),
            players: [a, b],
        },
        Event::Resumed {
            match_id: m,
            by: a,
            channel: ChannelId(9),
            to_move: Some((b, at)),
        },
        Event::PlayedElsewhere {
            match_id: m,
            channel: ChannelId(9),
            accepted_by: Some(b),
            occasion: Occasion::Tournament {
                name: "Cup".into(),
                round: 2,
            },
        },
        Event::Tournament(TournamentEvent::Created {
            id: TournamentId(2),
            name: "Cup".into(),
            format: Format::Swiss { rounds: Some(4) },
            variant: Variant::Original,
            days_per_move: 3,
            round_days: 30,
            starts_at: Some(at),
            entrants: Some(Entrants::SoFar(5)),
        }),
        Event::Tournament(TournamentEvent::Created {
            id: TournamentId(3),
            name: "League".into(),
            format: Format::RoundRobin,
            variant: Variant::Classic,
            days_per_move: 1,
            round_days: 10,
            starts_at: None,
            entrants: None,
        }),
        Event::Tournament(TournamentEvent::Joined {
            name: "Cup".into(),
            player: b,
            players: 3,
        }),
        Event::Tournament(TournamentEvent::LeftBeforeStart {
            name: "Cup".into(),
            player: b,
            players: 2,
        }),
        Event::Tournament(TournamentEvent::CalledOff {
            name: "Cup".into(),
            why: FormatError::Unknown("knockout".into()),
        }),
        Event::Tournament(TournamentEvent::RoundDeadlineMoved {
            name: "Cup".into(),
            round: 2,
            extension_seconds: 86_400,
            players: vec![a, b],
            to: at,
        }),
        Event::Tournament(TournamentEvent::RoundDeadlineReached {
            name: "Cup".into(),
            round: 2,
        }),
        Event::Tournament(TournamentEvent::RoundOver {
            id: TournamentId(2),
            name: "Cup".into(),
            round: 2,
        }),
        Event::Tournament(TournamentEvent::Left {
            name: "Cup".into(),
            player: a,
            departure: Departure::Banned,
        }),
        Event::Tournament(TournamentEvent::GameStopped {
            name: "Cup".into(),
            round: 2,
        }),
        Event::Tournament(TournamentEvent::GameCancelled { name: "Cup".into() }),
        Event::Tournament(TournamentEvent::Cancelled {
            name: "Cup".into(),
            by: a,
            stopped: 1,
        }),
        Event::Tournament(TournamentEvent::CalledOff {
            name: "Cup".into(),
            why: FormatError::RoundsForPlayers {
                players: 4,
                rounds: 9,
                most: 3,
            },
        }),
        Event::Tournament(TournamentEvent::RoundPaired {
            name: "Cup".into(),
            round: 1,
            deadline: at,
            games: vec![
                Paired::Match {
                    first: a,
                    second: b,
                    forfeited: false,
                    winner: None,
                },
                Paired::Match {
                    first: b,
                    second: a,
                    forfeited: true,
                    winner: Some(a),
                },
                Paired::Bye {
                    player: b,
                    scored: true,
                },
            ],
        }),
        Event::Tournament(TournamentEvent::Over {
            id: TournamentId(2),
            name: "Cup".into(),
            round: 3,
            early: Some(EarlyEnd::FewerThanTwoLeft),
            leaders: vec![a, b],
        }),
        Event::Tournament(TournamentEvent::Started {
            name: "Cup".into(),
            by: a,
            players: 6,
            rounds: 5,
            asked: Some(9),
            scheduled: true,
        }),
        Event::Tournament(TournamentEvent::ResultCorrected {
            name: "Cup".into(),
            match_id: m,
            first: a,
            second: b,
            winner: None,
            by: a,
        }),
        Event::Tournament(TournamentEvent::LateEntry {
            name: "Cup".into(),
            player: b,
            by: a,
            from: 2,
        }),
        Event::Tournament(TournamentEvent::Reinstated {
            name: "Cup".into(),
            player: b,
            by: a,
            from: 3,
        }),
        Event::Tournament(TournamentEvent::GameNotSeated {
            name: "Cup".into(),
            channel: ChannelId(9),
            players: vec![a, b],
            trouble: SeatTrouble::Permissions,
        }),
        Event::Tournament(TournamentEvent::Lost {
            name: "Cup".into(),
            why: "its channel was deleted".into(),
            stopped: 2,
        }),
        Event::Rated {
            changes: vec![RatingChange {
                player: a,
                before: ShownRating {
                    rating: 1500.0,
                    provisional: true,
                },
                after: ShownRating {
                    rating: 1516.25,
                    provisional: false,
                },
            }],
        },
        Event::TurnStarted {
            match_id: m,
            variant: Variant::Original,
            player: b,
            side: Side::Dwarfs,
            deadline: at,
        },
        Event::ComputerThinking {
            player: b,
            side: Side::Trolls,
        },
        Event::ReminderDue {
            match_id: m,
            guild: GuildId(5),
            player: a,
            turn_started_at: at,
            deadline: at,
            half_time: false,
        },
        Event::Challenged {
            challenge: ChallengeId(4),
            challenger: a,
            opponent: b,
            variant: Variant::Classic,
            side: SideChoice::Random,
            days_per_move: 14,
            rated: true,
            expires_at: at,
        },
        Event::ChallengeDeclined {
            challenger: a,
            opponent: b,
        },
        Event::ChallengeWithdrawn {
            challenger: a,
            opponent: b,
        },
        Event::ChallengeExpired {
            challenger: a,
            opponent: b,
        },
        Event::DmsClosed { player: b },
        Event::ThreadDone { match_id: m },
    ]
}

/// Every kind of event, as the outbox stores it, reads back as it was: a notice queued by
/// one process is sent by another, perhaps after an upgrade.
#[test]
fn every_event_reads_back_as_stored() {
    for event in every_event() {
        let stored = serde_json::to_value(&event).expect("stored");
        let back: Event = serde_json::from_value(stored.clone()).expect("read back");
        assert_eq!(back, event, "{stored}");
    }
}

/// Every event as the first version of events stored it (one line each, written by that
/// version from `every_event`) still reads, and is stored again exactly so: the outbox's
/// own shapes (`kept.rs`), not the rules engine's types, decide the format.
#[test]
fn every_event_stored_by_the_first_version_still_reads() {
    let lines: Vec<&str> = include_str!("stored-v1.jsonl").lines().collect();
    assert_eq!(lines.len(), every_event().len());
    for (line, expected) in lines.iter().zip(every_event()) {
        let stored: serde_json::Value = serde_json::from_str(line).expect("json");
        let event: Event = serde_json::from_value(stored.clone()).expect("reads");
        assert_eq!(event, expected, "{line}");
        assert_eq!(serde_json::to_value(&event).expect("stored"), stored);
    }
}

/// A game not seated for the server's limit of active threads says so when read back; one
/// stored before the reason was kept (without `trouble`) reads as the permissions it meant.
#[test]
fn a_game_not_seated_keeps_its_reason_and_an_older_one_reads_as_permissions() {
    let limit = Event::Tournament(TournamentEvent::GameNotSeated {
        name: "Cup".into(),
        channel: ChannelId(9),
        players: vec![],
        trouble: SeatTrouble::ThreadLimit,
    });
    let stored = serde_json::to_value(&limit).expect("stored");
    assert_eq!(stored["trouble"], "thread-limit");
    assert_eq!(
        serde_json::from_value::<Event>(stored).expect("reads"),
        limit
    );
    let older = serde_json::json!({
        "event": "tournament",
        "tournament-event": "game-not-seated",
        "name": "Cup",
        "channel": 9,
        "players": [],
    });
    match serde_json::from_value::<Event>(older.clone()) {
        Ok(Event::Tournament(TournamentEvent::GameNotSeated { trouble, .. })) => {
            assert_eq!(trouble, SeatTrouble::Permissions)
        }
        other => panic!("{older} read as {other:?}"),
    }
}
