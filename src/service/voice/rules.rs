//! The rules of each variant as a player reads them (`/thud rules`), with the notation they
//! type; checked against RULES.md by the tests.

use crate::game::Variant;
use crate::service::text::Text;

const NOTATION: &str = "**Squares** are a letter A–O and a number 1–15 (`H8`); several are separated by commas. \
Moves can be typed as notation with `/thud play`: `dF1-F5`, a hurl `dE6-H9xH9`, a troll move with captures `TG7-F6xE5xF5`.";

/// Koom Valley has no hurls or shoves; its own moves are the Rock's, sandwiches and tramples.
const KOOM_VALLEY_NOTATION: &str = "**Squares** are a letter A–O and a number 1–15 (`H8`); several are separated by commas. \
To move the **Rock**, name its square: `/thud move from:H8 to:H9`, or `/thud play notation:RH8-H9`. \
Other moves as notation with `/thud play`: a dwarf `dH9-H12`, a sandwich `dC12-C8xB7`, a troll `TF3-F5`, a trample `TF3-H5-J7xG4xI6` (the landing squares in order, then the dwarfs jumped). Sandwiches and tramples capture by themselves, so the captured squares may be left out.";

const MATCH: &str = "**A match** is two battles: whoever commands the dwarfs in battle 1 commands the trolls in battle 2. \
A battle ends when both players agree (`/thud end`) or when the player to move has no legal move.";

/// The rules of `variant` as a player reads them.
pub fn rules_text(variant: Variant) -> Text {
    let body = match variant {
        Variant::Classic => "**Classic Thud.** 32 dwarfs on the edge, 8 trolls around the Thudstone in the middle. Dwarfs move first; no passing; nothing lands on or passes over the Thudstone.\n\
**Dwarf**: moves like a chess queen over empty squares, or **hurls**: the front dwarf of a straight line of N dwarfs travels up to N squares along the line onto a troll and captures it (a lone dwarf hurls 1 square).\n\
**Troll**: steps one square, then may capture any of the dwarfs next to its new square (you name them), or **shoves**: the front troll of a line of N trolls travels up to N squares along the line and must capture at least one dwarf next to where it lands.\n\
**Score**: each dwarf left is 1 point, each troll 4. The higher score wins the battle by the difference; the match goes to the player with more points over both battles.",
        Variant::Original => "**Thud, original rules.** As classic, but a troll capture is stricter: after a one-square step a troll may capture **at most one** adjacent dwarf; a **shove** needs a line of at least **two** trolls, travels 1 to N squares, and captures **every** dwarf next to its landing square (at least one).\n\
Dwarfs move like queens or hurl along their line onto a troll, as in classic. Score: dwarf 1, troll 4; the higher score wins the battle by the difference.",
        Variant::KoomValley => "**Koom Valley Thud.** The Rock stands on H8; 16 dwarfs start at the top, 8 trolls at the bottom. Dwarfs move first.\n\
**Dwarf**: moves like a chess queen (no hurling), or moves the **Rock** one square onto an empty square, if a dwarf stands next to the Rock before and after. A dwarf that lands so that a troll is between it and another dwarf in a line **sandwiches** and captures that troll (several at once are possible).\n\
**Troll**: walks 1 to 3 squares in a straight line without capturing, or **tramples**: jumps over an adjacent dwarf onto the empty square beyond, removing it, and may jump again, changing direction, stopping after any jump (`TF3-H5-J7xG4xI6`).\n\
**Winning**: the dwarfs win a battle by bringing the Rock to F1–J1; the trolls win when three trolls stand next to the Rock after a troll move. A battle ended by agreement or with no legal move is drawn. A battle won is 1 point, a draw ½.",
    };
    let notation = match variant {
        Variant::KoomValley => KOOM_VALLEY_NOTATION,
        Variant::Classic | Variant::Original => NOTATION,
    };
    Text::prose(&format!("{body}\n{MATCH}\n{notation}"))
}
