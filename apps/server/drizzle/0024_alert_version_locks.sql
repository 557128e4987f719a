-- The delete triggers of the alert counts lock their count rows in key order, as the insert and
-- update triggers do, so that two transactions deleting alerts of several incidents or systems
-- cannot wait for each other in opposite orders.
CREATE OR REPLACE FUNCTION alerts_count_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM incident_alert_counts c
   WHERE c.incident_id IN (SELECT incident_id FROM old_rows) ORDER BY c.incident_id FOR UPDATE;
  UPDATE incident_alert_counts c SET n = c.n - d.n, version = c.version + 1
    FROM (SELECT incident_id, count(*) AS n FROM old_rows WHERE incident_id IS NOT NULL GROUP BY incident_id) d
   WHERE c.incident_id = d.incident_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION alerts_system_count_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM system_alert_counts c
   WHERE c.system_id IN (SELECT system_id FROM old_rows) ORDER BY c.system_id FOR UPDATE;
  UPDATE system_alert_counts c SET n = c.n - d.n, version = c.version + 1
    FROM (SELECT system_id, count(*) AS n FROM old_rows GROUP BY system_id) d
   WHERE c.system_id = d.system_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- An update of tag rows moves the versions of the alerts they leave as well as of those they reach.
CREATE FUNCTION alert_tags_versions_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO incident_alert_counts (incident_id, n, version)
  SELECT DISTINCT a.incident_id, 0, 1 FROM alerts a
   WHERE a.id IN (SELECT alert_id FROM changed UNION SELECT alert_id FROM before_change)
     AND a.incident_id IS NOT NULL ORDER BY 1
  ON CONFLICT (incident_id) DO UPDATE SET version = incident_alert_counts.version + 1;
  INSERT INTO system_alert_counts (system_id, n, version)
  SELECT DISTINCT a.system_id, 0, 1 FROM alerts a
   WHERE a.id IN (SELECT alert_id FROM changed UNION SELECT alert_id FROM before_change) ORDER BY 1
  ON CONFLICT (system_id) DO UPDATE SET version = system_alert_counts.version + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER alert_tags_versions_update ON alert_tags;
--> statement-breakpoint
CREATE TRIGGER alert_tags_versions_update AFTER UPDATE ON alert_tags
  REFERENCING OLD TABLE AS before_change NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION alert_tags_versions_moved();
--> statement-breakpoint
-- A new response team shows nowhere until an alert names it (an update of that alert): only
-- renames and removals move the epoch.
DROP TRIGGER response_teams_cache_epoch ON response_teams;
--> statement-breakpoint
CREATE TRIGGER response_teams_cache_epoch AFTER UPDATE OR DELETE OR TRUNCATE ON response_teams
  FOR EACH STATEMENT EXECUTE FUNCTION cache_epoch_bump();
