import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { cmdbAssets } from './inventory.ts';

/** Software installed on an asset (product §B3 Software item). */
export const assetSoftware = pgTable(
  'asset_software',
  {
    id: serial('id').primaryKey(),
    assetId: integer('asset_id')
      .notNull()
      .references(() => cmdbAssets.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    vendor: text('vendor').notNull().default(''),
    version: text('version').notNull().default(''),
    installTime: timestamp('install_time', { withTimezone: true }),
  },
  // the software tab of an asset, by name (limit/offset)
  (t) => [index('asset_software_asset_name_idx').on(t.assetId, t.name, t.id)],
);
