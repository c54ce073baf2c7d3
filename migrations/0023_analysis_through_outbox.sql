-- An analysis is shown through the outbox: its progress message posted, its count brought up
-- to date and its report shown are notices (`analysis-changed`) under the outbox's leases,
-- nonces and retries, so the retry columns of 0015 go; `show_failure` stays, the reason a
-- showing was given up.
DROP INDEX IF EXISTS analyses_to_show;
ALTER TABLE analyses DROP COLUMN show_attempts, DROP COLUMN show_due_at;

-- An analysis shown where it was asked for and not yet reported gets a showing, due since it
-- was asked for, so an upgrade leaves none waiting for a worker that is gone.
INSERT INTO notices (guild_id, channel_id, body, created_at, due_at)
SELECT m.guild_id, a.progress_channel,
       jsonb_build_object('events', jsonb_build_array(
           jsonb_build_object('event', 'analysis-changed', 'match_id', a.match_id))),
       now(), a.requested_at
  FROM analyses a JOIN matches m ON m.id = a.match_id
 WHERE a.progress_channel IS NOT NULL AND a.reported_at IS NULL AND a.show_failure IS NULL;
