import { useSyncExternalStore } from 'react';
import { apiDownload, ApiError, errorDescription, isAbortedError, type QueryParams } from '../api/index.ts';
import { saveFile } from '../lib/saveFile.ts';

/** Where a download stands: running, saved, or failed (product §A8: "marks the item as an exception"). */
export type DownloadStatus = 'active' | 'success' | 'exception';

/** What the download popup shows for one file. */
export interface DownloadItem {
  id: string;
  /** The name the file is saved under (the server's name once it has answered). */
  filename: string;
  status: DownloadStatus;
  /** 0–100. */
  percent: number;
  /** True while the size is unknown (no Content-Length). */
  indeterminate: boolean;
  /** Why it failed, for the popup. */
  error: string | null;
}

/** An authorised file to fetch and save. */
export interface DownloadRequest {
  /** API path under /api/v0, e.g. `/soc/incs/12/get_pdf_inc/`. */
  path: string;
  query?: QueryParams;
  accept?: string;
  /** Saved under this name when the server suggests none. */
  filename: string;
}

/** How long a finished download stays listed before it leaves the popup. */
export const DOWNLOAD_DONE_LINGER_MS = 3000;

interface Entry {
  item: DownloadItem;
  request: DownloadRequest;
  controller: AbortController | null;
}

const entries = new Map<string, Entry>();
const listeners = new Set<() => void>();
let snapshot: readonly DownloadItem[] = [];
let sequence = 0;

function publish(): void {
  snapshot = [...entries.values()].map((entry) => entry.item);
  for (const listener of listeners) listener();
}

function update(id: string, patch: Partial<DownloadItem>): void {
  const entry = entries.get(id);
  if (!entry) return;
  entry.item = { ...entry.item, ...patch };
  publish();
}

function failureText(error: unknown): string {
  if (error instanceof ApiError) return errorDescription(error).join(' ') || error.message;
  return error instanceof Error ? error.message : String(error);
}

async function run(id: string): Promise<void> {
  const entry = entries.get(id);
  if (!entry) return;
  const controller = new AbortController();
  entry.controller = controller;
  update(id, { status: 'active', percent: 0, indeterminate: true, error: null });
  try {
    const file = await apiDownload(entry.request.path, {
      query: entry.request.query,
      accept: entry.request.accept,
      signal: controller.signal,
      notify: false,
      onProgress: ({ percent, total }) => update(id, { percent, indeterminate: total === 0 }),
    });
    const filename = file.filename ?? entry.request.filename;
    saveFile(file.blob, filename);
    update(id, { status: 'success', percent: 100, indeterminate: false, filename });
    setTimeout(() => removeDownload(id), DOWNLOAD_DONE_LINGER_MS);
  } catch (error) {
    // A removed download was aborted on purpose: nothing to report.
    if (isAbortedError(error) || !entries.has(id)) return;
    update(id, { status: 'exception', indeterminate: false, error: failureText(error) });
  } finally {
    if (entries.get(id)?.controller === controller) entry.controller = null;
  }
}

/**
 * Fetches an authorised file, saves it and lists it in the download popup with its progress;
 * a failed download stays listed with retry and remove. Returns the item's id.
 */
export function startDownload(request: DownloadRequest): string {
  sequence += 1;
  const id = `download-${sequence}`;
  entries.set(id, {
    request,
    controller: null,
    item: { id, filename: request.filename, status: 'active', percent: 0, indeterminate: true, error: null },
  });
  publish();
  void run(id);
  return id;
}

/** Starts a failed download again. */
export function retryDownload(id: string): void {
  const entry = entries.get(id);
  if (!entry || entry.item.status === 'active') return;
  void run(id);
}

/** Drops a download from the list (aborting it if it is still running). */
export function removeDownload(id: string): void {
  const entry = entries.get(id);
  if (!entry) return;
  entries.delete(id);
  entry.controller?.abort();
  publish();
}

/** Forgets every download (tests; logout). */
export function clearDownloads(): void {
  for (const id of [...entries.keys()]) removeDownload(id);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The downloads listed in the popup, oldest first. */
export function useDownloads(): readonly DownloadItem[] {
  return useSyncExternalStore(subscribe, () => snapshot);
}
