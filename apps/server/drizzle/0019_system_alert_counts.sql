CREATE TABLE "system_alert_counts" (
	"system_id" integer PRIMARY KEY NOT NULL,
	"n" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "system_alert_counts" ADD CONSTRAINT "system_alert_counts_system_id_systems_id_fk" FOREIGN KEY ("system_id") REFERENCES "public"."systems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Alerts per system, kept like incident_alert_counts (migration 0012) by statement-level triggers
-- with transition tables: one grouped upsert per statement.
CREATE FUNCTION alerts_system_count_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO system_alert_counts (system_id, n)
  SELECT system_id, count(*) FROM new_rows GROUP BY system_id ORDER BY system_id
  ON CONFLICT (system_id) DO UPDATE SET n = system_alert_counts.n + EXCLUDED.n;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION alerts_system_count_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE system_alert_counts c SET n = c.n - d.n
    FROM (SELECT system_id, count(*) AS n FROM old_rows GROUP BY system_id) d
   WHERE c.system_id = d.system_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION alerts_system_count_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO system_alert_counts (system_id, n)
  SELECT system_id, sum(n) FROM (
    SELECT system_id, count(*) AS n FROM new_rows GROUP BY system_id
    UNION ALL
    SELECT system_id, -count(*) FROM old_rows GROUP BY system_id
  ) d
  -- a system being deleted (cascading to its alerts) keeps no count row
  WHERE EXISTS (SELECT 1 FROM systems s WHERE s.id = d.system_id)
  GROUP BY system_id HAVING sum(n) <> 0 ORDER BY system_id
  ON CONFLICT (system_id) DO UPDATE SET n = system_alert_counts.n + EXCLUDED.n;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER alerts_system_count_insert AFTER INSERT ON alerts REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION alerts_system_count_insert();
--> statement-breakpoint
CREATE TRIGGER alerts_system_count_delete AFTER DELETE ON alerts REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION alerts_system_count_delete();
--> statement-breakpoint
CREATE TRIGGER alerts_system_count_update AFTER UPDATE ON alerts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION alerts_system_count_update();
--> statement-breakpoint
INSERT INTO system_alert_counts (system_id, n) SELECT system_id, count(*) FROM alerts GROUP BY system_id;
