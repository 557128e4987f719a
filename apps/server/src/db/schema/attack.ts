import { integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * ATT&CK bundles loaded by `npm run admin -- attack import <bundle.json>`, in the compact form
 * (integrations/attack/attack.compact.ts) with MITRE's descriptions. The newest row is the data of
 * every instance; older rows stay as the record of what was loaded when.
 */
export const attackImports = pgTable('attack_imports', {
  id: serial('id').primaryKey(),
  /** ATT&CK version of the bundle's matrix (`18.1`), null when it names none. */
  version: text('version'),
  /** The bundle's file name as given to the command. */
  source: text('source').notNull(),
  techniques: integer('techniques').notNull(),
  data: jsonb('data').notNull(),
  importedAt: timestamp('imported_at', { withTimezone: true }).notNull().defaultNow(),
});
