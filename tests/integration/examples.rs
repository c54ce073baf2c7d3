//! Every move shown to players as an example (in the command descriptions Discord shows, the
//! console's help, `/thud rules` and the README) is checked: it parses, and it is legal in a
//! stated position. An example written anywhere without an entry here fails the test, so a
//! new one gets its position when it is written.

use std::collections::BTreeSet;

use thudbot::game::{MoveText, Position, Side, Variant};
use thudbot::service::{Span, Text};

/// Where an example is legal: a variant and the pieces on the board (`d` dwarf, `T` troll,
/// `R` the Thudstone or Rock), the side to move first.
struct Stated {
    example: &'static str,
    variant: Variant,
    to_move: char,
    pieces: &'static [(&'static str, char)],
}

const START: &[(&str, char)] = &[];

/// The examples and where each is legal; `START` means the variant's start position.
const STATED: &[Stated] = &[
    Stated {
        example: "dF1-F5",
        variant: Variant::Classic,
        to_move: 'd',
        pieces: START,
    },
    Stated {
        example: "dG1-G4",
        variant: Variant::Classic,
        to_move: 'd',
        pieces: START,
    },
    Stated {
        example: "dA6-A9",
        variant: Variant::Classic,
        to_move: 'd',
        pieces: &[("A6", 'd'), ("H8", 'R'), ("G7", 'T')],
    },
    // The line C4-D5-E6 hurls its front dwarf three squares, over F7 and G8, onto H9.
    Stated {
        example: "dE6-H9xH9",
        variant: Variant::Classic,
        to_move: 'd',
        pieces: &[
            ("C4", 'd'),
            ("D5", 'd'),
            ("E6", 'd'),
            ("H8", 'R'),
            ("H9", 'T'),
        ],
    },
    Stated {
        example: "TG7-F6",
        variant: Variant::Classic,
        to_move: 't',
        pieces: &[("G7", 'T'), ("E5", 'd'), ("F5", 'd'), ("H8", 'R')],
    },
    // The README's plan goes on: the troll that came to F6 steps on, the dwarf follows.
    Stated {
        example: "TF6-F7",
        variant: Variant::Classic,
        to_move: 't',
        pieces: &[("F6", 'T'), ("F5", 'd'), ("H8", 'R')],
    },
    Stated {
        example: "dF5-F6",
        variant: Variant::Classic,
        to_move: 'd',
        pieces: &[("F7", 'T'), ("F5", 'd'), ("H8", 'R')],
    },
    Stated {
        example: "TG7-F6xE5",
        variant: Variant::Classic,
        to_move: 't',
        pieces: &[("G7", 'T'), ("E5", 'd'), ("F5", 'd'), ("H8", 'R')],
    },
    Stated {
        example: "TG7-F6xE5xF5",
        variant: Variant::Classic,
        to_move: 't',
        pieces: &[("G7", 'T'), ("E5", 'd'), ("F5", 'd'), ("H8", 'R')],
    },
    Stated {
        example: "TC10-B10xA9xA10xB11",
        variant: Variant::Classic,
        to_move: 't',
        pieces: &[
            ("C10", 'T'),
            ("A9", 'd'),
            ("A10", 'd'),
            ("B11", 'd'),
            ("H8", 'R'),
        ],
    },
    Stated {
        example: "RH8-H9",
        variant: Variant::KoomValley,
        to_move: 'd',
        pieces: &[("H8", 'R'), ("G8", 'd'), ("D3", 'T')],
    },
    Stated {
        example: "TF3-H5-J7xG4xI6",
        variant: Variant::KoomValley,
        to_move: 't',
        pieces: &[("F3", 'T'), ("G4", 'd'), ("I6", 'd'), ("H8", 'R')],
    },
    Stated {
        example: "dH9-H12",
        variant: Variant::KoomValley,
        to_move: 'd',
        pieces: START,
    },
    Stated {
        example: "TF3-F5",
        variant: Variant::KoomValley,
        to_move: 't',
        pieces: START,
    },
    // A troll on B7 between C8 and a dwarf on A6.
    Stated {
        example: "dC12-C8xB7",
        variant: Variant::KoomValley,
        to_move: 'd',
        pieces: &[("C12", 'd'), ("B7", 'T'), ("A6", 'd'), ("H8", 'R')],
    },
    // docs/computer-log.md's traced battle: the trolls on I6-I9 shove the front one four squares.
    Stated {
        example: "TI6-I2xI1xJ1",
        variant: Variant::Classic,
        to_move: 't',
        pieces: &[
            ("I6", 'T'),
            ("I7", 'T'),
            ("I8", 'T'),
            ("I9", 'T'),
            ("I1", 'd'),
            ("J1", 'd'),
            ("H8", 'R'),
        ],
    },
    // docs/computer-log.md's ply-9 position: a dwarf slides up the J file, or in from O7.
    Stated {
        example: "dJ1-J7",
        variant: Variant::Classic,
        to_move: 'd',
        pieces: &[("J1", 'd'), ("O7", 'd'), ("I6", 'T'), ("H8", 'R')],
    },
    Stated {
        example: "dO7-J7",
        variant: Variant::Classic,
        to_move: 'd',
        pieces: &[("J1", 'd'), ("O7", 'd'), ("I6", 'T'), ("H8", 'R')],
    },
    // ... and the troll on E8, with F9 behind it, shoves two squares onto C6.
    Stated {
        example: "TE8-C6xB5xB7xC7",
        variant: Variant::Classic,
        to_move: 't',
        pieces: &[
            ("E8", 'T'),
            ("F9", 'T'),
            ("B5", 'd'),
            ("B7", 'd'),
            ("C7", 'd'),
            ("H8", 'R'),
        ],
    },
    Stated {
        example: "dC12-C7",
        variant: Variant::Classic,
        to_move: 'd',
        pieces: &[("C12", 'd'), ("H8", 'R'), ("K8", 'T')],
    },
    Stated {
        example: "dB11-B7",
        variant: Variant::Classic,
        to_move: 'd',
        pieces: &[("B11", 'd'), ("H8", 'R'), ("K8", 'T')],
    },
    Stated {
        example: "dA10-E10",
        variant: Variant::Classic,
        to_move: 'd',
        pieces: &[("A10", 'd'), ("H8", 'R'), ("K8", 'T')],
    },
];

/// Row `row`'s playable columns, from the left (the board is an octagon).
fn columns(row: u8) -> std::ops::RangeInclusive<u8> {
    let width = match row.min(16 - row) {
        1 => 5,
        2 => 7,
        3 => 9,
        4 => 11,
        5 => 13,
        _ => 15,
    };
    let first = (15 - width) / 2;
    first..=first + width - 1
}

/// The position with `pieces` and `to_move` to move, written as RULES §5's position format.
fn position(stated: &Stated) -> Position {
    if stated.pieces.is_empty() {
        let side = if stated.to_move == 't' {
            Side::Trolls
        } else {
            Side::Dwarfs
        };
        return Position::start(stated.variant).with_side_to_move(side);
    }
    let mut rows = Vec::new();
    for row in (1..=15u8).rev() {
        let mut text = String::new();
        let mut empty = 0;
        for column in columns(row) {
            let name = format!("{}{row}", (b'A' + column) as char);
            match stated.pieces.iter().find(|(s, _)| *s == name) {
                Some((_, piece)) => {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push(*piece);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
        rows.push(text);
    }
    let fen = format!("{} {}", rows.join("/"), stated.to_move);
    Position::from_fen(&fen, stated.variant).unwrap_or_else(|e| {
        panic!(
            "{}: the stated position {fen} is refused: {e}",
            stated.example
        )
    })
}

/// Words in `text` shaped like a move: an optional piece letter, a square, `-` and more
/// squares, captures after `x`.
fn examples_in(text: &str) -> BTreeSet<String> {
    text.split(|c: char| c.is_whitespace() || ",;()`'\"<>*:[]|".contains(c))
        .map(|w| w.trim_end_matches(['.', ',']))
        .filter(|w| looks_like_a_move(w))
        .map(str::to_string)
        .collect()
}

/// A square followed by more squares joined by any move-like mark (`-`, `x`, and marks some
/// other notations use, such as `^`), so that a wrongly written example is found and fails
/// to parse rather than being passed over.
fn looks_like_a_move(word: &str) -> bool {
    let body = word.strip_prefix(['d', 'T', 'R']).unwrap_or(word);
    let mut chars = body.chars().peekable();
    let square = |chars: &mut std::iter::Peekable<std::str::Chars>| -> bool {
        let Some(c) = chars.next() else { return false };
        if !('A'..='O').contains(&c) {
            return false;
        }
        let mut digits = 0;
        while chars.peek().is_some_and(char::is_ascii_digit) {
            chars.next();
            digits += 1;
        }
        (1..=2).contains(&digits)
    };
    if !square(&mut chars) {
        return false;
    }
    let mut more = 0;
    while let Some(c) = chars.next() {
        if !matches!(c, '-' | 'x' | '^' | '*' | '/') || !square(&mut chars) {
            return false;
        }
        more += 1;
    }
    more > 0
}

/// Every text a player may read an example in, with where it comes from.
fn player_texts() -> Vec<(String, String)> {
    let mut texts = vec![
        (
            "README.md".to_string(),
            include_str!("../../README.md").to_string(),
        ),
        (
            "docs/engine.md".to_string(),
            include_str!("../../docs/engine.md").to_string(),
        ),
        (
            "docs/computer.md".to_string(),
            include_str!("../../docs/computer.md").to_string(),
        ),
        (
            "docs/pictures.md".to_string(),
            include_str!("../../docs/pictures.md").to_string(),
        ),
        ("the console's help".to_string(), thudbot::console::help()),
        (
            "the registered commands".to_string(),
            thudbot::discord::registered_commands().to_string(),
        ),
    ];
    for variant in Variant::ALL {
        texts.push((
            format!("/thud rules variant:{}", variant.name()),
            with_code_marked(&thudbot::service::rules_text(variant)),
        ));
    }
    texts
}

/// The words of `text`, its code spans (where examples are) between backticks.
fn with_code_marked(text: &Text) -> String {
    text.spans()
        .iter()
        .map(|s| match s {
            Span::Code(c) => format!("`{c}`"),
            Span::Plain(t) | Span::Strong(t) => t.clone(),
            _ => String::new(),
        })
        .collect()
}

#[test]
fn every_example_shown_to_players_parses_and_is_legal_where_stated() {
    let mut seen = BTreeSet::new();
    for (source, text) in player_texts() {
        for example in examples_in(&text) {
            assert!(
                example.parse::<MoveText>().is_ok(),
                "{source}: `{example}` does not parse"
            );
            let stated = STATED
                .iter()
                .find(|s| s.example == example)
                .unwrap_or_else(|| {
                    panic!(
                        "{source} shows `{example}`: state where it is legal in tests/examples.rs"
                    )
                });
            let position = position(stated);
            let legal: BTreeSet<String> = position
                .legal_moves()
                .iter()
                .map(ToString::to_string)
                .collect();
            assert!(
                legal.contains(&example),
                "{source}: `{example}` is not legal where stated ({}): legal are {legal:?}",
                position.fen()
            );
            seen.insert(example);
        }
    }
    // The sources really were read: the examples every player meets are among them.
    println!("examples checked: {seen:?}");
    for must in ["dF1-F5", "dE6-H9xH9", "TG7-F6xE5xF5"] {
        assert!(
            seen.contains(must),
            "{must} was not found in any text: {seen:?}"
        );
    }
}

#[test]
fn every_stated_example_is_legal_in_its_position() {
    for stated in STATED {
        let position = position(stated);
        assert!(
            position
                .legal_moves()
                .iter()
                .any(|m| m.to_string() == stated.example),
            "`{}` is not legal in {}",
            stated.example,
            position.fen()
        );
    }
}

#[test]
fn the_example_finder_tells_moves_from_other_words() {
    let found =
        examples_in("play `dF1-F5`, or TG7-F6xE5xF5; squares A–O, rows 1–15, H8 and F1–J1.");
    assert_eq!(
        found.into_iter().collect::<Vec<_>>(),
        ["TG7-F6xE5xF5", "dF1-F5"]
    );
    // Found, so that it fails to parse: the parser refuses this notation.
    assert!(looks_like_a_move("dD4^G7xG7"));
    assert!("dD4^G7xG7".parse::<MoveText>().is_err());
    assert!(!looks_like_a_move("H8"));
}
