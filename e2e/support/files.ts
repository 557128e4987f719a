import type { Page } from 'playwright-core';
import { apiCall } from './api.ts';

export interface FileToAttach {
  name: string;
  type: string;
  body: Buffer;
}

/** Attaches files to the newest incident the signed-in user sees; answers their viewer paths. */
export async function attachToIncident(
  baseUrl: string,
  page: Page,
  files: FileToAttach[],
): Promise<string[]> {
  const list = await apiCall<{ results: { key: number }[] }>(baseUrl, page, '/soc/incs/?limit=1');
  const key = list.results[0]!.key;
  const form = new FormData();
  for (const f of files)
    form.append('attachments', new Blob([new Uint8Array(f.body)], { type: f.type }), f.name);
  const stored = await apiCall<{ attachments: { id: string }[] }>(
    baseUrl,
    page,
    `/soc/incs/${key}/add_file/`,
    {
      method: 'POST',
      body: form,
    },
  );
  return stored.attachments.map((a) => `/files/download/incidents/${key}/${a.id}`);
}
