import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { incidents, issueTypes, systems } from '../../db/schema/index.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';

const run = promisify(execFile);
let ctx: TestContext;
let dir: string;
const tokens: Record<string, string> = {};
let incident: { key: number; summary: string };

/** Reads a PDF back with poppler's pdftotext (a real PDF reader). */
async function pdfText(pdf: Buffer): Promise<string> {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  await writeFile(file, pdf);
  try {
    const { stdout } = await run('pdftotext', ['-enc', 'UTF-8', '-layout', file, '-']);
    return stdout;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(
        'pdftotext is missing: install poppler-utils (apt-get install -y poppler-utils; .ci/run does)',
      );
    }
    throw err;
  }
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'soc-pdf-'));
  ctx = await createTestContext({ incidents: 30 });
  for (const user of ['alice', 'bob']) tokens[user] = (await ctx.login(user)).access;
  const [row] = await ctx.database.db
    .select({ key: incidents.key, summary: incidents.summary, id: incidents.id })
    .from(incidents)
    .innerJoin(systems, eq(systems.id, incidents.systemId))
    .innerJoin(issueTypes, eq(issueTypes.id, incidents.issueTypeId))
    .where(and(eq(systems.isId, 'IS-0001'), eq(issueTypes.code, 'incident')))
    .limit(1);
  await ctx.database.db
    .update(incidents)
    .set({
      summary: 'Подозрительный вход администратора',
      recommendations: 'Смените пароль учётной записи **admin**',
      observedIocs: [{ ioc: 'evil.example.com', ioc_type: 'fqdn', category: ['C2'] }],
    })
    .where(eq(incidents.id, row!.id));
  incident = { key: row!.key, summary: 'Подозрительный вход администратора' };
});
afterAll(async () => {
  await ctx.close();
  await rm(dir, { recursive: true, force: true });
});

describe('GET /soc/incs/{key}/get_pdf_inc/', () => {
  it('is a real PDF in Russian: key, Cyrillic title, recommendations, IOCs', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/v0/soc/incs/${incident.key}/get_pdf_inc/`,
      headers: { ...bearer(tokens.alice!), 'accept-language': 'ru' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain(`incident-${incident.key}.pdf`);
    expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = await pdfText(res.rawPayload);
    expect(text).toContain(`Инцидент ${incident.key}`);
    expect(text).toContain(incident.summary);
    expect(text).toContain('Основная информация');
    expect(text).toContain('Смените пароль учётной записи admin');
    expect(text).toContain('evil.example.com');
    expect(text).toContain('Комментарии');
  });

  it('follows ?language=en', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/v0/soc/incs/${incident.key}/get_pdf_inc/?language=en`,
      headers: bearer(tokens.alice!),
    });
    const text = await pdfText(res.rawPayload);
    expect(text).toContain(`Incident ${incident.key}`);
    expect(text).toContain('Main information');
    expect(text).toContain(incident.summary);
  });

  it('is 404 for another tenant', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/v0/soc/incs/${incident.key}/get_pdf_inc/`,
      headers: bearer(tokens.bob!),
    });
    expect(res.statusCode).toBe(404);
  });
});
