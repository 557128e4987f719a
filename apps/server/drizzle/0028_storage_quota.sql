-- The per-system storage quota (integrations/storage/storage-quota.ts) sums the sizes of a
-- system's files; the system is kept on each file row, filled by a trigger from the incident or
-- task (whatever the writer gives), so that one index serves the sum without joins.
ALTER TABLE "attachments" ADD COLUMN "system_id" integer;--> statement-breakpoint
ALTER TABLE "task_attachments" ADD COLUMN "system_id" integer;--> statement-breakpoint
UPDATE "attachments" a SET "system_id" = i."system_id" FROM "incidents" i WHERE i."id" = a."incident_id";--> statement-breakpoint
UPDATE "task_attachments" a SET "system_id" = t."system_id" FROM "tasks" t WHERE t."id" = a."task_id";--> statement-breakpoint
CREATE INDEX "attachments_system_size_idx" ON "attachments" USING btree ("system_id","size");--> statement-breakpoint
CREATE INDEX "task_attachments_system_size_idx" ON "task_attachments" USING btree ("system_id","size");--> statement-breakpoint
CREATE FUNCTION file_system_id() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- only the branch of the trigger's table reads its parent column
  IF TG_TABLE_NAME = 'attachments' THEN
    NEW.system_id := (SELECT system_id FROM incidents WHERE id = NEW.incident_id);
  ELSE
    NEW.system_id := (SELECT system_id FROM tasks WHERE id = NEW.task_id);
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER attachments_system BEFORE INSERT OR UPDATE OF incident_id, system_id ON attachments
  FOR EACH ROW EXECUTE FUNCTION file_system_id();
--> statement-breakpoint
CREATE TRIGGER task_attachments_system BEFORE INSERT OR UPDATE OF task_id, system_id ON task_attachments
  FOR EACH ROW EXECUTE FUNCTION file_system_id();
