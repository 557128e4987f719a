import { readFileSync } from 'node:fs';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solidPng } from '../apps/server/src/modules/documents/png.ts';
import { startTestS3ServerOrSkip } from '../apps/server/src/test/s3-server.ts';
import { launchBrowser, newPage } from './support/browser.ts';
import { attachToIncident } from './support/files.ts';
import type { RunningServer } from './support/server.ts';
import { startServer } from './support/server.ts';
import { signIn } from './support/session.ts';

/*
 * Issue 31 part 2 in the browser: the production build with STORAGE=s3 on a real S3-compatible
 * server (s3rver) keeps the demo's and the user's files in the bucket, and the file viewer
 * previews and downloads them from there.
 */
const s3 = await startTestS3ServerOrSkip('S3 browser test');
let server: RunningServer;
let browser: Browser;
let client: S3Client;

async function bucketKeys(): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(
      new ListObjectsV2Command({ Bucket: s3!.settings.bucket, ContinuationToken: token }),
    );
    keys.push(...(page.Contents ?? []).map((o) => o.Key!));
    token = page.NextContinuationToken;
  } while (token);
  return keys;
}

beforeAll(async () => {
  if (!s3) return;
  const { settings } = s3;
  client = new S3Client({
    ...settings,
    credentials: { accessKeyId: settings.accessKeyId!, secretAccessKey: settings.secretAccessKey! },
  });
  server = await startServer({
    STORAGE: 's3',
    S3_ENDPOINT: settings.endpoint!,
    S3_REGION: settings.region,
    S3_BUCKET: settings.bucket,
    S3_ACCESS_KEY_ID: settings.accessKeyId!,
    S3_SECRET_ACCESS_KEY: settings.secretAccessKey!,
    S3_FORCE_PATH_STYLE: 'true',
  });
  browser = await launchBrowser();
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  client?.destroy();
  await s3?.close();
});

describe.runIf(s3)('files with STORAGE=s3', () => {
  it('keeps uploads in the bucket and the viewer previews and downloads them', async () => {
    const before = await bucketKeys();
    // the demo data set's files went to the bucket too
    expect(before.some((k) => k.startsWith('documents/') || k.startsWith('reports/'))).toBe(true);

    const { context, page } = await newPage(browser);
    await signIn(page, server.url, 'alice');
    const png = solidPng(640, 200, [200, 60, 30]);
    const [viewer] = await attachToIncident(server.url, page, [
      { name: 'from-s3.png', type: 'image/png', body: png },
    ]);
    const added = (await bucketKeys()).filter((k) => !before.includes(k));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(/^attachments\//);

    await page.goto(`${server.url}${viewer}`);
    await page.getByTestId('file-viewer').waitFor();
    await expect.poll(() => page.getByTestId('file-title').innerText()).toBe('from-s3.png');
    const img = page.getByTestId('file-preview-image');
    await img.waitFor();
    await expect
      .poll(() =>
        img.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth),
      )
      .toBe(640);

    const download = page.waitForEvent('download');
    await page.getByTestId('file-download').click();
    const saved = await (await download).path();
    expect(readFileSync(saved).equals(png)).toBe(true);
    await context.close();
  });
});
