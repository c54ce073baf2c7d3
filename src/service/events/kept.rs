//! How the outbox keeps the rules engine's and the tournament module's values inside events:
//! in shapes of its own, so a change to those types fails to compile here instead of
//! silently changing (or breaking) what queued notices hold. The shapes are the ones the
//! first version of events stored (`stored-v1.jsonl` holds one of every kind), and they stay.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::game::{BattleEnd, BattleResult, MatchResult, Points, Score, Seat, Side, Variant};
use crate::tournament::{Format, FormatError};

/// A value of type `T` as the outbox keeps it.
pub(super) trait Kept<T>: Serialize + for<'de> Deserialize<'de> {
    fn keep(value: &T) -> Self;
    fn give(self) -> T;
}

/// serde's `with` for a field of type `T` kept as `K`.
macro_rules! kept_as {
    ($name:ident: $t:ty => $k:ty) => {
        pub(super) mod $name {
            use super::*;

            pub fn serialize<S: Serializer>(value: &$t, s: S) -> Result<S::Ok, S::Error> {
                <$k as Kept<$t>>::keep(value).serialize(s)
            }

            pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<$t, D::Error> {
                <$k>::deserialize(d).map(|k| <$k as Kept<$t>>::give(k))
            }
        }
    };
}

kept_as!(variant: Variant => KeptVariant);
kept_as!(side: Side => KeptSide);
kept_as!(score: Option<Score> => Option<KeptScore>);
kept_as!(battle_result: BattleResult => KeptBattleResult);
kept_as!(match_result: MatchResult => KeptMatchResult);
kept_as!(format: Format => KeptFormat);
kept_as!(format_error: FormatError => KeptFormatError);

impl<T, K: Kept<T>> Kept<Option<T>> for Option<K> {
    fn keep(value: &Option<T>) -> Self {
        value.as_ref().map(K::keep)
    }
    fn give(self) -> Option<T> {
        self.map(K::give)
    }
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(super) enum KeptVariant {
    Classic,
    Original,
    KoomValley,
}

impl Kept<Variant> for KeptVariant {
    fn keep(value: &Variant) -> Self {
        match value {
            Variant::Classic => KeptVariant::Classic,
            Variant::Original => KeptVariant::Original,
            Variant::KoomValley => KeptVariant::KoomValley,
        }
    }
    fn give(self) -> Variant {
        match self {
            KeptVariant::Classic => Variant::Classic,
            KeptVariant::Original => Variant::Original,
            KeptVariant::KoomValley => Variant::KoomValley,
        }
    }
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum KeptSide {
    Dwarfs,
    Trolls,
}

impl Kept<Side> for KeptSide {
    fn keep(value: &Side) -> Self {
        match value {
            Side::Dwarfs => KeptSide::Dwarfs,
            Side::Trolls => KeptSide::Trolls,
        }
    }
    fn give(self) -> Side {
        match self {
            KeptSide::Dwarfs => Side::Dwarfs,
            KeptSide::Trolls => Side::Trolls,
        }
    }
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum KeptSeat {
    First,
    Second,
}

impl Kept<Seat> for KeptSeat {
    fn keep(value: &Seat) -> Self {
        match value {
            Seat::First => KeptSeat::First,
            Seat::Second => KeptSeat::Second,
        }
    }
    fn give(self) -> Seat {
        match self {
            KeptSeat::First => Seat::First,
            KeptSeat::Second => Seat::Second,
        }
    }
}

#[derive(Serialize, Deserialize)]
pub(super) struct KeptScore {
    dwarfs: u32,
    trolls: u32,
}

impl Kept<Score> for KeptScore {
    fn keep(value: &Score) -> Self {
        KeptScore {
            dwarfs: value.dwarfs,
            trolls: value.trolls,
        }
    }
    fn give(self) -> Score {
        Score {
            dwarfs: self.dwarfs,
            trolls: self.trolls,
        }
    }
}

/// Points, counted in halves.
#[derive(Serialize, Deserialize)]
#[serde(transparent)]
pub(super) struct KeptPoints(u32);

impl Kept<Points> for KeptPoints {
    fn keep(value: &Points) -> Self {
        KeptPoints(value.halves())
    }
    fn give(self) -> Points {
        Points::from_halves(self.0)
    }
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "kebab-case")]
pub(super) enum KeptBattleEnd {
    Agreement,
    NoLegalMove { side: KeptSide },
    Objective { winner: KeptSide },
}

impl Kept<BattleEnd> for KeptBattleEnd {
    fn keep(value: &BattleEnd) -> Self {
        match value {
            BattleEnd::Agreement => KeptBattleEnd::Agreement,
            BattleEnd::NoLegalMove { side } => KeptBattleEnd::NoLegalMove {
                side: KeptSide::keep(side),
            },
            BattleEnd::Objective { winner } => KeptBattleEnd::Objective {
                winner: KeptSide::keep(winner),
            },
        }
    }
    fn give(self) -> BattleEnd {
        match self {
            KeptBattleEnd::Agreement => BattleEnd::Agreement,
            KeptBattleEnd::NoLegalMove { side } => BattleEnd::NoLegalMove { side: side.give() },
            KeptBattleEnd::Objective { winner } => BattleEnd::Objective {
                winner: winner.give(),
            },
        }
    }
}

#[derive(Serialize, Deserialize)]
pub(super) struct KeptBattleResult {
    end: KeptBattleEnd,
    score: KeptScore,
    winner: Option<KeptSide>,
    margin: KeptPoints,
}

impl Kept<BattleResult> for KeptBattleResult {
    fn keep(value: &BattleResult) -> Self {
        KeptBattleResult {
            end: KeptBattleEnd::keep(&value.end),
            score: KeptScore::keep(&value.score),
            winner: Kept::keep(&value.winner),
            margin: KeptPoints::keep(&value.margin),
        }
    }
    fn give(self) -> BattleResult {
        BattleResult {
            end: self.end.give(),
            score: self.score.give(),
            winner: self.winner.give(),
            margin: self.margin.give(),
        }
    }
}

#[derive(Serialize, Deserialize)]
pub(super) struct KeptMatchResult {
    battles: Vec<[KeptPoints; 2]>,
    totals: [KeptPoints; 2],
    winner: Option<KeptSeat>,
    margin: KeptPoints,
    forfeited_by: Option<KeptSeat>,
}

fn keep_pair(pair: &[Points; 2]) -> [KeptPoints; 2] {
    [KeptPoints::keep(&pair[0]), KeptPoints::keep(&pair[1])]
}

fn give_pair([a, b]: [KeptPoints; 2]) -> [Points; 2] {
    [a.give(), b.give()]
}

impl Kept<MatchResult> for KeptMatchResult {
    fn keep(value: &MatchResult) -> Self {
        KeptMatchResult {
            battles: value.battles.iter().map(keep_pair).collect(),
            totals: keep_pair(&value.totals),
            winner: Kept::keep(&value.winner),
            margin: KeptPoints::keep(&value.margin),
            forfeited_by: Kept::keep(&value.forfeited_by),
        }
    }
    fn give(self) -> MatchResult {
        MatchResult {
            battles: self.battles.into_iter().map(give_pair).collect(),
            totals: give_pair(self.totals),
            winner: self.winner.give(),
            margin: self.margin.give(),
            forfeited_by: self.forfeited_by.give(),
        }
    }
}

#[derive(Serialize, Deserialize)]
pub(super) enum KeptFormat {
    RoundRobin,
    Swiss { rounds: Option<u32> },
}

impl Kept<Format> for KeptFormat {
    fn keep(value: &Format) -> Self {
        match *value {
            Format::RoundRobin => KeptFormat::RoundRobin,
            Format::Swiss { rounds } => KeptFormat::Swiss { rounds },
        }
    }
    fn give(self) -> Format {
        match self {
            KeptFormat::RoundRobin => Format::RoundRobin,
            KeptFormat::Swiss { rounds } => Format::Swiss { rounds },
        }
    }
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(super) enum KeptFormatError {
    TooFewPlayers(usize),
    TooManyForRoundRobin(usize),
    TooManyForSwiss(usize),
    BadRounds(i64),
    RoundsForPlayers {
        players: usize,
        rounds: u32,
        most: u32,
    },
    RoundsForRoundRobin,
    Unknown(String),
}

impl Kept<FormatError> for KeptFormatError {
    fn keep(value: &FormatError) -> Self {
        match value.clone() {
            FormatError::TooFewPlayers(n) => KeptFormatError::TooFewPlayers(n),
            FormatError::TooManyForRoundRobin(n) => KeptFormatError::TooManyForRoundRobin(n),
            FormatError::TooManyForSwiss(n) => KeptFormatError::TooManyForSwiss(n),
            FormatError::BadRounds(n) => KeptFormatError::BadRounds(n),
            FormatError::RoundsForPlayers {
                players,
                rounds,
                most,
            } => KeptFormatError::RoundsForPlayers {
                players,
                rounds,
                most,
            },
            FormatError::RoundsForRoundRobin => KeptFormatError::RoundsForRoundRobin,
            FormatError::Unknown(text) => KeptFormatError::Unknown(text),
        }
    }
    fn give(self) -> FormatError {
        match self {
            KeptFormatError::TooFewPlayers(n) => FormatError::TooFewPlayers(n),
            KeptFormatError::TooManyForRoundRobin(n) => FormatError::TooManyForRoundRobin(n),
            KeptFormatError::TooManyForSwiss(n) => FormatError::TooManyForSwiss(n),
            KeptFormatError::BadRounds(n) => FormatError::BadRounds(n),
            KeptFormatError::RoundsForPlayers {
                players,
                rounds,
                most,
            } => FormatError::RoundsForPlayers {
                players,
                rounds,
                most,
            },
            KeptFormatError::RoundsForRoundRobin => FormatError::RoundsForRoundRobin,
            KeptFormatError::Unknown(text) => FormatError::Unknown(text),
        }
    }
}
