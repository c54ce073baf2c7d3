-- The deeper look at suspected mistakes, made after every position is judged and only for
-- each player's costliest few in a battle: a suspected move keeps what it lost across it at the
-- first look (hundredths of a point) until the deeper look decides it and sets `checked`. Rows from
-- before had every suspicion checked as it was judged: NULL, as for a move not suspected.
ALTER TABLE analysis_positions
    ADD COLUMN suspected INTEGER,
    ADD COLUMN checked BOOLEAN NOT NULL DEFAULT false;
