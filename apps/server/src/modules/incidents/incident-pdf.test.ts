import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import { buildComment, buildCustomer, buildIncident, buildSystem } from '../../test/builders.ts';

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
  ctx = await createTestContext({ incidents: 0 });
  const [own, other] = [await buildSystem(ctx), await buildSystem(ctx)];
  tokens.customer = await (await buildCustomer(ctx, [own.id])).login();
  tokens.other = await (await buildCustomer(ctx, [other.id])).login();
  const summary = 'Подозрительный вход администратора';
  const row = await buildIncident(ctx, own.id, {
    summary,
    recommendations: 'Смените пароль учётной записи **admin**',
    observedIocs: [{ ioc: 'evil.example.com', ioc_type: 'fqdn', category: ['C2'] }],
  });
  await buildComment(ctx, row.id, { body: '<p>Пароль сменён в 10:40</p>' });
  incident = { key: row.key, summary };
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
      headers: { ...bearer(tokens.customer!), 'accept-language': 'ru' },
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
    expect(text).toContain('Пароль сменён в 10:40');
  });

  it('follows ?language=en', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/v0/soc/incs/${incident.key}/get_pdf_inc/?language=en`,
      headers: bearer(tokens.customer!),
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
      headers: bearer(tokens.other!),
    });
    expect(res.statusCode).toBe(404);
  });
});
