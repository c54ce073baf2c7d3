-- The role a server names for its tournament organisers: its members may create, start and
-- cancel tournaments as members with Manage Server may. One per server.
CREATE TABLE tournament_organisers (
    guild_id    BIGINT PRIMARY KEY,
    role_id     BIGINT NOT NULL,
    -- The role's name as Discord last told it, so a refusal can say which role counts.
    role_name   TEXT NOT NULL,
    set_by      BIGINT NOT NULL,
    set_at      TIMESTAMPTZ NOT NULL
);

-- When the round in play was paired. Its deadline was then this plus `round_days`; the
-- vacations its players take since move the deadline on, so the first one is kept here.
ALTER TABLE tournaments ADD COLUMN round_paired_at TIMESTAMPTZ;
UPDATE tournaments SET round_paired_at = round_deadline - make_interval(days => round_days)
    WHERE round_deadline IS NOT NULL;
