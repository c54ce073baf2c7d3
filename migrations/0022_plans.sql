-- Conditional moves: a player waiting for the opponent's move queues lines of "if they play
-- X, I answer Y" (then "if they play Z, I answer W", …). A row is one line, made for the
-- position after `after_ply` moves of battle `battle_id`: it is played from only while the
-- battle stands there, and any other change (a move it does not name, an end proposal, the
-- battle's end) drops it.
CREATE TABLE plans (
    id          BIGSERIAL PRIMARY KEY,
    match_id    BIGINT NOT NULL REFERENCES matches (id),
    battle_id   BIGINT NOT NULL REFERENCES battles (id),
    player_id   BIGINT NOT NULL REFERENCES players (user_id),
    after_ply   INTEGER NOT NULL CHECK (after_ply >= 0),
    -- The opponent's move, the answer, the opponent's next move, the next answer, …
    moves       TEXT[] NOT NULL CHECK (cardinality(moves) >= 2 AND cardinality(moves) % 2 = 0),
    created_at  TIMESTAMPTZ NOT NULL
);
CREATE INDEX plans_by_match ON plans (match_id);
