-- A finished match's analysis: asked for once, judged by one process at a time (the lease in
-- busy_until, as with the computer's turns), each position's judgement kept as soon as it is
-- made, so a restart resumes where it stopped and nothing is ever judged twice.
CREATE TABLE analyses (
    match_id          BIGINT PRIMARY KEY REFERENCES matches (id),
    -- Positions to judge: every position of every battle that has moves.
    positions         INTEGER NOT NULL CHECK (positions > 0),
    -- The search budget each position is judged with.
    budget_nodes      BIGINT NOT NULL,
    requested_at      TIMESTAMPTZ NOT NULL,
    busy_until        TIMESTAMPTZ,
    finished_at       TIMESTAMPTZ,
    -- Where its progress is shown (a message the bot edits as it goes), how far that message
    -- has been told, and when the finished report replaced it.
    progress_channel  BIGINT,
    progress_message  BIGINT,
    shown_positions   INTEGER NOT NULL DEFAULT 0,
    reported_at       TIMESTAMPTZ
);
CREATE INDEX analyses_waiting ON analyses (requested_at) WHERE finished_at IS NULL;
CREATE INDEX analyses_to_show ON analyses (match_id)
    WHERE progress_message IS NOT NULL AND reported_at IS NULL;

-- The judgement of the position after `ply` moves of battle `battle`.
CREATE TABLE analysis_positions (
    match_id  BIGINT NOT NULL REFERENCES analyses (match_id),
    battle    SMALLINT NOT NULL CHECK (battle BETWEEN 1 AND 2),
    ply       INTEGER NOT NULL CHECK (ply >= 0),
    -- From the dwarfs' side, in hundredths of a dwarf.
    score     INTEGER NOT NULL,
    -- The move the search prefers, in notation; NULL when the position has no legal move.
    best      TEXT,
    depth     SMALLINT NOT NULL,
    PRIMARY KEY (match_id, battle, ply)
);
