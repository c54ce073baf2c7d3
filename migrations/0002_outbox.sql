-- The outbox: every notice that must reach a channel is written in the same transaction as the
-- change it reports, and a delivery worker posts it. Several bot processes share it: a notice is
-- claimed for a short lease, and Discord's message nonce keeps a retried post from doubling.
CREATE TABLE notices (
    id            BIGSERIAL PRIMARY KEY,
    guild_id      BIGINT NOT NULL,
    channel_id    BIGINT NOT NULL,
    match_id      BIGINT REFERENCES matches (id),
    -- What to say, in the service's own form (text, mentions, the board to draw).
    body          JSONB NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL,
    -- Not to be tried before this time (a retry's backoff, or Discord's retry_after).
    due_at        TIMESTAMPTZ NOT NULL,
    -- A process is posting it until then; after that another may take it over.
    leased_until  TIMESTAMPTZ,
    attempts      INTEGER NOT NULL DEFAULT 0,
    state         TEXT NOT NULL DEFAULT 'pending'
                  CHECK (state IN ('pending', 'delivered', 'undeliverable', 'obsolete')),
    finished_at   TIMESTAMPTZ,
    -- The last failure, as Discord or the network said it.
    failure       TEXT
);
CREATE INDEX notices_pending ON notices (channel_id, id) WHERE state = 'pending';
CREATE INDEX notices_by_match ON notices (match_id, id);

-- A clock paused because its players could not be told (a notice was undeliverable): the match is
-- never decided on time while nobody could hear the clock.
ALTER TABLE clocks ADD COLUMN paused_at TIMESTAMPTZ;

-- Why the bot cannot reach a match's channel, shown to both players in /thud games.
ALTER TABLE matches ADD COLUMN trouble TEXT;
ALTER TABLE matches ADD COLUMN trouble_at TIMESTAMPTZ;
