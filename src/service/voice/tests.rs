//! The voice's wording, tested where the words are the point.

use super::*;
use crate::game::Side;
use crate::game::Variant;
use crate::service::events::ShownRating;
use crate::service::events::TournamentEvent;
use crate::service::refusal::Refusal;
use chrono::TimeZone;

fn names() -> Names {
    Names([(UserId(1), "alice".into()), (UserId(2), "bob".into())].into())
}

fn words(event: Event, reader: &Reader) -> String {
    say_with(&[event], &names(), reader, &|_| None).to_string()
}

#[test]
fn a_turn_is_said_to_the_channel_with_the_player_and_to_a_dm_with_a_link() {
    let deadline = Utc.with_ymd_and_hms(2026, 12, 1, 12, 0, 0).unwrap();
    let turn = Event::TurnStarted {
        match_id: MatchId(3),
        variant: Variant::Classic,
        player: UserId(2),
        side: Side::Trolls,
        deadline,
    };
    let in_channel = say_with(
        std::slice::from_ref(&turn),
        &names(),
        &Reader::Channel,
        &|_| None,
    );
    assert!(matches!(
        in_channel.spans().first(),
        Some(crate::service::text::Span::Player {
            user: UserId(2),
            ..
        })
    ));
    assert!(in_channel.contains(", your move (trolls). Deadline"));
    let dm = Reader::Dm {
        play_at: Some((MatchId(3), "https://discord.com/channels/1/2/3".into())),
    };
    let by_dm = words(turn, &dm);
    assert!(
        by_dm.starts_with("It is your move in match #3 (Classic Thud). Deadline"),
        "{by_dm}"
    );
    assert!(
        by_dm.ends_with("Play it in match #3's channel (https://discord.com/channels/1/2/3)."),
        "{by_dm}"
    );
}

#[test]
fn counts_are_said_in_the_singular_for_one() {
    let joined = |players| {
        Event::Tournament(TournamentEvent::Joined {
            name: "Cup".into(),
            player: UserId(1),
            players,
        })
    };
    assert_eq!(
        words(joined(1), &Reader::Channel),
        "alice joins Cup (1 player)."
    );
    assert_eq!(
        words(joined(2), &Reader::Channel),
        "alice joins Cup (2 players)."
    );
}

#[test]
fn a_thread_to_close_says_nothing_and_ratings_show_provisional_ones() {
    let done = Event::ThreadDone {
        match_id: MatchId(1),
    };
    assert_eq!(words(done, &Reader::Channel), "");
    let rated = Event::Rated {
        changes: vec![crate::service::events::RatingChange {
            player: UserId(1),
            before: ShownRating {
                rating: 1500.0,
                provisional: true,
            },
            after: ShownRating {
                rating: 1662.4,
                provisional: false,
            },
        }],
    };
    assert_eq!(
        words(rated, &Reader::Channel),
        "Ratings on this server: alice 1500? → 1662."
    );
}

#[test]
fn every_end_proposal_answered_later_carries_agree_and_keep_playing() {
    let proposed = |by_computer, to_computer| Event::EndProposed {
        match_id: MatchId(4),
        battle: 1,
        proposal: 9,
        by: UserId(1),
        to: UserId(2),
        score: None,
        by_computer,
        to_computer,
    };
    let answers = vec![
        Action::AgreeEnd {
            match_id: MatchId(4),
            proposal: 9,
        },
        Action::KeepPlaying {
            match_id: MatchId(4),
            proposal: 9,
        },
    ];
    let actions = |event| -> Vec<Action> {
        reply(&[event], &names(), &Reader::Channel)
            .buttons
            .iter()
            .map(|b| b.action)
            .collect()
    };
    // The computer's proposal, queued and sent later, and a person's to a person.
    assert_eq!(actions(proposed(true, false)), answers);
    assert_eq!(actions(proposed(false, false)), answers);
    // A person's to the computer is answered at once, in the same message.
    assert!(actions(proposed(false, true)).is_empty());
}

#[test]
fn a_side_with_no_pieces_left_is_said_to_be_captured_not_stuck() {
    let over = |side: Side, score: crate::game::Score| Event::BattleOver {
        battle: 1,
        variant: Variant::Classic,
        winner: Some(UserId(1)),
        result: crate::game::BattleResult {
            end: crate::game::BattleEnd::NoLegalMove { side },
            score,
            winner: Some(side.opposite()),
            margin: crate::game::Points::whole(12),
        },
    };
    let no_dwarfs = words(
        over(
            Side::Dwarfs,
            crate::game::Score {
                dwarfs: 0,
                trolls: 3,
            },
        ),
        &Reader::Channel,
    );
    assert!(
        no_dwarfs.contains("every dwarf has been captured"),
        "{no_dwarfs}"
    );
    assert!(!no_dwarfs.contains("no legal move"), "{no_dwarfs}");
    let no_trolls = words(
        over(
            Side::Trolls,
            crate::game::Score {
                dwarfs: 5,
                trolls: 0,
            },
        ),
        &Reader::Channel,
    );
    assert!(
        no_trolls.contains("every troll has been captured"),
        "{no_trolls}"
    );
    // A side that still has pieces but cannot move is said to have no legal move.
    let stuck = words(
        over(
            Side::Dwarfs,
            crate::game::Score {
                dwarfs: 2,
                trolls: 3,
            },
        ),
        &Reader::Channel,
    );
    assert!(stuck.contains("the dwarfs have no legal move"), "{stuck}");
}

#[test]
fn a_channel_no_game_can_be_seated_in_is_named_with_what_to_do() {
    use crate::service::refusal::{TournamentRefusal, Unseatable};
    let said = |why| Refusal::Tournament(TournamentRefusal::CannotSeatGames(why)).to_string();
    assert_eq!(
        said(Unseatable::NotText),
        "A tournament cannot run here: this is not a text channel; create the tournament in an ordinary text channel."
    );
    assert!(said(Unseatable::InAThread).contains("a thread or forum post"));
    assert!(said(Unseatable::Announcements).contains("an announcement channel"));
    let one = said(Unseatable::Missing(vec!["Send Messages".into()]));
    assert!(
        one.contains("lacks Send Messages in this channel") && one.contains("grant it "),
        "{one}"
    );
    let two = said(Unseatable::Missing(vec![
        "View Channel".into(),
        "Create Public Threads".into(),
    ]));
    assert!(
        two.contains("lacks View Channel, Create Public Threads") && two.contains("grant them "),
        "{two}"
    );
}

#[test]
fn an_option_value_that_cannot_be_read_is_echoed_as_code() {
    let given = Refusal::NotAnOptionValue {
        given: Some("x`y".into()),
    };
    assert_eq!(
        given.text().spans(),
        [
            crate::service::text::Span::Code("x`y".into()),
            crate::service::text::Span::Plain(" is not a value this option takes.".into()),
        ]
    );
    let unknown = Refusal::NotAnOptionValue { given: None };
    assert_eq!(unknown.to_string(), "One of the options could not be read.");
    assert_eq!(
        Refusal::RoleNamedAndCleared.to_string(),
        "Name a role, or clear the one named, not both."
    );
}

#[test]
fn the_computers_proposal_says_what_it_judged_and_no_more() {
    let proposal = |score| Event::EndProposed {
        match_id: MatchId(3),
        battle: 1,
        proposal: 7,
        by: UserId(1),
        to: UserId(2),
        score,
        by_computer: true,
        to_computer: false,
    };
    let classic = words(
        proposal(Some(crate::game::Score {
            dwarfs: 20,
            trolls: 24,
        })),
        &Reader::Channel,
    );
    assert!(!classic.contains("can gain any more"), "{classic}");
    assert!(
        classic.contains(
            "alice proposes ending battle 1 now: nothing has been captured in the last 30 moves, \
             no capture is open to either side in the next two, and looking 4 moves ahead it \
             finds no points either side can win."
        ),
        "{classic}"
    );
    let koom_valley = words(proposal(None), &Reader::Channel);
    assert!(
        koom_valley.contains("no capture or Rock move is open to either side in the next two moves, and looking 3 moves ahead"),
        "{koom_valley}"
    );
}

#[test]
fn a_challenge_to_a_variant_whose_title_has_parentheses_doubles_none() {
    let challenge = Event::Challenged {
        challenge: crate::store::ChallengeId(4),
        challenger: UserId(1),
        opponent: UserId(2),
        variant: Variant::Original,
        side: SideChoice::Dwarfs,
        days_per_move: 3,
        rated: true,
        expires_at: Utc.with_ymd_and_hms(2026, 12, 1, 12, 0, 0).unwrap(),
    };
    let said = words(challenge, &Reader::Channel);
    assert!(!said.contains(") ("), "{said}");
    assert!(
        said.contains(
            "challenges you to a match of Thud (original rules): two battles, roles swapped; \
             alice commands the dwarfs in battle 1;"
        ),
        "{said}"
    );
}
