-- thudbot's schema. Discord snowflakes are stored as BIGINT; a battle's position is not stored
-- but replayed from its moves, so the move list is the only truth about a game.

CREATE TABLE players (
    user_id       BIGINT PRIMARY KEY,
    display_name  TEXT NOT NULL,
    is_bot        BOOLEAN NOT NULL DEFAULT FALSE,
    first_seen    TIMESTAMPTZ NOT NULL,
    last_seen     TIMESTAMPTZ NOT NULL
);

CREATE TABLE player_settings (
    user_id      BIGINT PRIMARY KEY REFERENCES players (user_id),
    board_style  TEXT NOT NULL DEFAULT 'full' CHECK (board_style IN ('full', 'brief')),
    theme        TEXT NOT NULL DEFAULT 'default' CHECK (theme IN ('default', 'high-contrast'))
);

CREATE TABLE challenges (
    id               BIGSERIAL PRIMARY KEY,
    guild_id         BIGINT NOT NULL,
    channel_id       BIGINT NOT NULL,
    challenger_id    BIGINT NOT NULL REFERENCES players (user_id),
    opponent_id      BIGINT NOT NULL REFERENCES players (user_id),
    variant          TEXT NOT NULL CHECK (variant IN ('classic', 'original', 'koom-valley')),
    challenger_side  TEXT NOT NULL CHECK (challenger_side IN ('dwarfs', 'trolls', 'random')),
    days_per_move    INTEGER NOT NULL CHECK (days_per_move IN (1, 2, 3, 5, 7, 10, 14)),
    created_at       TIMESTAMPTZ NOT NULL,
    expires_at       TIMESTAMPTZ NOT NULL,
    state            TEXT NOT NULL DEFAULT 'pending'
                     CHECK (state IN ('pending', 'accepted', 'declined', 'cancelled', 'expired')),
    answered_at      TIMESTAMPTZ,
    CHECK (challenger_id <> opponent_id)
);

-- Two players have at most one open challenge between them in a channel, whoever issued it.
CREATE UNIQUE INDEX challenges_one_pending_per_pair
    ON challenges (channel_id, LEAST(challenger_id, opponent_id), GREATEST(challenger_id, opponent_id))
    WHERE state = 'pending';
CREATE INDEX challenges_pending_by_expiry ON challenges (expires_at) WHERE state = 'pending';

CREATE TABLE matches (
    id                BIGSERIAL PRIMARY KEY,
    guild_id          BIGINT NOT NULL,
    channel_id        BIGINT NOT NULL,
    challenge_id      BIGINT REFERENCES challenges (id),
    -- The first player commands the dwarfs in battle 1 and the trolls in battle 2.
    first_player_id   BIGINT NOT NULL REFERENCES players (user_id),
    second_player_id  BIGINT NOT NULL REFERENCES players (user_id),
    variant           TEXT NOT NULL CHECK (variant IN ('classic', 'original', 'koom-valley')),
    days_per_move     INTEGER NOT NULL CHECK (days_per_move IN (1, 2, 3, 5, 7, 10, 14)),
    state             TEXT NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'finished', 'aborted')),
    -- How it finished: both battles played, a resignation, a lost claim on time, or an abort.
    finish            TEXT CHECK (finish IN ('completed', 'resigned', 'timeout', 'aborted')),
    winner_id         BIGINT REFERENCES players (user_id),
    -- Match points in halves (a drawn Koom Valley battle is worth one half each).
    first_points      INTEGER,
    second_points     INTEGER,
    rated             BOOLEAN NOT NULL DEFAULT TRUE,
    aborted_by        BIGINT,
    created_at        TIMESTAMPTZ NOT NULL,
    finished_at       TIMESTAMPTZ,
    CHECK (first_player_id <> second_player_id),
    CHECK ((state = 'active') = (finish IS NULL))
);

-- A channel (or thread) hosts at most one match in play.
CREATE UNIQUE INDEX matches_one_active_per_channel ON matches (channel_id) WHERE state = 'active';
CREATE INDEX matches_by_first_player ON matches (first_player_id, created_at DESC);
CREATE INDEX matches_by_second_player ON matches (second_player_id, created_at DESC);

CREATE TABLE battles (
    id                BIGSERIAL PRIMARY KEY,
    match_id          BIGINT NOT NULL REFERENCES matches (id),
    number            SMALLINT NOT NULL CHECK (number IN (1, 2)),
    dwarfs_player_id  BIGINT NOT NULL REFERENCES players (user_id),
    trolls_player_id  BIGINT NOT NULL REFERENCES players (user_id),
    start_position    TEXT NOT NULL,
    state             TEXT NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'finished', 'stopped')),
    ended_by          TEXT CHECK (ended_by IN ('agreement', 'no-legal-move', 'objective')),
    dwarfs_score      INTEGER,
    trolls_score      INTEGER,
    winner_side       TEXT CHECK (winner_side IN ('dwarfs', 'trolls')),
    -- What the winner scores towards the match, in halves.
    margin            INTEGER,
    started_at        TIMESTAMPTZ NOT NULL,
    finished_at       TIMESTAMPTZ,
    UNIQUE (match_id, number)
);

CREATE TABLE moves (
    battle_id   BIGINT NOT NULL REFERENCES battles (id),
    ply         INTEGER NOT NULL CHECK (ply >= 1),
    notation    TEXT NOT NULL,
    captured    TEXT[] NOT NULL DEFAULT '{}',
    player_id   BIGINT NOT NULL REFERENCES players (user_id),
    played_at   TIMESTAMPTZ NOT NULL,
    -- Two submissions of the same turn can never both land.
    PRIMARY KEY (battle_id, ply)
);

-- Moves are history: once written they are never changed or removed.
CREATE FUNCTION moves_are_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'moves are append-only';
END;
$$;
CREATE TRIGGER moves_append_only BEFORE UPDATE OR DELETE ON moves
    FOR EACH ROW EXECUTE FUNCTION moves_are_append_only();

CREATE TABLE end_proposals (
    id            BIGSERIAL PRIMARY KEY,
    battle_id     BIGINT NOT NULL REFERENCES battles (id),
    proposer_id   BIGINT NOT NULL REFERENCES players (user_id),
    -- Moves played in the battle when it was proposed.
    at_ply        INTEGER NOT NULL,
    proposed_at   TIMESTAMPTZ NOT NULL,
    answer        TEXT CHECK (answer IN ('agreed', 'declined', 'lapsed')),
    answered_at   TIMESTAMPTZ
);
CREATE UNIQUE INDEX end_proposals_one_open_per_battle ON end_proposals (battle_id) WHERE answer IS NULL;

-- The clock of a match in play: the deadline of the current turn.
CREATE TABLE clocks (
    match_id          BIGINT PRIMARY KEY REFERENCES matches (id),
    player_id         BIGINT NOT NULL REFERENCES players (user_id),
    turn_started_at   TIMESTAMPTZ NOT NULL,
    deadline          TIMESTAMPTZ NOT NULL,
    remind_at         TIMESTAMPTZ NOT NULL,
    reminder_sent_at  TIMESTAMPTZ
);
CREATE INDEX clocks_reminders_due ON clocks (remind_at) WHERE reminder_sent_at IS NULL;
CREATE INDEX clocks_by_deadline ON clocks (deadline);

-- Ratings per scope: a guild's id, or 0 for the global ladder.
CREATE TABLE ratings (
    scope           BIGINT NOT NULL,
    player_id       BIGINT NOT NULL REFERENCES players (user_id),
    rating          DOUBLE PRECISION NOT NULL,
    deviation       DOUBLE PRECISION NOT NULL,
    volatility      DOUBLE PRECISION NOT NULL,
    games           INTEGER NOT NULL DEFAULT 0,
    wins            INTEGER NOT NULL DEFAULT 0,
    draws           INTEGER NOT NULL DEFAULT 0,
    losses          INTEGER NOT NULL DEFAULT 0,
    -- Match points won and conceded, in halves.
    points_for      INTEGER NOT NULL DEFAULT 0,
    points_against  INTEGER NOT NULL DEFAULT 0,
    updated_at      TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (scope, player_id)
);
CREATE INDEX ratings_leaderboard ON ratings (scope, rating DESC);
