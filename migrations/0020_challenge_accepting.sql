-- Accepting a challenge: the accepting process claims it (`accepting_until`) before it opens
-- the match's thread, so no row lock is held across the Discord call; a second accept sees the
-- claim and is refused, and a claim whose process died lapses. A claimed challenge does not
-- expire under it.
ALTER TABLE challenges ADD COLUMN accepting_until TIMESTAMPTZ;
