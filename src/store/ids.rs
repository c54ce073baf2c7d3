//! Plain ids. Discord's snowflakes are `u64`; PostgreSQL's BIGINT holds them bit for bit.

use std::fmt;

use serde::{Deserialize, Serialize};
use sqlx::postgres::{PgTypeInfo, PgValueRef, Postgres};

macro_rules! id {
    ($(#[$doc:meta])* $name:ident($inner:ty)) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Serialize, Deserialize)]
        pub struct $name(pub $inner);

        impl $name {
            /// The id as PostgreSQL stores it.
            pub fn db(self) -> i64 {
                self.0 as i64
            }

            /// The id from its stored form.
            pub fn from_db(v: i64) -> $name {
                $name(v as $inner)
            }
        }

        // Read straight out of a BIGINT column, so rows can hold ids; the bits are kept as
        // `from_db` keeps them (a derive cannot: PostgreSQL has no unsigned type).
        impl sqlx::Type<Postgres> for $name {
            fn type_info() -> PgTypeInfo {
                <i64 as sqlx::Type<Postgres>>::type_info()
            }

            fn compatible(ty: &PgTypeInfo) -> bool {
                <i64 as sqlx::Type<Postgres>>::compatible(ty)
            }
        }

        impl<'r> sqlx::Decode<'r, Postgres> for $name {
            fn decode(value: PgValueRef<'r>) -> Result<$name, sqlx::error::BoxDynError> {
                <i64 as sqlx::Decode<'r, Postgres>>::decode(value).map($name::from_db)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}", self.0)
            }
        }
    };
}

id!(
    /// A Discord user (a player, a spectator or a moderator).
    UserId(u64)
);
id!(
    /// A Discord guild (server).
    GuildId(u64)
);
id!(
    /// A Discord channel or thread; each match is played in one.
    ChannelId(u64)
);
id!(
    /// A match, numbered by the store.
    MatchId(u64)
);
id!(
    /// A challenge, numbered by the store.
    ChallengeId(u64)
);

/// The scope of a ladder: one guild, or everyone.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Scope {
    Guild(GuildId),
    Global,
}

impl Scope {
    /// Scopes are stored as the guild id, 0 standing for the global ladder.
    pub fn db(self) -> i64 {
        match self {
            Scope::Guild(g) => g.db(),
            Scope::Global => 0,
        }
    }
}
