import { alertCountsSql, incidentAlertCountsTable, systemAlertCountsTable } from './alert-counts.ts';
import { auditScopeSql } from './audit-scope.ts';
import { authNotifySql } from './auth-notify.ts';
import { cacheEpochSql } from './cache-epoch.ts';
import { csvSql } from './csv.ts';
import type { DerivedSql, DerivedTable } from './derived-sql.ts';
import { epsHourlySql, epsHourlyTable } from './eps-hourly.ts';
import { eventsSql } from './events.ts';
import { fileSystemIdSql, fileSystemTables } from './file-system-id.ts';
import { incidentCountsSql, incidentCountsTable } from './incident-counts.ts';
import { incidentDailyHourlySql, incidentDailyTable, incidentHourlyTable } from './incident-daily-hourly.ts';
import { incidentIocsSql } from './incident-iocs.ts';
import { iocFeedSql } from './ioc-feed.ts';
import { incidentSearchSql, incidentSearchTable } from './incident-search.ts';
import { socQueueSql } from './soc-queue.ts';

export type { DerivedSql, DerivedTable, TriggerRef } from './derived-sql.ts';
export { triggerSwitch } from './derived-sql.ts';
export { INCIDENT_COUNTS_REBUILD, INCIDENT_COUNTS_TRIGGER } from './incident-counts.ts';
export { INCIDENT_DAILY_REBUILD, INCIDENT_DAILY_TRIGGER } from './incident-daily-hourly.ts';
export { INCIDENT_SEARCH_REBUILD, INCIDENT_SEARCH_TRIGGER } from './incident-search.ts';
export { EPS_HOURLY_REBUILD, EPS_HOURLY_INSERT_TRIGGER } from './eps-hourly.ts';
export { ALERT_COUNTS_REBUILD } from './alert-counts.ts';
export { COMMENT_EVENTS_INSERT_TRIGGER, INCIDENT_EVENTS_INSERT_TRIGGER } from './events.ts';

/**
 * Every function and trigger of the database, in the order they are declared: a function that
 * another one's SQL body calls comes first (the bodies of SQL functions are checked when they
 * are declared).
 */
export const DERIVED_SQL: readonly DerivedSql[] = [
  csvSql,
  incidentIocsSql,
  incidentCountsSql,
  incidentSearchSql,
  incidentDailyHourlySql,
  epsHourlySql,
  alertCountsSql,
  cacheEpochSql,
  eventsSql,
  iocFeedSql,
  auditScopeSql,
  authNotifySql,
  fileSystemIdSql,
  socQueueSql,
];

/**
 * The tables that triggers keep and that can be recounted from their sources. Versions
 * (`version` of the alert counts, `cache_epoch`, `ioc_feed_versions`) only ever move and have nothing to be recounted
 * from; `audit_log.system_ids` is the scope when the entry was written.
 */
export const DERIVED_TABLES: readonly DerivedTable[] = [
  incidentCountsTable,
  incidentSearchTable,
  incidentDailyTable,
  incidentHourlyTable,
  epsHourlyTable,
  incidentAlertCountsTable,
  systemAlertCountsTable,
  ...fileSystemTables,
];
