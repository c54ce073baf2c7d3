-- Tournaments: round robin or Swiss, each pairing a normal match. Players are numbered by
-- seed (their order of joining); a game is one pairing of a round, a match or a bye.
CREATE TABLE tournaments (
    id              BIGSERIAL PRIMARY KEY,
    guild_id        BIGINT NOT NULL,
    -- Where it is announced; its matches are played in threads of this channel.
    channel_id      BIGINT NOT NULL,
    name            TEXT NOT NULL,
    format          TEXT NOT NULL CHECK (format IN ('round-robin', 'swiss')),
    -- The Swiss rounds the organiser asked for (NULL: the default); set for good at the start.
    rounds_asked    INTEGER CHECK (rounds_asked BETWEEN 1 AND 20),
    rounds          INTEGER,
    variant         TEXT NOT NULL CHECK (variant IN ('classic', 'original', 'koom-valley')),
    days_per_move   INTEGER NOT NULL CHECK (days_per_move IN (1, 2, 3, 5, 7, 10, 14)),
    -- A round's deadline, counted from its pairing.
    round_days      INTEGER NOT NULL CHECK (round_days BETWEEN 1 AND 1000),
    organiser_id    BIGINT NOT NULL REFERENCES players (user_id),
    starts_at       TIMESTAMPTZ,
    state           TEXT NOT NULL DEFAULT 'open'
                    CHECK (state IN ('open', 'running', 'finished', 'cancelled')),
    -- The round in play (0 before the first is paired).
    current_round   INTEGER NOT NULL DEFAULT 0,
    round_deadline  TIMESTAMPTZ,
    created_at      TIMESTAMPTZ NOT NULL,
    finished_at     TIMESTAMPTZ,
    -- Why it finished before its last round, if it did.
    ended_early     TEXT
);
CREATE INDEX tournaments_in_play ON tournaments (state) WHERE state IN ('open', 'running');
CREATE INDEX tournaments_by_channel ON tournaments (channel_id, id DESC);

CREATE TABLE tournament_players (
    tournament_id  BIGINT NOT NULL REFERENCES tournaments (id),
    user_id        BIGINT NOT NULL REFERENCES players (user_id),
    -- 0 for the first to join; the ranking of players equal on points.
    seed           INTEGER NOT NULL,
    joined_at      TIMESTAMPTZ NOT NULL,
    withdrawn_at   TIMESTAMPTZ,
    PRIMARY KEY (tournament_id, user_id),
    UNIQUE (tournament_id, seed)
);

CREATE TABLE tournament_games (
    id             BIGSERIAL PRIMARY KEY,
    tournament_id  BIGINT NOT NULL REFERENCES tournaments (id),
    round          INTEGER NOT NULL CHECK (round >= 1),
    first_seed     INTEGER NOT NULL,
    -- NULL for a bye.
    second_seed    INTEGER,
    -- The match, once it has a channel (a thread) to be played in.
    match_id       BIGINT UNIQUE REFERENCES matches (id),
    -- NULL while undecided; a bye is decided when it is made.
    outcome        TEXT CHECK (outcome IN ('first', 'second', 'drawn', 'first-forfeit',
                                           'second-forfeit', 'bye')),
    -- Battle points in halves the winner won by.
    margin         INTEGER NOT NULL DEFAULT 0,
    -- Pairing a round twice is impossible: one game per player and round.
    UNIQUE (tournament_id, round, first_seed),
    UNIQUE (tournament_id, round, second_seed)
);
CREATE INDEX tournament_games_unseated ON tournament_games (id)
    WHERE match_id IS NULL AND outcome IS NULL;
