//! What watches over the matches from outside them: the clock's round (`Timekeeper`:
//! reminders, expiries, forfeits on time, vacations over, tournament rounds), the channels
//! the bot cannot reach (`Channels`), and the delivery worker (`Courier`), whose refused
//! notices are such channels. All act through the concerns below them.

pub(super) mod courier;
pub(super) mod timekeeping;
pub(super) mod trouble;
