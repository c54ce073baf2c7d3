-- A notice is for a channel or for one player's direct messages, each a type of its own: a
-- player's id no longer stands in for a channel id. A silent notice (a finished match's thread
-- to close) says nothing and holds no later notice of its reader back while it waits; the
-- outbox knows it by this column, not by reading the service's notice bodies.
ALTER TABLE notices ALTER COLUMN channel_id DROP NOT NULL;
ALTER TABLE notices ADD COLUMN dm_user_id BIGINT;
ALTER TABLE notices ADD COLUMN silent BOOLEAN NOT NULL DEFAULT false;
-- The board a direct message shows (its battle and plies), so that the message in the channel
-- showing it can release the DMs waiting for it without the store reading notice bodies.
ALTER TABLE notices ADD COLUMN board_battle SMALLINT;
ALTER TABLE notices ADD COLUMN board_plies INTEGER;

-- Notices queued before: a direct message named its player in its body, and was queued under
-- the player's id as its channel. Ids are stored bit for bit as in every other table.
UPDATE notices
   SET dm_user_id = CASE WHEN (body->>'dm')::numeric > 9223372036854775807
                         THEN (body->>'dm')::numeric - 18446744073709551616
                         ELSE (body->>'dm')::numeric END::bigint,
       channel_id = NULL
 WHERE body ? 'dm' AND jsonb_typeof(body->'dm') = 'number';
UPDATE notices SET silent = true WHERE body->>'kind' = 'match-over';
UPDATE notices
   SET board_battle = (body->'board'->>'battle')::SMALLINT,
       board_plies = (body->'board'->>'plies')::INTEGER
 WHERE jsonb_typeof(body->'board') = 'object';

ALTER TABLE notices ADD CONSTRAINT notices_one_reader
    CHECK ((channel_id IS NULL) <> (dm_user_id IS NULL));
CREATE INDEX notices_pending_dm ON notices (dm_user_id, id)
    WHERE state = 'pending' AND dm_user_id IS NOT NULL;
