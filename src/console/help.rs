//! The console's `/thud help`: every line it reads, with its options.

use crate::game::Variant;

/// The console's `/thud help`.
pub fn help() -> String {
    let variants: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
    format!(
        "Lines look like `<player>: /thud <subcommand> [option:value ...]`; `<player>@2:` acts in channel 2.\n\
         challenge opponent:<name> [variant:{}] [side:dwarfs|trolls|random] [days:1|2|3|5|7|10|14] [rated:false]\n\
         challenge opponent:thudbot [level:1-5] ... plays the computer.\n\
         accept | decline | cancel [challenge:<id>]\n\
         move from:<sq> to:<sq> [capture:<sq>, <sq>] | hurl from:<sq> to:<sq> | shove from:<sq> to:<sq> capture:<sq>, ...\n\
         play notation:<move, e.g. dE6-H9xH9>\n\
         plan [line:<their move> <your answer> [<their next> <your next> ...]] [clear:true] queues answers while you wait; plan alone shows them\n\
         board [style:full|brief] | end [action:propose|agree|decline] | resign | claim\n\
         vacation start [days:<n>] | vacation end\n\
         games [scope:server|all] | ladder leaderboard [scope:server|global] [page:<n>] | ladder stats [player:<name>] | ladder history [player:<name>]\n\
         review analysis [match:<id>] looks back at a finished match with the engine: a graph and each player's mistakes.\n\
         review record [match:<id>] | review replay [match:<id>] [battle:1|2] | settings [style:full|brief] [theme:default|high-contrast] [notify:channel|dm|both] | rules [variant:<name>]\n\
         tournament join | leave | withdraw | standings [page:<n>] (a paired game is played in channel 10000 + its number)\n\
         Organisers' lines start `/thud-admin` (on Discord, Manage Server by default; everyone here):\n\
         /thud-admin abort ends this channel's stuck match, unrated.\n\
         /thud-admin tournament create name:<name> [format:swiss|round-robin] [rounds:<n>] [variant:<name>] [days:<n>] [round_length:<days a round per day a move>] [starts:<2026-12-01T18:00:00Z>]\n\
         /thud-admin tournament start | cancel\n\
         /thud-admin tournament correct match:<n> [winner:<name>] | add player:<name> | reinstate player:<name>\n\
         press button:<label> presses a button of the last message that showed it.",
        variants.join("|")
    )
}
