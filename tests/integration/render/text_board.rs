//! The brief text board.

use super::*;

#[test]
fn the_text_board_of_the_start_is_exact() {
    let expected = "   A B C D E F G H I J K L M N O
15           d d . d d           15
14         d . . . . . d         14
13       d . . . . . . . d       13
12     d . . . . . . . . . d     12
11   d . . . . . . . . . . . d   11
10 d . . . . . . . . . . . . . d 10
 9 d . . . . . T T T . . . . . d 9
 8 . . . . . . T R T . . . . . . 8
 7 d . . . . . T T T . . . . . d 7
 6 d . . . . . . . . . . . . . d 6
 5   d . . . . . . . . . . . d   5
 4     d . . . . . . . . . d     4
 3       d . . . . . . . d       3
 2         d . . . . . d         2
 1           d d . d d           1
   A B C D E F G H I J K L M N O
Dwarfs to move · dwarfs 32 · trolls 32
d dwarf · T troll · R Thudstone";
    assert_eq!(text_board(&Variant::Classic.start()), expected);
}

#[test]
fn the_text_board_fits_a_discord_message_and_marks_koom_valley_goals() {
    let block = text_board_block(&Variant::KoomValley.start());
    assert!(block.starts_with("```\n") && block.ends_with("\n```"));
    assert!(block.chars().count() < 1000, "{} chars", block.len());
    let bottom = block.lines().find(|l| l.starts_with(" 1 ")).unwrap();
    assert_eq!(bottom, " 1           * * * * *           1");
    assert!(block.contains("R Rock"));
    assert!(block.contains("16 dwarfs, 8 trolls left"));
}
