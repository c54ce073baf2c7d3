//! The clock and the notices: the time source, the clock worker (reminders, expiries,
//! forfeits), the outbox and its delivery, who is told of a turn, channels the bot cannot
//! reach, and closing the threads it opened.

pub(super) mod clock;
pub(super) mod delivery;
pub(super) mod notify;
pub(super) mod threads;
pub(super) mod timekeeping;
pub(super) mod trouble;
pub(super) mod worded;
