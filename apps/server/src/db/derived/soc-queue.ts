import type { DerivedSql } from './derived-sql.ts';
import { trigger } from './derived-sql.ts';

/**
 * What the SOC's triage queue reads on the incident row itself, so that one index range serves
 * it without reading comments or events: `customer_comment_at`, since when a customer's comment
 * waits for the SOC's answer (the first customer comment after the SOC's last one; cleared by
 * the SOC's next comment; an internal note is neither), and `reopened`, a finished incident sent
 * back to Waiting for support and not yet moved on from there.
 */
export const socQueueSql: DerivedSql = {
  name: 'soc queue',
  statements: [
    `CREATE OR REPLACE FUNCTION comments_soc_waiting() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE incidents i
     SET customer_comment_at = CASE
           WHEN b.first_customer IS NULL THEN NULL
           WHEN b.last_soc IS NULL THEN coalesce(i.customer_comment_at, b.first_customer)
           ELSE b.first_customer END
    FROM (WITH said AS (SELECT * FROM new_rows WHERE NOT internal)
          SELECT c.incident_id,
                 max(c.created) FILTER (WHERE c.from_soc) AS last_soc,
                 min(c.created) FILTER (WHERE NOT c.from_soc AND c.created >= coalesce(s.last_soc, '-infinity')) AS first_customer
            FROM said c
            JOIN (SELECT incident_id, max(created) FILTER (WHERE from_soc) AS last_soc
                    FROM said GROUP BY incident_id) s ON s.incident_id = c.incident_id
           GROUP BY c.incident_id) b
   WHERE i.id = b.incident_id
     AND i.customer_comment_at IS DISTINCT FROM CASE
           WHEN b.first_customer IS NULL THEN NULL
           WHEN b.last_soc IS NULL THEN coalesce(i.customer_comment_at, b.first_customer)
           ELSE b.first_customer END;
  RETURN NULL;
END $$`,
    ...trigger(
      { name: 'comments_soc_waiting', table: 'comments' },
      'AFTER INSERT',
      'REFERENCING NEW TABLE AS new_rows\n  FOR EACH STATEMENT EXECUTE FUNCTION comments_soc_waiting()',
    ),
    `CREATE OR REPLACE FUNCTION incidents_reopened() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.reopened := NEW.status = 'waiting_for_support'
    AND (OLD.status IN ('closed', 'completed', 'customer_completed', 'canceled')
         OR (OLD.reopened AND OLD.status = 'waiting_for_support'));
  RETURN NEW;
END $$`,
    ...trigger(
      { name: 'incidents_reopened', table: 'incidents' },
      'BEFORE UPDATE OF status, reopened',
      'FOR EACH ROW EXECUTE FUNCTION incidents_reopened()',
    ),
  ],
};
