-- Matches against the computer. The computer is a player of its own (the bot's account), named
-- in the match with the level it plays at; such matches are never rated on the ladders.
ALTER TABLE matches ADD COLUMN computer_id BIGINT REFERENCES players (user_id);
ALTER TABLE matches ADD COLUMN computer_level SMALLINT CHECK (computer_level BETWEEN 1 AND 5);
ALTER TABLE matches ADD CONSTRAINT matches_computer_has_level
    CHECK ((computer_id IS NULL) = (computer_level IS NULL));
-- While one process thinks for the computer, the others leave the match alone until then.
ALTER TABLE matches ADD COLUMN computer_busy_until TIMESTAMPTZ;
CREATE INDEX matches_with_computer ON matches (id) WHERE computer_id IS NOT NULL AND state = 'active';

-- A friendly challenge is kept off the leaderboards.
ALTER TABLE challenges ADD COLUMN rated BOOLEAN NOT NULL DEFAULT TRUE;
