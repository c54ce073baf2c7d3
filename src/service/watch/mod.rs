//! What watches over the matches from outside them: the clock's round (`Timekeeper`:
//! reminders, expiries, forfeits on time, vacations over, tournament rounds) and the channels
//! the bot cannot reach (`Channels`). Both act through the concerns below them.

pub(super) mod timekeeping;
pub(super) mod trouble;
