-- Threads the bot opened for a match. Only these are ever archived by the bot, and only once
-- nothing lives in them (no match in play, no analysis still being shown), so the bot never
-- closes a thread somebody else made. What the bot last did to a thread is kept here, not in a
-- process's memory, so that after a restart its own archive is still not taken for a
-- moderator's, and a moderator who closes a thread twice is still recognised.
CREATE TABLE match_threads (
    channel_id   BIGINT PRIMARY KEY,
    -- The match the thread was opened for; NULL for a thread the bot only watches (a match
    -- played in a thread somebody else made).
    opened_for   BIGINT REFERENCES matches (id),
    -- When the bot last reopened it after an archive it did not make itself.
    reopened_at  TIMESTAMPTZ,
    -- When the bot last archived it itself.
    archived_at  TIMESTAMPTZ
);

-- Threads opened before: a match played elsewhere than the channel of its challenge was given
-- a thread of its own, and so was every tournament game. (A match against the computer left
-- no trace of where it was asked for; its thread stays open, as a thread nobody made.)
INSERT INTO match_threads (channel_id, opened_for)
SELECT DISTINCT ON (m.channel_id) m.channel_id, m.id
  FROM matches m
  LEFT JOIN challenges c ON c.id = m.challenge_id
 WHERE (c.id IS NOT NULL AND c.channel_id <> m.channel_id)
    OR EXISTS (SELECT 1 FROM tournament_games g WHERE g.match_id = m.id)
 ORDER BY m.channel_id, m.id;
