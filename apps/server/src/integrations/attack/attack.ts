import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../core/private-files.ts';
import { readCompactFile, repositoryCompactPath } from './attack.compact.ts';
import type { AttackData, AttackTactic, AttackTechnique } from './attack.types.ts';

export type { AttackData, AttackTactic, AttackTechnique } from './attack.types.ts';

/** The settings the loader reads (a subset of the server's Config). */
export interface AttackConfig {
  /** Path of the bundle; when set, only this file is read. */
  attackStixPath?: string | undefined;
  /** Data folder: the cached download lives in `<dataDir>/attack/enterprise-attack.json`. */
  dataDir: string;
  /** MITRE's published bundle; empty disables the download. */
  attackDownloadUrl?: string | undefined;
  /** Time limit of the one download attempt. */
  attackDownloadTimeoutMs?: number;
  /**
   * The compact data file read when there is no bundle; unset: the one in the repository
   * (`data/enterprise-attack.compact.json`), null: none (tests of the empty state).
   */
  attackCompactPath?: string | null;
}

/** MITRE's published Enterprise bundle. */
export const ATTACK_DOWNLOAD_URL =
  'https://raw.githubusercontent.com/mitre-attack/attack-stix-data/master/enterprise-attack/enterprise-attack.json';

export const EMPTY_ATTACK: AttackData = Object.freeze({
  available: false,
  source: null,
  version: null,
  tactics: [],
  techniques: [],
  byId: new Map(),
});

interface StixRef {
  source_name?: string;
  external_id?: string;
  url?: string;
}
interface StixObject {
  type?: string;
  id?: string;
  name?: string;
  description?: string;
  external_references?: StixRef[];
  kill_chain_phases?: { kill_chain_name?: string; phase_name?: string }[];
  tactic_refs?: string[];
  x_mitre_shortname?: string;
  x_mitre_is_subtechnique?: boolean;
  x_mitre_deprecated?: boolean;
  x_mitre_platforms?: string[];
  x_mitre_version?: string;
  revoked?: boolean;
  relationship_type?: string;
  source_ref?: string;
  target_ref?: string;
}

const mitreRef = (o: StixObject) =>
  o.external_references?.find((r) => r.source_name === 'mitre-attack' && r.external_id);

/** Parses a STIX 2.1 bundle (text or parsed JSON) into tactics and techniques. */
export function parseAttackBundle(bundle: unknown, source: string | null = null): AttackData {
  const objects = (bundle as { objects?: unknown })?.objects;
  if (!Array.isArray(objects)) throw new Error('Not a STIX bundle: no objects array.');
  const all = objects as StixObject[];
  const matrix = all.find((o) => o.type === 'x-mitre-matrix' && !o.revoked && !o.x_mitre_deprecated);
  const collection = all.find((o) => o.type === 'x-mitre-collection');
  const tacticObjects = new Map(all.filter((o) => o.type === 'x-mitre-tactic').map((o) => [o.id!, o]));
  const order = matrix?.tactic_refs ?? [...tacticObjects.keys()];
  const tactics: AttackTactic[] = [];
  for (const ref of order) {
    const o = tacticObjects.get(ref);
    const ext = o && mitreRef(o);
    if (!o || !ext || !o.x_mitre_shortname) continue;
    tactics.push({
      id: ext.external_id!,
      name: o.name ?? '',
      shortName: o.x_mitre_shortname,
      description: o.description ?? '',
      url: ext.url ?? '',
      isDeprecated: Boolean(o.x_mitre_deprecated || o.revoked),
    });
  }
  const rank = new Map(tactics.map((t, i) => [t.shortName, i]));

  const byStixId = new Map<string, AttackTechnique>();
  for (const o of all) {
    if (o.type !== 'attack-pattern') continue;
    const ext = mitreRef(o);
    if (!ext) continue;
    const id = ext.external_id!;
    const phases = (o.kill_chain_phases ?? [])
      .filter((p) => p.kill_chain_name === 'mitre-attack' && p.phase_name)
      .map((p) => p.phase_name!);
    byStixId.set(o.id!, {
      id,
      name: o.name ?? '',
      url: ext.url ?? '',
      description: o.description ?? '',
      tactics: [...new Set(phases)].sort((a, b) => (rank.get(a) ?? 99) - (rank.get(b) ?? 99)),
      isSubtechnique: Boolean(o.x_mitre_is_subtechnique),
      parentId: o.x_mitre_is_subtechnique && id.includes('.') ? id.split('.')[0]! : null,
      subTechniques: [],
      isRevoked: Boolean(o.revoked),
      isDeprecated: Boolean(o.x_mitre_deprecated),
      platforms: o.x_mitre_platforms ?? [],
    });
  }
  for (const o of all) {
    if (o.type !== 'relationship' || o.relationship_type !== 'subtechnique-of') continue;
    const child = byStixId.get(o.source_ref ?? '');
    const parent = byStixId.get(o.target_ref ?? '');
    if (!child || !parent) continue;
    child.parentId = parent.id;
    if (!parent.subTechniques.includes(child.id)) parent.subTechniques.push(child.id);
  }
  const techniques = [...byStixId.values()].sort((a, b) => a.id.localeCompare(b.id));
  for (const t of techniques) t.subTechniques.sort();
  // a revoked object can share its id with its replacement: the live one wins
  const byId = new Map<string, AttackTechnique>();
  for (const t of techniques) {
    const had = byId.get(t.id);
    if (!had || (had.isRevoked && !t.isRevoked)) byId.set(t.id, t);
  }
  return {
    available: true,
    source,
    origin: 'bundle',
    // the release (`18.1`) is the collection's version; the matrix object's own version is not it
    version: collection?.x_mitre_version ?? null,
    tactics,
    techniques: [...byId.values()],
    byId,
  };
}

async function readBundle(file: string): Promise<AttackData> {
  return parseAttackBundle(JSON.parse(await readFile(file, 'utf8')), file);
}

/**
 * MITRE's description without its `(Citation: Source Name)` markers: they point into the
 * bundle's reference list, which the portal does not show. One level of parentheses inside a
 * source name is allowed (`(Citation: Microsoft (2020))`).
 */
export function withoutCitations(description: string): string {
  return description.replace(/[ \t]*\(Citation:[^()]*(?:\([^()]*\)[^()]*)*\)/g, '').replace(/[ \t]+$/gm, '');
}

/** The cached copy of a downloaded bundle. */
export const attackCachePath = (dataDir: string) => path.join(dataDir, 'attack', 'enterprise-attack.json');

/** Downloads MITRE's bundle into the cache; returns the path, or null on any failure. */
async function download(url: string, target: string, timeoutMs: number): Promise<string | null> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) return null;
    const text = await response.text();
    parseAttackBundle(JSON.parse(text)); // refuse anything that is not a bundle
    await mkdir(path.dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
    const partial = `${target}.${process.pid}.part`;
    await writeFile(partial, text, { mode: PRIVATE_FILE_MODE });
    await rename(partial, target);
    return target;
  } catch {
    return null;
  }
}

const cache = new Map<string, Promise<AttackData>>();

/**
 * ATT&CK data for a configuration, read once and kept in memory: the configured bundle; else the
 * cached download under the data folder; else one download attempt of MITRE's bundle (short time
 * limit, failure tolerated); else the compact data file of the repository (names without
 * descriptions). Without any of them: EMPTY_ATTACK (`available: false`). A bundle imported into
 * the database comes before all of these (attack.source.ts).
 */
export function loadAttack(config: AttackConfig): Promise<AttackData> {
  const compactPath =
    config.attackCompactPath === undefined ? repositoryCompactPath() : config.attackCompactPath;
  const key = JSON.stringify([
    config.attackStixPath ?? '',
    config.dataDir,
    config.attackDownloadUrl ?? '',
    compactPath ?? '',
  ]);
  let pending = cache.get(key);
  if (!pending) {
    const compact = async () => (compactPath ? readCompactFile(compactPath) : EMPTY_ATTACK);
    pending = (async () => {
      if (config.attackStixPath) {
        return existsSync(config.attackStixPath) ? readBundle(config.attackStixPath) : compact();
      }
      if (!config.dataDir) return compact();
      const cached = attackCachePath(config.dataDir);
      if (existsSync(cached)) return readBundle(cached).catch(compact);
      const url = config.attackDownloadUrl ?? ATTACK_DOWNLOAD_URL;
      const fetched = url ? await download(url, cached, config.attackDownloadTimeoutMs ?? 5000) : null;
      return fetched ? readBundle(fetched) : compact();
    })().catch(() => EMPTY_ATTACK);
    cache.set(key, pending);
  }
  return pending;
}

/** Forgets the data read so far (an admin refresh, tests). */
export function clearAttackCache(): void {
  cache.clear();
}
