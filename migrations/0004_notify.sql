-- How a player hears of their turn: in the match's channel (the default), by direct message,
-- or both; and when they were told, once, that their direct messages are closed to the bot.
ALTER TABLE player_settings ADD COLUMN notify TEXT NOT NULL DEFAULT 'channel'
    CHECK (notify IN ('channel', 'dm', 'both'));
ALTER TABLE player_settings ADD COLUMN dm_hint_sent_at TIMESTAMPTZ;
