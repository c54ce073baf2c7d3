-- The search's own score of each judged position, beside the margin it was turned into: the
-- screen of a suspected move compares the position the move led to at the search's scale,
-- and the margin cannot always be turned back exactly. Rows from before keep NULL and are
-- searched again when a screen needs them.
ALTER TABLE analysis_positions ADD COLUMN raw INTEGER;
