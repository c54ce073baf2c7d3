-- Whether the players and organiser of a tournament game were told why its thread could not
-- be opened: said once, at the first failure that is not Discord's passing trouble (a 429, a
-- 5xx or a time-out is tried again without a word).
ALTER TABLE tournament_games ADD COLUMN seat_told BOOLEAN NOT NULL DEFAULT false;
