-- The message that announced a tournament (its Join button): edited as players join and leave,
-- so the channel shows the field's size without a line for each join.
ALTER TABLE tournaments ADD COLUMN announcement_id BIGINT;
