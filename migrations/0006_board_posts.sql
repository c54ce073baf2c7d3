-- Where each board a match showed in its channel was posted, so a direct message telling a
-- player of their turn can link to the move's own message.
CREATE TABLE board_posts (
    match_id    BIGINT NOT NULL REFERENCES matches (id),
    battle      SMALLINT NOT NULL,
    plies       INTEGER NOT NULL,
    channel_id  BIGINT NOT NULL,
    message_id  BIGINT NOT NULL,
    posted_at   TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (match_id, battle, plies)
);
