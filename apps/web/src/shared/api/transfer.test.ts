import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { installFetchBackedXhr } from '../../test/fakeXhr.ts';
import { callsTo, mockFetch } from '../../test/fetchMock.ts';
import { makeAccessToken } from '../../test/tokens.ts';
import { registerNotifier } from '../ui/notifications.tsx';
import { authStore } from './authStore.ts';
import { ApiError } from './errors.ts';
import { apiDownload, apiUpload, filenameFromContentDisposition, type UploadProgress } from './transfer.ts';

const UPLOAD = 'POST /api/v0/soc/incs/5/add_file/';
const REFRESH = 'POST /api/v0/auth/token/refresh/';
const CSV = 'GET /api/v0/soc/incs/get_csv/';
const AnswerSchema = z.object({ attachments: z.array(z.string()) });

let unregister: () => void;
const notifier = {
  error: vi.fn(),
  success: vi.fn(),
  info: vi.fn(),
  warning: vi.fn(),
  open: vi.fn(),
  destroy: vi.fn(),
};

beforeEach(() => {
  unregister = registerNotifier(notifier);
  installFetchBackedXhr();
});
afterEach(() => {
  unregister();
  vi.clearAllMocks();
});

const formWith = (...sizes: number[]) => {
  const body = new FormData();
  sizes.forEach((size, index) => body.append('attachments', new File(['x'.repeat(size)], `f${index}.txt`)));
  return body;
};

describe('apiUpload', () => {
  it('sends the multipart body with the access token and reports progress', async () => {
    const access = makeAccessToken(300);
    authStore.setTokens({ access, refresh: 'r1' });
    const fetchMock = mockFetch({ [UPLOAD]: { status: 201, body: { attachments: ['f0.txt'] } } });
    const progress: UploadProgress[] = [];

    await expect(
      apiUpload('/soc/incs/5/add_file/', {
        body: formWith(10, 30),
        schema: AnswerSchema,
        onProgress: (p) => progress.push(p),
      }),
    ).resolves.toEqual({ attachments: ['f0.txt'] });

    const [call] = callsTo(fetchMock, UPLOAD);
    expect(call?.headers.get('Authorization')).toBe(`Bearer ${access}`);
    // The browser sets the multipart boundary itself.
    expect(call?.headers.get('Content-Type')).toBeNull();
    expect(progress.map((p) => p.percent)).toEqual([50, 100]);
    expect(progress.at(-1)).toMatchObject({ loaded: 40, total: 40 });
  });

  it('renews the token once after a 401 and sends the body again', async () => {
    authStore.setTokens({ access: makeAccessToken(300), refresh: 'r1' });
    const renewed = makeAccessToken(300);
    let attempts = 0;
    const fetchMock = mockFetch({
      [REFRESH]: { body: { access: renewed, refresh: 'r2' } },
      [UPLOAD]: () =>
        ++attempts === 1 ? { status: 401, body: { detail: 'Token expired' } } : { body: { attachments: [] } },
    });
    await apiUpload('/soc/incs/5/add_file/', { body: formWith(1), schema: AnswerSchema });
    const calls = callsTo(fetchMock, UPLOAD);
    expect(calls).toHaveLength(2);
    expect(calls[1]?.headers.get('Authorization')).toBe(`Bearer ${renewed}`);
  });

  it('rejects with the server answer as an ApiError and toasts it unless told not to', async () => {
    authStore.setTokens({ access: makeAccessToken(300), refresh: 'r1' });
    mockFetch({ [UPLOAD]: { status: 413, body: { detail: 'File too large.' } } });
    const failure = apiUpload('/soc/incs/5/add_file/', {
      body: formWith(1),
      schema: AnswerSchema,
      notify: false,
    });
    await expect(failure).rejects.toMatchObject({ kind: 'http', status: 413, detail: 'File too large.' });
    expect(notifier.error).not.toHaveBeenCalled();

    await expect(
      apiUpload('/soc/incs/5/add_file/', { body: formWith(1), schema: AnswerSchema }),
    ).rejects.toBeInstanceOf(ApiError);
    expect(notifier.error).toHaveBeenCalledTimes(1);
  });
});

describe('apiDownload', () => {
  it('returns the file and the name the server suggested', async () => {
    authStore.setTokens({ access: makeAccessToken(300), refresh: 'r1' });
    const fetchMock = mockFetch({
      [CSV]: {
        body: 'key,summary',
        headers: {
          'Content-Type': 'text/csv',
          'Content-Disposition': 'attachment; filename=incidents-20260115-0930.csv',
        },
      },
    });
    const file = await apiDownload('/soc/incs/get_csv/', { query: { search: 'vpn' }, accept: 'text/csv' });
    expect(file.filename).toBe('incidents-20260115-0930.csv');
    expect(await file.blob.text()).toContain('key,summary');
    const [call] = callsTo(fetchMock, CSV);
    expect(call?.url.search).toBe('?search=vpn');
    expect(call?.headers.get('Accept')).toBe('text/csv, application/json');
  });

  it('turns an error answer into an ApiError with its JSON body', async () => {
    authStore.setTokens({ access: makeAccessToken(300), refresh: 'r1' });
    mockFetch({ [CSV]: { status: 400, body: { detail: 'Too many', code: 'max_records_exceeded' } } });
    await expect(apiDownload('/soc/incs/get_csv/', { notify: false })).rejects.toMatchObject({
      status: 400,
      data: { detail: 'Too many', code: 'max_records_exceeded' },
    });
  });
});

describe('apiDownload progress', () => {
  it('reports how much of Content-Length has arrived and ends at 100 %', async () => {
    authStore.setTokens({ access: makeAccessToken(300), refresh: 'r1' });
    const body = '%PDF-1.7 ' + 'x'.repeat(991);
    mockFetch({
      [CSV]: {
        body,
        headers: { 'Content-Type': 'application/pdf', 'Content-Length': String(JSON.stringify(body).length) },
      },
    });
    const progress: UploadProgress[] = [];
    const file = await apiDownload('/soc/incs/get_csv/', { onProgress: (p) => progress.push(p) });
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toMatchObject({ percent: 100, loaded: JSON.stringify(body).length });
    expect(progress.every((p, i) => i === 0 || p.loaded >= progress[i - 1]!.loaded)).toBe(true);
    expect(file.blob.size).toBe(JSON.stringify(body).length);
    expect(file.blob.type).toBe('application/pdf');
  });
});

describe('filenameFromContentDisposition', () => {
  it('reads plain, quoted and RFC 5987 names', () => {
    expect(filenameFromContentDisposition('attachment; filename=incidents.csv')).toBe('incidents.csv');
    expect(filenameFromContentDisposition('attachment; filename="my \\"list\\".csv"')).toBe('my "list".csv');
    expect(
      filenameFromContentDisposition(
        `attachment; filename="fallback.csv"; filename*=UTF-8''%D0%B8%D0%BD%D1%86.csv`,
      ),
    ).toBe('инц.csv');
    expect(filenameFromContentDisposition('attachment; filename="../../etc/passwd"')).toBe('passwd');
    expect(filenameFromContentDisposition('inline')).toBeNull();
    expect(filenameFromContentDisposition(null)).toBeNull();
  });
});
