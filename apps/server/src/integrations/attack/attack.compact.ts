import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { AttackData, AttackTactic, AttackTechnique } from './attack.types.ts';

/**
 * The compact form of ATT&CK Enterprise: the facts the portal shows (ids, names, tactic
 * membership and order, sub-technique relations, platforms, revoked/deprecated flags, URLs) and
 * no description texts. The repository carries one, derived from MITRE's STIX 2.1 bundle by
 * `scripts/attack-compact.mjs`, so that a clone without network names every technique; an
 * imported bundle is kept in the database in the same form, with descriptions.
 */
export const COMPACT_FORMAT = 'soc-attack-compact/1';
export const COMPACT_FILE_NAME = 'enterprise-attack.compact.json';

const CompactTacticSchema = z.object({
  id: z.string(),
  name: z.string(),
  shortName: z.string(),
  url: z.string(),
  deprecated: z.literal(true).optional(),
});

const CompactTechniqueSchema = z.object({
  id: z.string().regex(/^T\d{4}(\.\d{3})?$/),
  name: z.string(),
  url: z.string(),
  /** Tactic short names, in matrix order. */
  tactics: z.array(z.string()),
  platforms: z.array(z.string()),
  /** The parent technique of a sub-technique. */
  parent: z.string().optional(),
  subtechnique: z.literal(true).optional(),
  revoked: z.literal(true).optional(),
  deprecated: z.literal(true).optional(),
  /** Only in imports kept in the database: never in the repository's file. */
  description: z.string().optional(),
});

export const CompactAttackSchema = z.object({
  format: z.literal(COMPACT_FORMAT),
  domain: z.literal('enterprise-attack'),
  /** ATT&CK version of the bundle's matrix (`18.1`). */
  attack_version: z.string().nullable(),
  /** The bundle it was derived from (its file name), for people reading the file. */
  derived_from: z.string(),
  /** Tactics in matrix order. */
  tactics: z.array(CompactTacticSchema),
  /** Techniques and sub-techniques, sorted by id. */
  techniques: z.array(CompactTechniqueSchema),
});
export type CompactAttack = z.infer<typeof CompactAttackSchema>;
type CompactTechnique = z.infer<typeof CompactTechniqueSchema>;

/** Parsed ATT&CK data in compact form; `descriptions` keeps MITRE's texts (database imports only). */
export function toCompact(data: AttackData, derivedFrom: string, descriptions = false): CompactAttack {
  return {
    format: COMPACT_FORMAT,
    domain: 'enterprise-attack',
    attack_version: data.version,
    derived_from: derivedFrom,
    tactics: data.tactics.map((t) => ({
      id: t.id,
      name: t.name,
      shortName: t.shortName,
      url: t.url,
      ...(t.isDeprecated ? { deprecated: true as const } : {}),
    })),
    techniques: data.techniques.map((t): CompactTechnique => ({
      id: t.id,
      name: t.name,
      url: t.url,
      tactics: t.tactics,
      platforms: t.platforms,
      ...(t.parentId ? { parent: t.parentId } : {}),
      ...(t.isSubtechnique ? { subtechnique: true as const } : {}),
      ...(t.isRevoked ? { revoked: true as const } : {}),
      ...(t.isDeprecated ? { deprecated: true as const } : {}),
      ...(descriptions && t.description ? { description: t.description } : {}),
    })),
  };
}

/** Compact data (parsed JSON) as the loader's AttackData; throws when it is not compact data. */
export function fromCompact(
  json: unknown,
  source: string,
  origin: AttackData['origin'] = 'compact',
): AttackData {
  const c = CompactAttackSchema.parse(json);
  const tactics: AttackTactic[] = c.tactics.map((t) => ({
    id: t.id,
    name: t.name,
    shortName: t.shortName,
    description: '',
    url: t.url,
    isDeprecated: t.deprecated === true,
  }));
  const techniques: AttackTechnique[] = c.techniques.map((t) => ({
    id: t.id,
    name: t.name,
    url: t.url,
    description: t.description ?? '',
    tactics: t.tactics,
    isSubtechnique: t.subtechnique === true,
    parentId: t.parent ?? null,
    subTechniques: [],
    isRevoked: t.revoked === true,
    isDeprecated: t.deprecated === true,
    platforms: t.platforms,
  }));
  const byId = new Map(techniques.map((t) => [t.id, t]));
  for (const t of techniques) if (t.parentId) byId.get(t.parentId)?.subTechniques.push(t.id);
  for (const t of techniques) t.subTechniques.sort();
  return { available: true, source, origin, version: c.attack_version, tactics, techniques, byId };
}

/**
 * The file's text: one tactic or technique a line, so that a newer ATT&CK version shows as a
 * readable diff.
 */
export function stringifyCompact(c: CompactAttack): string {
  const list = (items: unknown[]) => `[\n${items.map((i) => `    ${JSON.stringify(i)}`).join(',\n')}\n  ]`;
  return (
    `{\n  "format": ${JSON.stringify(c.format)},\n  "domain": ${JSON.stringify(c.domain)},\n` +
    `  "attack_version": ${JSON.stringify(c.attack_version)},\n` +
    `  "derived_from": ${JSON.stringify(c.derived_from)},\n` +
    `  "tactics": ${list(c.tactics)},\n  "techniques": ${list(c.techniques)}\n}\n`
  );
}

/**
 * The repository's compact file: beside this module in the sources, or under `src/` seen from
 * the bundled `dist/` (the image copies that folder).
 */
export function repositoryCompactPath(): string | null {
  const candidates = [
    path.join(import.meta.dirname, 'data', COMPACT_FILE_NAME),
    path.resolve(import.meta.dirname, '../src/integrations/attack/data', COMPACT_FILE_NAME),
  ];
  return candidates.find((file) => existsSync(file)) ?? null;
}

export async function readCompactFile(file: string): Promise<AttackData> {
  return fromCompact(JSON.parse(await readFile(file, 'utf8')), file);
}

/** The same, synchronously (scripts). */
export const readCompactFileSync = (file: string): AttackData =>
  fromCompact(JSON.parse(readFileSync(file, 'utf8')), file);
