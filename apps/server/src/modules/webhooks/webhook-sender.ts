import { Agent, fetch } from 'undici';
import { SsrfError, assertAllowedUrl, guardedLookup, parseCidrs } from '../../lib/ssrf-guard.ts';
import { maskWebhookUrl } from './webhooks.presenter.ts';

/** A delivery attempt's time-out and the most of an answer that is read. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
export const WEBHOOK_MAX_RESPONSE_BYTES = 64 * 1024;

export interface SendOutcome {
  /** The answer's status; null when none came (network error, time-out, refused address). */
  statusCode: number | null;
  durationMs: number;
  /** Why the attempt failed; null on a 2xx answer. */
  error: string | null;
  /** Worth another attempt: a network error, a 5xx or a 429. */
  retryable: boolean;
  /** What a 429 or 503 asked for in `Retry-After`, in milliseconds. */
  retryAfterMs: number | null;
}

/** `Retry-After` as seconds or an HTTP date, in milliseconds from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * Reads a body until `max` bytes (or its end) and cancels the rest (the answer matters only for
 * the log); returns how many bytes were read.
 */
export async function readAtMost(body: ReadableStream<Uint8Array> | null, max: number): Promise<number> {
  if (!body) return 0;
  const reader = body.getReader();
  let read = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return read;
      read += value.byteLength;
      if (read >= max) return read;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

const causeOf = (err: unknown): unknown => (err instanceof Error && err.cause ? causeOf(err.cause) : err);

/** `text` without the URL's secrets, should an error message ever quote the URL or its path. */
export function withoutSecrets(text: string, url: string): string {
  let path = '';
  try {
    const { pathname, search } = new URL(url);
    path = `${pathname}${search}`;
  } catch {
    // an unparsable URL never reached a socket
  }
  const masked = text.split(url).join(maskWebhookUrl(url));
  return path.length > 1 ? masked.split(path).join('/…') : masked;
}

/**
 * Posts webhook bodies: only to allowed addresses (checked before the request and again for
 * every address the socket connects to), redirects never followed, 10 s for the whole attempt
 * and at most 64 KB of the answer read.
 */
export function createWebhookSender(options: { allowPrivateCidrs: readonly string[]; timeoutMs?: number }) {
  const allow = parseCidrs(options.allowPrivateCidrs);
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const agent = new Agent({
    connect: { lookup: guardedLookup(allow), timeout: timeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });

  return {
    /** Checks a target before it is saved (the same rule as at sending). */
    check: (url: string) => assertAllowedUrl(url, allow),

    async send(url: string, headers: Record<string, string>, body: string): Promise<SendOutcome> {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      try {
        await assertAllowedUrl(url, allow);
        const res = await fetch(url, {
          method: 'POST',
          headers,
          body,
          redirect: 'manual',
          signal: AbortSignal.timeout(timeoutMs),
          dispatcher: agent,
        });
        await readAtMost(res.body as ReadableStream<Uint8Array> | null, WEBHOOK_MAX_RESPONSE_BYTES);
        const statusCode = res.status;
        if (statusCode >= 200 && statusCode < 300) {
          return { statusCode, durationMs: elapsed(), error: null, retryable: false, retryAfterMs: null };
        }
        const retryable = statusCode >= 500 || statusCode === 429;
        return {
          statusCode,
          durationMs: elapsed(),
          error: statusCode >= 300 && statusCode < 400 ? 'redirect not followed' : `HTTP ${statusCode}`,
          retryable,
          retryAfterMs: retryable ? parseRetryAfter(res.headers.get('retry-after')) : null,
        };
      } catch (err) {
        const cause = causeOf(err);
        const refused =
          (cause instanceof SsrfError && cause.reason !== 'unresolved') ||
          (cause as { code?: string })?.code === 'ESSRF';
        const timedOut = (cause as { name?: string })?.name === 'TimeoutError';
        const message = refused
          ? `refused: ${(cause as Error).message}`
          : timedOut
            ? `no answer within ${timeoutMs / 1000} s`
            : `network error: ${(cause as { code?: string })?.code ?? (cause as Error)?.message ?? 'unknown'}`;
        return {
          statusCode: null,
          durationMs: elapsed(),
          // kept in the delivery log and the job's result
          error: withoutSecrets(message, url),
          retryable: !refused,
          retryAfterMs: null,
        };
      }
    },

    close: () => agent.close(),
  };
}

export type WebhookSender = ReturnType<typeof createWebhookSender>;
