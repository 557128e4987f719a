ALTER TABLE "incident_alert_counts" ADD COLUMN "version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "system_alert_counts" ADD COLUMN "version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Cached alert pages (modules/alerts/alerts.cache.ts) are versioned by these two counters: the
-- alerts triggers of migrations 0012 and 0019 raise the version of every incident and system whose
-- alerts a statement inserts, updates or deletes, in the writer's transaction and under the count
-- row's lock, so versions of one row are committed in the order they are raised. Updates now
-- touch the count rows even when no count moves (the HAVING of 0012 and 0019 is gone).
CREATE OR REPLACE FUNCTION alerts_count_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO incident_alert_counts (incident_id, n, version)
  SELECT incident_id, count(*), 1 FROM new_rows WHERE incident_id IS NOT NULL GROUP BY incident_id ORDER BY incident_id
  ON CONFLICT (incident_id) DO UPDATE
    SET n = incident_alert_counts.n + EXCLUDED.n, version = incident_alert_counts.version + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION alerts_count_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE incident_alert_counts c SET n = c.n - d.n, version = c.version + 1
    FROM (SELECT incident_id, count(*) AS n FROM old_rows WHERE incident_id IS NOT NULL GROUP BY incident_id) d
   WHERE c.incident_id = d.incident_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION alerts_count_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO incident_alert_counts (incident_id, n, version)
  SELECT incident_id, sum(n), 1 FROM (
    SELECT incident_id, count(*) AS n FROM new_rows WHERE incident_id IS NOT NULL GROUP BY incident_id
    UNION ALL
    SELECT incident_id, -count(*) FROM old_rows WHERE incident_id IS NOT NULL GROUP BY incident_id
  ) d
  -- an incident being deleted (its alerts' incident_id set to null) keeps no count row
  WHERE EXISTS (SELECT 1 FROM incidents i WHERE i.id = d.incident_id)
  GROUP BY incident_id ORDER BY incident_id
  ON CONFLICT (incident_id) DO UPDATE
    SET n = incident_alert_counts.n + EXCLUDED.n, version = incident_alert_counts.version + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION alerts_system_count_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO system_alert_counts (system_id, n, version)
  SELECT system_id, count(*), 1 FROM new_rows GROUP BY system_id ORDER BY system_id
  ON CONFLICT (system_id) DO UPDATE
    SET n = system_alert_counts.n + EXCLUDED.n, version = system_alert_counts.version + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION alerts_system_count_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE system_alert_counts c SET n = c.n - d.n, version = c.version + 1
    FROM (SELECT system_id, count(*) AS n FROM old_rows GROUP BY system_id) d
   WHERE c.system_id = d.system_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION alerts_system_count_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO system_alert_counts (system_id, n, version)
  SELECT system_id, sum(n), 1 FROM (
    SELECT system_id, count(*) AS n FROM new_rows GROUP BY system_id
    UNION ALL
    SELECT system_id, -count(*) FROM old_rows GROUP BY system_id
  ) d
  -- a system being deleted (cascading to its alerts) keeps no count row
  WHERE EXISTS (SELECT 1 FROM systems s WHERE s.id = d.system_id)
  GROUP BY system_id ORDER BY system_id
  ON CONFLICT (system_id) DO UPDATE
    SET n = system_alert_counts.n + EXCLUDED.n, version = system_alert_counts.version + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- An alert's tags: their incidents' and systems' versions move (the transition table is `changed`
-- for both the insert and the delete trigger).
CREATE FUNCTION alert_tags_versions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO incident_alert_counts (incident_id, n, version)
  SELECT DISTINCT a.incident_id, 0, 1 FROM alerts a
   WHERE a.id IN (SELECT alert_id FROM changed) AND a.incident_id IS NOT NULL ORDER BY 1
  ON CONFLICT (incident_id) DO UPDATE SET version = incident_alert_counts.version + 1;
  INSERT INTO system_alert_counts (system_id, n, version)
  SELECT DISTINCT a.system_id, 0, 1 FROM alerts a WHERE a.id IN (SELECT alert_id FROM changed) ORDER BY 1
  ON CONFLICT (system_id) DO UPDATE SET version = system_alert_counts.version + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER alert_tags_versions_insert AFTER INSERT ON alert_tags REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION alert_tags_versions();
--> statement-breakpoint
CREATE TRIGGER alert_tags_versions_delete AFTER DELETE ON alert_tags REFERENCING OLD TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION alert_tags_versions();
--> statement-breakpoint
CREATE TRIGGER alert_tags_versions_update AFTER UPDATE ON alert_tags REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION alert_tags_versions();
--> statement-breakpoint
-- What alert rows and rule pages show besides their own tables moves the cache epoch (migration
-- 0022): a tag's name or colour (setTags upserts the tag of every name it is given, so only a
-- real change counts), response team names, the rules, and the alert tables emptied at once.
CREATE TRIGGER tags_cache_epoch_update AFTER UPDATE ON tags FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.color IS DISTINCT FROM NEW.color)
  EXECUTE FUNCTION cache_epoch_bump();
--> statement-breakpoint
CREATE TRIGGER tags_cache_epoch AFTER DELETE OR TRUNCATE ON tags
  FOR EACH STATEMENT EXECUTE FUNCTION cache_epoch_bump();
--> statement-breakpoint
CREATE TRIGGER response_teams_cache_epoch AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON response_teams
  FOR EACH STATEMENT EXECUTE FUNCTION cache_epoch_bump();
--> statement-breakpoint
CREATE TRIGGER rules_cache_epoch AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON rules
  FOR EACH STATEMENT EXECUTE FUNCTION cache_epoch_bump();
--> statement-breakpoint
CREATE TRIGGER alerts_cache_epoch AFTER TRUNCATE ON alerts
  FOR EACH STATEMENT EXECUTE FUNCTION cache_epoch_bump();
--> statement-breakpoint
CREATE TRIGGER alert_tags_cache_epoch AFTER TRUNCATE ON alert_tags
  FOR EACH STATEMENT EXECUTE FUNCTION cache_epoch_bump();
