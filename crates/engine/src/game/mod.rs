//! The rules of Thud: squares, positions, moves, notation, battles and matches.
//!
//! Pure values and functions: nothing here knows of Discord, SQL, pictures or the clock.

mod battle;
mod fen;
mod koom_valley;
mod legality;
#[path = "match.rs"]
mod r#match;
mod movegen;
mod moves;
mod notation;
mod perft;
mod piece;
mod position;
mod record;
mod score;
mod side;
mod square;
mod square_set;
mod unmove;
mod variant;

pub use battle::{Battle, BattleEnd, BattleRecord, BattleResult, RecordError};
pub use fen::FenError;
pub use koom_valley::TROLL_REACH;
pub use legality::IllegalMove;
pub use moves::{Around, Jumps, Move, MAX_JUMPS};
pub use notation::{MoveText, NotationError};
pub use perft::{divide, perft};
pub use piece::Piece;
pub use position::Position;
pub use r#match::{
    Match, MatchError, MatchRecord, MatchRecordError, MatchResult, Progress, Seat, BATTLES,
};
pub use record::{GameRecord, GameRecordError};
pub use score::{Points, Score};
pub use side::Side;
pub use square::{parse_square_list, Direction, Square, SquareError, ROW_LENGTHS, SQUARE_COUNT};
pub use square_set::SquareSet;
// For the evaluation's counts, which walk the padded board as move generation does.
pub(crate) use position::Cell;
pub(crate) use square::step_index;
pub use unmove::{last_move_into, LastMoveError};
pub use variant::{
    UnknownVariant, Variant, CLASSIC_START, KOOM_VALLEY_GOALS, KOOM_VALLEY_START,
    KOOM_VALLEY_TROLLS_AROUND_ROCK,
};
