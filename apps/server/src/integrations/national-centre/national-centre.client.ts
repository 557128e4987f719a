/** What the portal reports to the national incident-reporting centre (GosSOPKA). */
export interface NationalCentreReport {
  /** The portal's incident id: the centre deduplicates on it. */
  external_id: string;
  key: number;
  summary: string;
  description: string;
  category: string;
  priority: string;
  system: { is_id: string; name: string };
  created: string;
  detected: string | null;
  affected_hosts: string[];
  iocs: { ioc: string; ioc_type: string }[];
  techniques: string[];
}

/** A failed send; `retryable` for time-outs, network errors and 5xx answers. */
export class NationalCentreError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'NationalCentreError';
  }
}

export interface NationalCentreClientOptions {
  /** Base URL of the centre's API, e.g. `https://gossopka.example/api/v1`. */
  url: string;
  username?: string;
  password?: string;
  timeoutMs: number;
}

export interface NationalCentreClient {
  /** Registers the incident; repeating a call with the same key returns the same centre id. */
  send(report: NationalCentreReport, idempotencyKey: string): Promise<{ id: string }>;
}

/**
 * HTTP connector: `POST {url}/incidents` with Basic credentials and an `Idempotency-Key`, so that
 * a retry after a lost answer never registers the incident twice.
 */
export function createNationalCentreClient(options: NationalCentreClientOptions): NationalCentreClient {
  const base = options.url.replace(/\/$/, '');
  const auth =
    options.username !== undefined
      ? `Basic ${Buffer.from(`${options.username}:${options.password ?? ''}`).toString('base64')}`
      : undefined;
  return {
    async send(report, idempotencyKey) {
      let res: Response;
      try {
        res = await fetch(`${base}/incidents`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            'idempotency-key': idempotencyKey,
            ...(auth ? { authorization: auth } : {}),
          },
          body: JSON.stringify(report),
          signal: AbortSignal.timeout(options.timeoutMs),
        });
      } catch (err) {
        const timeout = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
        throw new NationalCentreError(
          timeout
            ? `The national centre did not answer within ${Math.round(options.timeoutMs / 1000)} s.`
            : 'The national centre is unreachable.',
          true,
        );
      }
      const text = await res.text().catch(() => '');
      if (res.status >= 500) {
        throw new NationalCentreError(`The national centre answered ${res.status}.`, true);
      }
      if (!res.ok) {
        let detail = '';
        try {
          const parsed = (JSON.parse(text) as { detail?: unknown }).detail;
          detail = typeof parsed === 'string' ? parsed : '';
        } catch {
          // not JSON: the status says enough
        }
        throw new NationalCentreError(
          `The national centre refused the incident (${res.status}${detail ? `: ${detail.slice(0, 200)}` : ''}).`,
          false,
        );
      }
      let id: unknown;
      try {
        id = (JSON.parse(text) as { id?: unknown }).id;
      } catch {
        id = undefined;
      }
      if (typeof id !== 'string' || !id) {
        throw new NationalCentreError('The national centre answered without an incident id.', true);
      }
      return { id };
    },
  };
}
