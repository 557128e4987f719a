import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseAttackBundle } from '../../integrations/attack/attack.ts';
import { createAttackRepository } from '../../integrations/attack/attack.repository.ts';
import type { CommandGroup } from './command-context.ts';
import { CommandError, arg, json } from './command-context.ts';

/** MITRE's full Enterprise bundle is about 50 MB; anything far larger is not one. */
export const ATTACK_BUNDLE_MAX_BYTES = 512 * 1024 * 1024;

/**
 * `attack import <bundle.json>`: reads a MITRE ATT&CK Enterprise STIX 2.1 bundle and keeps its
 * tactics and techniques (with descriptions) in the database, where every instance reads them at
 * its next request (integrations/attack/attack.source.ts). `attack show`: the import in force.
 */
export const attackCommands: CommandGroup = async (ctx) => {
  const { action, db } = ctx;
  switch (action) {
    case 'import': {
      const file = arg(ctx, 0, 'the bundle file (enterprise-attack.json)');
      const size = await stat(file).then(
        (s) => s.size,
        () => {
          throw new CommandError(`Cannot read ${file}.`);
        },
      );
      if (size > ATTACK_BUNDLE_MAX_BYTES)
        throw new CommandError(`${file} is too large for an ATT&CK bundle.`);
      let data;
      try {
        data = parseAttackBundle(JSON.parse(await readFile(file, 'utf8')), file);
      } catch (err) {
        throw new CommandError(
          `${file} is not a STIX bundle: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
      if (!data.tactics.length || !data.techniques.length)
        throw new CommandError(`${file} holds no ATT&CK tactics or techniques.`);
      const saved = await createAttackRepository(db).saveAttackImport(data, path.basename(file));
      return json({
        imported: saved.id,
        version: saved.version,
        tactics: data.tactics.length,
        techniques: data.techniques.filter((t) => !t.isSubtechnique).length,
        sub_techniques: data.techniques.filter((t) => t.isSubtechnique).length,
        revoked_or_deprecated: data.techniques.filter((t) => t.isRevoked || t.isDeprecated).length,
        source: saved.source,
      });
    }
    case 'show': {
      const latest = await createAttackRepository(db).latestAttackImport();
      return latest
        ? json({ ...latest, importedAt: latest.importedAt.toISOString() })
        : 'No bundle imported: the configured bundle (ATTACK_STIX_PATH), the download or the compact file is used.';
    }
  }
};
