import { v5 as uuidv5 } from 'uuid';
import type { IocType } from '@soc/contracts';
import type { IocFeedRow } from './ioc-feed.repository.ts';
import { csvLine } from '../../lib/csv.ts';

/**
 * The namespace of the feed's STIX identifiers (uuid v5): an indicator's id is derived from its
 * system and value, so every poll, on any instance, names the same indicator with the same id.
 */
const STIX_NAMESPACE = '5d1f0a3e-7c4b-5f25-9e51-1b7e0c6a2d94';

/** The STIX id of the indicator of `ioc` (of `type`) in `systemId`. */
export const indicatorId = (systemId: number, type: string, ioc: string): string =>
  `indicator--${uuidv5(`${systemId}\n${type}\n${ioc}`, STIX_NAMESPACE)}`;

/** A string literal of a STIX pattern: backslashes and quotes escaped (STIX 2.1 §9.3). */
const literal = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

const HASH_NAMES: Record<number, string> = { 32: 'MD5', 40: "'SHA-1'", 64: "'SHA-256'", 128: "'SHA-512'" };

/**
 * The STIX 2.1 pattern of an IOC: the cyber-observable object and property that hold it; types
 * that STIX has no object for are custom objects (`x-soc-…:value`), as §9 allows.
 */
export function stixPattern(type: IocType, value: string): string {
  const eq = (path: string, v = value) => `[${path} = ${literal(v)}]`;
  switch (type) {
    case 'ipv4':
      return eq('ipv4-addr:value');
    case 'ipv6':
      return eq('ipv6-addr:value');
    case 'fqdn':
      return eq('domain-name:value');
    case 'url':
      return eq('url:value');
    case 'email':
      return eq('email-addr:value');
    case 'file': {
      const hash = /^[0-9a-f]+$/i.test(value) ? HASH_NAMES[value.length] : undefined;
      return hash ? eq(`file:hashes.${hash}`, value.toLowerCase()) : eq('file:name');
    }
    case 'certificate': {
      const hex = value.replace(/:/g, '').toLowerCase();
      return eq(`x509-certificate:hashes.${hex.length === 40 ? "'SHA-1'" : "'SHA-256'"}`, hex);
    }
    case 'useraccount':
      return eq('user-account:account_login');
    case 'registrykey':
      return eq('windows-registry-key:key');
    case 'process':
      return eq('process:command_line');
    case 'ja3':
    case 'bankcard':
    case 'subscriber':
    case 'device':
    case 'message':
    case 'custom':
      return eq(`x-soc-${type}:value`);
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A STIX 2.1 `indicator` of a feed row. */
export function presentIndicator(row: IocFeedRow) {
  const created = iso(row.first_seen);
  const label = row.ioc.length > 200 ? `${row.ioc.slice(0, 200)}…` : row.ioc;
  return {
    type: 'indicator',
    spec_version: '2.1',
    id: indicatorId(row.system_id, row.ioc_type, row.ioc),
    created,
    modified: iso(Math.max(row.first_seen, row.last_seen)),
    name: `${row.ioc_type}: ${label}`,
    indicator_types: ['malicious-activity'],
    pattern: stixPattern(row.ioc_type, row.ioc),
    pattern_type: 'stix',
    pattern_version: '2.1',
    valid_from: created,
    labels: [row.ioc_type, ...row.categories],
    x_soc_system_id: row.system_id,
    x_soc_incident_count: row.incidents,
  };
}

/** A STIX 2.1 bundle of the rows; its id follows from `seed` (the feed's version), so polls agree. */
export const stixBundle = (rows: readonly IocFeedRow[], seed: string): string =>
  JSON.stringify({
    type: 'bundle',
    id: `bundle--${uuidv5(seed, STIX_NAMESPACE)}`,
    objects: rows.map(presentIndicator),
  });

export const CSV_COLUMNS = [
  'value',
  'type',
  'system_id',
  'first_seen',
  'last_seen',
  'incidents',
  'categories',
  'stix_id',
] as const;

/**
 * CSV of the rows (RFC 4180), with a header line on the first page only. The values come from
 * attackers' traffic: cells are quoted and formulas neutralised by the exports' one rule
 * (`lib/csv.ts`); the plain-text and STIX formats carry them unchanged.
 */
export const feedCsv = (rows: readonly IocFeedRow[], header: boolean): string =>
  (header ? csvLine(CSV_COLUMNS) : '') +
  rows
    .map((r) =>
      csvLine([
        r.ioc,
        r.ioc_type,
        r.system_id,
        iso(r.first_seen),
        iso(r.last_seen),
        r.incidents,
        r.categories.join(';'),
        indicatorId(r.system_id, r.ioc_type, r.ioc),
      ]),
    )
    .join('');

/**
 * One value per line. A value holding a line break cannot be written so (a firewall would read
 * two entries): it is left out, as no blocking tool could match it anyway.
 */
export const feedText = (rows: readonly IocFeedRow[]): string =>
  rows
    .map((r) => r.ioc)
    .filter((v) => !/[\r\n]/.test(v))
    .map((v) => `${v}\n`)
    .join('');
