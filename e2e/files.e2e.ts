import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { solidPng } from '../apps/server/src/modules/documents/png.ts';
import { attachToIncident, type FileToAttach } from './support/files.ts';
import { launchBrowser, newPage } from './support/browser.ts';
import { signIn } from './support/session.ts';

const baseUrl = inject('baseUrl');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

/** A one-page PDF with a line of text (offsets of the cross-reference table computed). */
function tinyPdf(text: string): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 144] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${`BT /F1 18 Tf 20 70 Td (${text}) Tj ET`.length} >>\nstream\nBT /F1 18 Tf 20 70 Td (${text}) Tj ET\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** Attaches files to one of alice's incidents; answers their viewer paths. */
const attach = (page: Page, files: FileToAttach[]) => attachToIncident(baseUrl, page, files);

describe('file viewer', () => {
  it('previews an image with zoom, a JSON file and a PDF, and shows not found', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'alice');
    const json = { source: 'EDR', events: [{ host: 'dc01', count: 3 }] };
    const [image, data, pdf] = (await attach(page, [
      // wider than the window: a click zooms it to its natural size
      { name: 'wide-screenshot.png', type: 'image/png', body: solidPng(3000, 120, [30, 120, 200]) },
      { name: 'events.json', type: 'application/json', body: Buffer.from(JSON.stringify(json)) },
      { name: 'report.pdf', type: 'application/pdf', body: tinyPdf('SOC report') },
    ])) as [string, string, string];

    await page.goto(`${baseUrl}${image}`);
    await page.getByTestId('file-viewer').waitFor();
    await expect.poll(() => page.getByTestId('file-title').innerText()).toBe('wide-screenshot.png');
    const img = page.getByTestId('file-preview-image');
    await img.waitFor();
    await expect.poll(() => img.getAttribute('data-zoomable')).toBe('true');
    await expect
      .poll(() =>
        page
          .locator(
            '[data-testid="file-progress"] [aria-valuenow], [data-testid="file-progress"][aria-valuenow]',
          )
          .first()
          .getAttribute('aria-valuenow'),
      )
      .toBe('100');
    const fitted = (await img.boundingBox())!.width;
    expect(fitted).toBeLessThan(1536);
    await img.click();
    await expect.poll(() => img.getAttribute('data-zoomed')).toBe('true');
    expect(Math.round((await img.boundingBox())!.width)).toBe(3000);
    await img.click();
    await expect.poll(() => img.getAttribute('data-zoomed')).toBe('false');

    // the Download button saves the file under its name
    const download = page.waitForEvent('download');
    await page.getByTestId('file-download').click();
    expect((await download).suggestedFilename()).toBe('wide-screenshot.png');

    await page.goto(`${baseUrl}${data}`);
    const text = page.getByTestId('file-preview-json');
    await text.waitFor();
    expect(await text.innerText()).toBe(JSON.stringify(json, null, 2));
    expect(await page.getByTestId('file-title').innerText()).toBe('events.json');

    await page.goto(`${baseUrl}${pdf}`);
    const frame = page.getByTestId('file-preview-pdf');
    await frame.waitFor();
    expect(await frame.getAttribute('src')).toMatch(/^blob:/);
    expect(await page.getByTestId('file-title').innerText()).toBe('report.pdf');

    // another id, and a path with download left after mapping: not found with the spec's texts
    await page.goto(`${baseUrl}${pdf.replace(/[0-9a-f]{8}-/, '00000000-')}`);
    await page.getByTestId('file-not-found').waitFor();
    expect(await page.getByTestId('file-not-found').innerText()).toContain('File not found');
    await page.goto(`${baseUrl}/files/download/incidents/1/download`);
    await page.getByTestId('file-not-found').waitFor();
    await page.getByTestId('file-to-main').click();
    await page.waitForURL(`${baseUrl}/dashboard`);
    await context.close();
  });

  it('shows the Russian not-found text', async () => {
    const { context, page } = await newPage(browser, { locale: 'ru-RU' });
    await signIn(page, baseUrl, 'bob');
    await page.goto(`${baseUrl}/files/download/incidents/1/00000000-0000-0000-0000-000000000000`);
    await page.getByTestId('file-not-found').waitFor();
    expect(await page.getByTestId('file-not-found').innerText()).toContain('Файл не найден');
    await context.close();
  });
});
