-- Vacations: while a player is away every clock of theirs stands still; their deadlines move on
-- by the time it stood. Each player has an allowance of days per rolling year.
CREATE TABLE vacations (
    id           BIGSERIAL PRIMARY KEY,
    player_id    BIGINT NOT NULL REFERENCES players (user_id),
    started_at   TIMESTAMPTZ NOT NULL,
    -- When it ends by itself; never later than the allowance left when it began.
    until        TIMESTAMPTZ NOT NULL,
    ended_at     TIMESTAMPTZ,
    CHECK (until > started_at)
);
CREATE UNIQUE INDEX vacations_one_open_per_player ON vacations (player_id) WHERE ended_at IS NULL;
CREATE INDEX vacations_open_by_end ON vacations (until) WHERE ended_at IS NULL;

-- A clock standing still because its player is on vacation (apart from a pause for trouble).
ALTER TABLE clocks ADD COLUMN vacation_since TIMESTAMPTZ;
