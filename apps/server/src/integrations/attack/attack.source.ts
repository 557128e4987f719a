import type { Db } from '../../db/client.ts';
import type { AttackConfig, AttackData } from './attack.ts';
import { loadAttack } from './attack.ts';
import { createAttackRepository } from './attack.repository.ts';

/** The ATT&CK data in force, read where it is needed (rules coverage, the dashboard matrix). */
export type AttackSource = () => Promise<AttackData>;

const sources = new WeakMap<Db, AttackSource>();

/**
 * ATT&CK data of an instance: the newest bundle imported into the database (`attack import`),
 * so that every instance shows the same version; without one, the configured or downloaded
 * bundle, else the repository's compact file (loadAttack). The import's id is looked up on each
 * call (one small statement), so an import reaches every instance at its next request; its data
 * is read once per id. Calls at the same time share one look-up.
 */
export function attackSource(config: AttackConfig, db: Db): AttackSource {
  let source = sources.get(db);
  if (source) return source;
  let kept: { id: number; data: Promise<AttackData> } | null = null;
  let lookup: Promise<AttackData> | null = null;
  const resolve = async (): Promise<AttackData> => {
    const latest = await createAttackRepository(db).latestAttackImport();
    if (!latest) {
      kept = null;
      return loadAttack(config);
    }
    if (kept?.id !== latest.id) {
      const data = createAttackRepository(db).readAttackImport(latest.id);
      kept = { id: latest.id, data };
      data.catch(() => {
        if (kept?.data === data) kept = null;
      });
    }
    return kept.data;
  };
  source = () => {
    lookup ??= resolve().finally(() => {
      lookup = null;
    });
    return lookup;
  };
  sources.set(db, source);
  return source;
}
