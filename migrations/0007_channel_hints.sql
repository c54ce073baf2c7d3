-- Hints the bot gives a channel once (which permission to grant it there), so a restart or a
-- second process does not repeat them.
CREATE TABLE channel_hints (
    channel_id  BIGINT NOT NULL,
    hint        TEXT NOT NULL,
    given_at    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (channel_id, hint)
);

-- What the bot remembers of itself between runs: where its commands were last registered, so
-- registering them elsewhere can remove the old ones.
CREATE TABLE bot_state (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);
