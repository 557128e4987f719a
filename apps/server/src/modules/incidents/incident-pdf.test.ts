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

/** Runs a poppler tool (a real PDF reader) on a PDF: pdftotext -layout, or pdffonts. */
async function poppler(tool: 'pdftotext' | 'pdffonts', pdf: Buffer): Promise<string> {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  await writeFile(file, pdf);
  const args = tool === 'pdftotext' ? ['-enc', 'UTF-8', '-layout', file, '-'] : [file];
  try {
    const { stdout } = await run(tool, args);
    return stdout;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(
        `${tool} is missing: install poppler-utils (apt-get install -y poppler-utils; .ci/run does)`,
      );
    }
    throw err;
  }
}
const pdfText = (pdf: Buffer) => poppler('pdftotext', pdf);

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'soc-pdf-'));
  ctx = await createTestContext({ incidents: 0 });
  const [own, other] = [await buildSystem(ctx), await buildSystem(ctx)];
  tokens.customer = await (await buildCustomer(ctx, [own.id])).login();
  tokens.other = await (await buildCustomer(ctx, [other.id])).login();
  const summary = 'Подозрительный вход администратора';
  const row = await buildIncident(ctx, own.id, {
    summary,
    description: [
      '### Хронология',
      '',
      '1. Вход с адреса *203.0.113.7*',
      '2. Запуск `mimikatz.exe`',
      '   - из каталога Temp',
      '',
      '| Узел | Адрес |',
      '| --- | --- |',
      '| dc-01 | 10.0.0.2 |',
      '',
      'Подробнее: [отчёт](https://soc.example/r/1)',
    ].join('\n'),
    recommendations: 'Смените пароль учётной записи **admin**',
    observedIocs: [{ ioc: 'evil.example.com', ioc_type: 'fqdn', category: ['C2'] }],
  });
  await buildComment(ctx, row.id, { body: '<p>Пароль сменён в 10:40</p>' });
  await buildComment(ctx, row.id, {
    body: '<p>Сделано:</p><ol><li>изолирован <strong>dc-01</strong></li><li>удалён <code>svc.exe</code></li></ol><p>&lt;b&gt;не тег&lt;/b&gt; <a href="https://soc.example/t/2">заявка</a></p>',
  });
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

  it('keeps the Markdown structure of the description: heading, numbers, bullets, table, faces', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/v0/soc/incs/${incident.key}/get_pdf_inc/`,
      headers: { ...bearer(tokens.customer!), 'accept-language': 'ru' },
    });
    const lines = (await pdfText(res.rawPayload)).split('\n').map((l) => l.trimEnd());
    const line = (part: string) => lines.find((l) => l.includes(part)) ?? '';
    expect(line('Хронология').trim()).toBe('Хронология');
    expect(line('Вход с адреса')).toMatch(/^\s*1\.\s+Вход с адреса 203\.0\.113\.7$/);
    expect(line('Запуск')).toMatch(/^\s*2\.\s+Запуск mimikatz\.exe$/);
    expect(line('из каталога Temp')).toMatch(/^\s*◦\s+из каталога Temp$/);
    expect(line('dc-01')).toMatch(/^\s*dc-01\s+10\.0\.0\.2$/);
    expect(line('Узел')).toMatch(/^\s*Узел\s+Адрес$/);
    expect(line('Подробнее')).toMatch(/Подробнее: отчёт$/);
    expect(res.rawPayload.toString('latin1')).toContain('/URI (https://soc.example/r/1)');
    // comments too: their HTML keeps its list, link and typed text (issue 28)
    expect(line('изолирован')).toMatch(/^\s*1\.\s+изолирован dc-01$/);
    expect(line('удалён')).toMatch(/^\s*2\.\s+удалён svc\.exe$/);
    expect(line('не тег')).toMatch(/<b>не тег<\/b> заявка$/);
    expect(res.rawPayload.toString('latin1')).toContain('/URI (https://soc.example/t/2)');
    // italic and code in their own faces (headings use the bold one anyway)
    const fonts = await poppler('pdffonts', res.rawPayload);
    expect(fonts).toMatch(/DejaVuSans-Oblique\b/);
    expect(fonts).toMatch(/DejaVuSansMono\b/);
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
