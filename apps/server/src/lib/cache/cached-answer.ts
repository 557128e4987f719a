/** The changes of a table that a trigger can follow. */
export const TABLE_CHANGES = ['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE'] as const;
export type TableChange = (typeof TABLE_CHANGES)[number];

/**
 * What the version of a cache reads, and so which trigger writes move it in the writer's
 * transaction (design §8).
 */
export interface VersionSources {
  /** The counter of `cache_epoch` (raised by `cache_epoch_bump`). */
  epoch: boolean;
  /**
   * The ids of `events` rows of these types ('*': of any type). Such a cache is also emptied by
   * every event of these types that an instance is told of, and keeps nothing while it may miss one.
   */
  events: '*' | readonly string[];
  /** Tables whose `version` column the version statement reads (raised by the tables' triggers). */
  counters: readonly string[];
  /**
   * Tables whose rows the version statement reads itself, so that a change of the columns that
   * the answer depends on changes the version without any trigger.
   */
  rows: readonly string[];
}

/**
 * A cached answer and the tables that the statements building it read. Each of those tables must
 * move the answer's version on every change (a trigger for INSERT, UPDATE, DELETE and TRUNCATE
 * that raises the epoch or a counter the version reads, or writes an events row of a type it
 * reads), or say here why a change that does not cannot make a kept answer wrong. A test checks
 * `reads` against the plans of the statements and the triggers against the database's catalogue
 * (lib/cache/cached-tables.test.ts), so a new join cannot leave a cache silently stale.
 */
export interface CachedAnswer {
  name: string;
  reads: readonly string[];
  version: VersionSources;
  /** Changes of a read table that reach no version, with the reason that makes them harmless. */
  unannounced?: Readonly<Record<string, Partial<Record<TableChange, string>>>>;
}

/**
 * Tables that only triggers write, with the tables whose triggers write them: a change of such a
 * table is a change of one of its sources, so a cached answer that reads it is right when its
 * sources move the version.
 */
export const TRIGGER_KEPT_TABLES: Readonly<Record<string, readonly string[]>> = {
  incident_counts: ['incidents'],
  incident_search: ['incidents'],
  incident_alert_counts: ['alerts', 'alert_tags'],
  system_alert_counts: ['alerts', 'alert_tags'],
};

/**
 * New rows of these tables show only once a row that an answer reads refers to them (an
 * incident's or alert's assignee, an alert's team or tag), and that change moves the version; so
 * their triggers leave inserts out, which would empty the caches for nothing.
 */
export const SHOWN_THROUGH_REFERENCES: Readonly<Record<string, Partial<Record<TableChange, string>>>> = {
  users: { INSERT: 'a new user shows once an incident, comment or alert names them' },
  response_teams: { INSERT: 'a new team shows once an alert names it' },
  tags: { INSERT: 'a new tag shows once an alert is tagged with it (alert_tags)' },
};
