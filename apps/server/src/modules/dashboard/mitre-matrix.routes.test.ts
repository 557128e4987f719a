import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MitreMatrix } from '@soc/contracts';
import { runAdminCommand } from '../admin/index.ts';
import { buildAnalyst, buildCustomer, buildSystem } from '../../test/builders.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';

const URL = '/api/v0/soc/mitre_matrix/';

const techniqueId = (i: number) => `T${String(9000 + i)}`;
/** A description as long as MITRE's (1–3 KB of Markdown), different for each technique. */
const description = (i: number) => `Technique ${i}: adversaries may do things. `.repeat(40 + i);

/** A small STIX bundle whose techniques carry descriptions (the repository's compact data has none). */
function bundle(version: string) {
  return {
    type: 'bundle',
    objects: [
      { type: 'x-mitre-collection', id: 'c', name: 'Enterprise ATT&CK', x_mitre_version: version },
      { type: 'x-mitre-matrix', id: 'm', tactic_refs: ['ta'], x_mitre_version: '1.0' },
      {
        type: 'x-mitre-tactic',
        id: 'ta',
        name: 'A',
        x_mitre_shortname: 'a',
        external_references: [{ source_name: 'mitre-attack', external_id: 'TA1' }],
      },
      ...Array.from({ length: 30 }, (_, i) => ({
        type: 'attack-pattern',
        id: `p${i}`,
        name: `Technique ${i}`,
        description: description(i),
        x_mitre_platforms: ['Windows'],
        external_references: [
          {
            source_name: 'mitre-attack',
            external_id: techniqueId(i),
            url: `https://attack.mitre.org/techniques/${techniqueId(i)}`,
          },
        ],
        kill_chain_phases: [{ kill_chain_name: 'mitre-attack', phase_name: 'a' }],
      })),
    ],
  };
}

let ctx: TestContext;
let analyst: string;
let customerA: string;
let customerB: string;

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  analyst = await (await buildAnalyst(ctx)).login();
  const [a, b] = [await buildSystem(ctx), await buildSystem(ctx)];
  customerA = await (await buildCustomer(ctx, [a.id])).login();
  customerB = await (await buildCustomer(ctx, [b.id])).login();
});
afterAll(() => ctx.close());

const get = (url: string, token: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url, headers: { ...bearer(token), ...headers } });

describe('GET /soc/mitre_matrix/?description=false', () => {
  it('leaves out only the descriptions; the default answer keeps them', async () => {
    const full = await get(URL, customerA);
    const light = await get(`${URL}?description=false`, customerA);
    const explicit = await get(`${URL}?description=true`, customerA);
    for (const res of [full, light, explicit]) expect(res.statusCode, res.body).toBe(200);
    expect(explicit.body).toBe(full.body);

    const withText = full.json<MitreMatrix>();
    expect(withText.techniques.length).toBeGreaterThan(190);
    expect(withText.techniques.every((t) => typeof t.description === 'string')).toBe(true);
    const names = light.json<MitreMatrix>();
    expect(names.techniques.some((t) => 'description' in t)).toBe(false);
    const { techniques, ...rest } = withText;
    expect(names).toEqual({ ...rest, techniques: techniques.map(({ description: _d, ...t }) => t) });
  });

  it('answers every caller alike: the matrix belongs to no tenant', async () => {
    const bodies = await Promise.all(
      [customerA, customerB, analyst].map(
        async (token) => (await get(`${URL}?description=false`, token)).body,
      ),
    );
    expect(new Set(bodies).size).toBe(1);
    expect((await ctx.app.inject({ method: 'GET', url: `${URL}?description=false` })).statusCode).toBe(401);
  });

  it('refuses a value that is not a boolean and an unknown parameter with 400', async () => {
    for (const query of ['description=no', 'description=', 'descriptions=false']) {
      const res = await get(`${URL}?${query}`, customerA);
      expect(res.statusCode, query).toBe(400);
      expect(Object.keys(res.json<Record<string, string[]>>()).length).toBeGreaterThan(0);
    }
  });

  it('compresses each variant once and never sends one for the other', async () => {
    const plain = {
      full: (await get(URL, analyst)).rawPayload,
      light: (await get(`${URL}?description=false`, analyst)).rawPayload,
    };
    for (const [accept, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      // interleaved, so that a cache keyed by the path alone would answer one with the other
      for (const variant of ['light', 'full', 'light', 'full'] as const) {
        const res = await get(variant === 'full' ? URL : `${URL}?description=false`, analyst, {
          'accept-encoding': accept,
        });
        expect(res.headers['content-encoding']).toBe(accept);
        expect(decode(res.rawPayload).equals(plain[variant])).toBe(true);
      }
    }
  });

  it('drops the text of an imported bundle, which is most of its bytes (the last test: it changes the data)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mitre-matrix-'));
    const file = path.join(dir, 'enterprise-attack-9.9.json');
    writeFileSync(file, JSON.stringify(bundle('9.9')));
    await runAdminCommand(['attack', 'import', file], { db: ctx.database.db, config: ctx.config });
    rmSync(dir, { recursive: true, force: true });

    const full = await get(URL, customerB);
    const light = await get(`${URL}?description=false`, customerB);
    expect(full.json<MitreMatrix>().version).toBe('9.9');
    expect(full.json<MitreMatrix>().techniques.map((t) => t.description)).toEqual(
      Array.from({ length: 30 }, (_, i) => description(i)),
    );
    expect(light.json<MitreMatrix>().version).toBe('9.9');
    expect(light.json<MitreMatrix>().techniques.map((t) => [t.technique_id, t.name, t.description])).toEqual(
      Array.from({ length: 30 }, (_, i) => [techniqueId(i), `Technique ${i}`, undefined]),
    );
    expect(light.rawPayload.length).toBeLessThan(full.rawPayload.length / 5);
  });
});
