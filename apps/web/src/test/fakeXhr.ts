import { vi } from 'vitest';

type Handler = ((this: XMLHttpRequest, event: ProgressEvent) => void) | null;

/**
 * XMLHttpRequest for jsdom that hands each request to the global fetch (so mockFetch routes
 * and callsTo see uploads too) and reports upload progress: half the body at once, all of it
 * when the answer arrives.
 */
class FetchBackedXhr {
  status = 0;
  statusText = '';
  responseText = '';
  readonly upload: { onprogress: Handler } = { onprogress: null };
  onload: Handler = null;
  onerror: Handler = null;
  ontimeout: Handler = null;
  onabort: Handler = null;
  private method = 'GET';
  private url = '';
  private readonly headers: Record<string, string> = {};
  private responseHeaders = new Headers();
  private readonly controller = new AbortController();

  open(method: string, url: string): void {
    this.method = method;
    this.url = url;
  }

  setRequestHeader(name: string, value: string): void {
    this.headers[name] = value;
  }

  getAllResponseHeaders(): string {
    return [...this.responseHeaders.entries()].map(([name, value]) => `${name}: ${value}\r\n`).join('');
  }

  abort(): void {
    this.controller.abort();
  }

  send(body: Document | XMLHttpRequestBodyInit | null): void {
    const total =
      body instanceof FormData
        ? body.getAll('attachments').reduce((sum, part) => sum + (part instanceof Blob ? part.size : 0), 0)
        : 1;
    const progress = (loaded: number) =>
      this.upload.onprogress?.call(
        this as unknown as XMLHttpRequest,
        new ProgressEvent('progress', { lengthComputable: true, loaded, total }),
      );
    queueMicrotask(() => progress(Math.floor(total / 2)));
    fetch(this.url, {
      method: this.method,
      headers: this.headers,
      body: body as BodyInit | null,
      signal: this.controller.signal,
    }).then(
      async (response) => {
        progress(total);
        this.status = response.status;
        this.statusText = response.statusText;
        this.responseHeaders = response.headers;
        this.responseText = await response.text();
        this.onload?.call(this as unknown as XMLHttpRequest, new ProgressEvent('load'));
      },
      () => {
        const handler = this.controller.signal.aborted ? this.onabort : this.onerror;
        handler?.call(this as unknown as XMLHttpRequest, new ProgressEvent('error'));
      },
    );
  }
}

/** Replaces XMLHttpRequest with the fetch-backed fake until the test's globals are restored. */
export function installFetchBackedXhr(): void {
  vi.stubGlobal('XMLHttpRequest', FetchBackedXhr);
}
