-- Seating a tournament game: a process claims the game (`seating_until`) before it opens the
-- game's thread, so no row lock is held across the Discord call; a game whose thread could
-- not be opened backs off (`seat_after`, doubling with `seat_attempts`) and goes behind the
-- games that can be seated, so one server's broken tournament never holds up another's.
ALTER TABLE tournament_games
    ADD COLUMN seat_attempts INTEGER NOT NULL DEFAULT 0 CHECK (seat_attempts >= 0),
    ADD COLUMN seat_after    TIMESTAMPTZ,
    ADD COLUMN seating_until TIMESTAMPTZ;
