//! The rules as RULES.md states them, a test a rule, by group; perft against the published
//! figures and the shared positions; two independent brute-force generators; property tests.
//! One binary, compiled optimised with the engine (the brute-force searches run hard).
//! `rules_support` writes positions as RULES.md writes them.

mod rules_support;
mod strategies;

mod classic_brute;
mod koom_valley_brute;
mod perft;
mod properties;
mod rules_battles_and_matches;
mod rules_board;
mod rules_dwarfs_and_trolls;
mod rules_koom_valley;
mod rules_notation;
