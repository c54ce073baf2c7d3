-- Showing an analysis (its progress message, then the report edited into it) is a delivery
-- like any other: a failure Discord may get over is tried again after a growing pause
-- (`show_due_at`, `show_attempts`), one it never will ends the showing with its reason
-- (`show_failure`), and rows waiting out a pause or given up never hold up the others.
ALTER TABLE analyses ADD COLUMN show_attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE analyses ADD COLUMN show_due_at TIMESTAMPTZ;
ALTER TABLE analyses ADD COLUMN show_failure TEXT;
