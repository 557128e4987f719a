import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { attackImports } from '../../db/schema/index.ts';
import type { AttackData } from './attack.ts';
import { fromCompact, toCompact } from './attack.compact.ts';

/** An import of a bundle into the database (`attack import`), without its data. */
export interface AttackImport {
  id: number;
  version: string | null;
  source: string;
  techniques: number;
  importedAt: Date;
}

const head = {
  id: attackImports.id,
  version: attackImports.version,
  source: attackImports.source,
  techniques: attackImports.techniques,
  importedAt: attackImports.importedAt,
};

/** The imports of ATT&CK bundles (`attack import`) and the data of each. */
export function createAttackRepository(db: Db) {
  return {
    /** Keeps parsed bundle data (with MITRE's descriptions) as the data of every instance. */
    async saveAttackImport(data: AttackData, source: string): Promise<AttackImport> {
      const [row] = await db
        .insert(attackImports)
        .values({
          version: data.version,
          source,
          techniques: data.techniques.length,
          data: toCompact(data, source, true),
        })
        .returning(head);
      return row!;
    },

    /** The newest import (one indexed row, no data), or null when none was made. */
    async latestAttackImport(): Promise<AttackImport | null> {
      const [row] = await db.select(head).from(attackImports).orderBy(desc(attackImports.id)).limit(1);
      return row ?? null;
    },

    /** The data of an import. */
    async readAttackImport(id: number): Promise<AttackData> {
      const [row] = await db
        .select({ data: attackImports.data })
        .from(attackImports)
        .where(eq(attackImports.id, id));
      if (!row) throw new Error(`No ATT&CK import #${id}.`);
      return fromCompact(row.data, `database import #${id}`, 'import');
    },
  };
}
