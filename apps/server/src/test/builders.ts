/*
 * Rows a test makes for itself, so that what it checks does not hang on the names and sizes of
 * the demo data set. Plain inserts: the database's triggers (derived counts, notifications) run
 * as for rows the services write. Names carry a random tag, so builders can run on any template.
 * One home for every builder, split by area under `builders/`; tests import from here.
 */
export * from './builders/accounts.ts';
export * from './builders/documents.ts';
export * from './builders/incidents.ts';
export * from './builders/inventory.ts';
export * from './builders/reports.ts';
export * from './builders/services.ts';
