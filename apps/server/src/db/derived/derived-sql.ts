/**
 * The current definitions of the database's functions and triggers, one module per derived
 * concern. Migrations create tables, indexes and one-off rebuilds; `applyDerived` (apply.ts)
 * declares these after them, on every start where they or the migrations changed.
 */
export interface DerivedSql {
  /** The concern, as messages name it. */
  name: string;
  /** `CREATE OR REPLACE FUNCTION` and `DROP TRIGGER IF EXISTS` / `CREATE TRIGGER` statements, in order. */
  statements: readonly string[];
}

/** A trigger, named where it is declared and where it is switched off for a bulk load. */
export interface TriggerRef {
  name: string;
  table: string;
}

/**
 * A trigger's statements: dropped when present and created again, so that a changed event list or
 * transition table takes effect (`CREATE OR REPLACE TRIGGER` cannot change every part of one).
 * `timing` is what comes before `ON table` (`AFTER INSERT`), `body` what comes after it.
 */
export function trigger(ref: TriggerRef, timing: string, body: string): string[] {
  return [
    `DROP TRIGGER IF EXISTS ${ref.name} ON ${ref.table}`,
    `CREATE TRIGGER ${ref.name} ${timing} ON ${ref.table}\n  ${body}`,
  ];
}

/**
 * A derived table and its recount from the source tables, for `derived check`. `recount` selects
 * the `keys` and `value` columns, in that order, of the rows the table should hold; a stored row
 * whose value is 0 and that the recount lacks agrees with it (counts that fell to zero stay).
 */
export interface DerivedTable {
  table: string;
  keys: readonly string[];
  value: string;
  /** What a missing row stands for (SQL; default `0`: counts that fell to zero stay); `NULL`: nothing. */
  absent?: string;
  /** The tables the recount reads: `derived rebuild` holds off their writers while it runs. */
  sources: readonly string[];
  recount: string;
  /** Makes the table agree with its recount (one statement may serve several tables). */
  rebuild: string;
}

/** Switches a trigger off or on again (around a bulk load that recounts once at its end). */
export const triggerSwitch = (ref: TriggerRef, enabled: boolean): string =>
  `ALTER TABLE ${ref.table} ${enabled ? 'ENABLE' : 'DISABLE'} TRIGGER ${ref.name}`;
