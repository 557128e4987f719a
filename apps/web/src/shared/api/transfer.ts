import {
  httpError,
  parseSuccess,
  performRequest,
  type ApiRequestOptions,
  type HttpMethod,
  type Transport,
  type TransportRequest,
} from './client.ts';

/** How far an upload has got. */
export interface UploadProgress {
  /** Bytes sent so far. */
  loaded: number;
  /** Bytes to send in all. */
  total: number;
  /** 0–100, rounded down. */
  percent: number;
}

/** Options of apiUpload: those of apiRequest with a multipart body and a progress callback. */
export type ApiUploadOptions<T> = Omit<ApiRequestOptions<T>, 'body' | 'method'> & {
  method?: Exclude<HttpMethod, 'GET' | 'DELETE'>;
  body: FormData;
  /** Called as the request body goes out (not for the answer). */
  onProgress?: (progress: UploadProgress) => void;
};

/**
 * Sends a multipart body with upload progress. The same session handling as apiRequest
 * (token attached, renewed before and once after a 401), the same errors and toasts; only
 * the transport differs, because fetch cannot report how much of a body has been sent.
 */
export function apiUpload<T>(path: string, options: ApiUploadOptions<T>): Promise<T> {
  const { onProgress, schema, ...rest } = options;
  return performRequest(
    path,
    { ...rest, method: options.method ?? 'POST', transport: xhrTransport(onProgress) },
    (response) => parseSuccess(response, schema),
  );
}

/** A file the server sent, with the name it suggested. */
export interface DownloadedFile {
  blob: Blob;
  /** From Content-Disposition; null when the server named none. */
  filename: string | null;
}

/** Options of apiDownload. */
export type ApiDownloadOptions = Pick<
  ApiRequestOptions<unknown>,
  'query' | 'notify' | 'errorMessage' | 'abortKey' | 'signal'
> & {
  /** Accept header, e.g. `text/csv`; JSON stays acceptable for error answers. */
  accept?: string;
  /**
   * Called as the answer's body arrives. `total` and `percent` are 0 while the server sent no
   * Content-Length (the popup then shows an indeterminate bar).
   */
  onProgress?: (progress: UploadProgress) => void;
};

/**
 * Downloads a file that needs authorisation (so a plain link cannot fetch it): the answer
 * becomes a Blob, error answers (JSON) become ApiError like every other call.
 */
export function apiDownload(path: string, options: ApiDownloadOptions = {}): Promise<DownloadedFile> {
  const { accept, onProgress, ...rest } = options;
  return performRequest(
    path,
    { ...rest, accept: accept ? `${accept}, application/json` : '*/*' },
    async (response) => {
      if (!response.ok) throw await httpError(response);
      return {
        blob: onProgress ? await readBlobWithProgress(response, onProgress) : await response.blob(),
        filename: filenameFromContentDisposition(response.headers.get('Content-Disposition')),
      };
    },
  );
}

/** Reads a body chunk by chunk, reporting how much of Content-Length has arrived. */
async function readBlobWithProgress(
  response: Response,
  onProgress: (progress: UploadProgress) => void,
): Promise<Blob> {
  const type = response.headers.get('Content-Type') ?? '';
  const declared = Number(response.headers.get('Content-Length'));
  const total = Number.isFinite(declared) && declared > 0 ? declared : 0;
  if (!response.body) {
    const blob = await response.blob();
    onProgress({ loaded: blob.size, total: blob.size, percent: 100 });
    return blob;
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.byteLength;
    onProgress({ loaded, total, percent: total > 0 ? Math.min(100, Math.floor((loaded / total) * 100)) : 0 });
  }
  onProgress({ loaded, total: total || loaded, percent: 100 });
  return new Blob(chunks as BlobPart[], { type });
}

/**
 * The file name of a Content-Disposition header: RFC 5987 `filename*=UTF-8''…` wins over a
 * plain (optionally quoted) `filename=`. Path parts are dropped.
 */
export function filenameFromContentDisposition(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  let name: string | null = null;
  if (extended?.[2]) {
    try {
      name = decodeURIComponent(extended[2].trim());
    } catch {
      name = null;
    }
  }
  if (name === null) {
    const plain = /filename\s*=\s*("((?:\\.|[^"\\])*)"|[^;]+)/i.exec(header);
    if (plain) name = plain[2] !== undefined ? plain[2].replace(/\\(.)/g, '$1') : (plain[1] ?? '').trim();
  }
  const base = name?.split(/[\\/]/).pop()?.trim();
  return base ? base : null;
}

/** The statuses whose answers carry no body (the Response constructor refuses one). */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

function parseHeaders(raw: string): Headers {
  const headers = new Headers();
  for (const line of raw.trim().split(/[\r\n]+/)) {
    const index = line.indexOf(':');
    if (index <= 0) continue;
    headers.append(line.slice(0, index).trim(), line.slice(index + 1).trim());
  }
  return headers;
}

/** XMLHttpRequest as a Transport, reporting upload progress. */
export function xhrTransport(onProgress?: (progress: UploadProgress) => void): Transport {
  return (request: TransportRequest) =>
    new Promise<Response>((resolve, reject) => {
      const abortError = () => new DOMException('The operation was aborted.', 'AbortError');
      if (request.signal.aborted) {
        reject(abortError());
        return;
      }
      const xhr = new XMLHttpRequest();
      xhr.open(request.method, request.url);
      for (const [name, value] of Object.entries(request.headers)) xhr.setRequestHeader(name, value);
      if (onProgress) {
        xhr.upload.onprogress = (event) => {
          if (!event.lengthComputable || event.total === 0) return;
          onProgress({
            loaded: event.loaded,
            total: event.total,
            percent: Math.floor((event.loaded / event.total) * 100),
          });
        };
      }
      const onAbort = () => xhr.abort();
      request.signal.addEventListener('abort', onAbort, { once: true });
      const settle = () => request.signal.removeEventListener('abort', onAbort);
      xhr.onload = () => {
        settle();
        const status = xhr.status;
        resolve(
          new Response(NULL_BODY_STATUSES.has(status) ? null : xhr.responseText, {
            status,
            statusText: xhr.statusText,
            headers: parseHeaders(xhr.getAllResponseHeaders()),
          }),
        );
      };
      xhr.onerror = () => {
        settle();
        reject(new TypeError('Network request failed'));
      };
      xhr.ontimeout = xhr.onerror;
      xhr.onabort = () => {
        settle();
        reject(abortError());
      };
      xhr.send(request.body === undefined ? null : (request.body as XMLHttpRequestBodyInit));
    });
}
