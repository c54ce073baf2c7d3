//! The clock and the notices: the time source, the clock worker (reminders, expiries,
//! forfeits), the outbox and its delivery, who is told of a turn, and channels the bot
//! cannot reach.

pub(super) mod clock;
pub(super) mod delivery;
pub(super) mod notify;
pub(super) mod timekeeping;
pub(super) mod trouble;
pub(super) mod worded;
