/**
 * A small client for Sentry-compatible `store` endpoints (Sentry, GlitchTip, Bugsink…): enough
 * for front-end errors and token failures without pulling in an SDK. Off until configured with
 * a DSN. Nothing secret leaves the browser: query strings are dropped from URLs and
 * token-, password- and Authorization-like values are masked in every text sent.
 */

/** Severity of an event, as the store endpoint understands it. */
export type ErrorLevel = 'fatal' | 'error' | 'warning' | 'info';

/** Where to send events, taken from a DSN `https://PUBLIC_KEY@HOST[/PATH]/PROJECT_ID`. */
export interface ParsedDsn {
  publicKey: string;
  projectId: string;
  /** Full URL of the store endpoint, authentication included in its query. */
  storeUrl: string;
}

/** One frame of a stack trace, oldest first as the event format expects. */
export interface StackFrame {
  function?: string;
  filename: string;
  lineno?: number;
  colno?: number;
  in_app: boolean;
}

/** The event body posted to the store endpoint. */
export interface ReportEvent {
  event_id: string;
  timestamp: string;
  platform: 'javascript';
  level: ErrorLevel;
  release: string;
  environment: string;
  message?: { formatted: string };
  exception?: { values: Array<{ type: string; value: string; stacktrace?: { frames: StackFrame[] } }> };
  request: { url: string; headers?: Record<string, string> };
  tags: Record<string, string>;
}

/** Extra data a caller may attach to an event. */
export interface ReportContext {
  level?: ErrorLevel;
  /** Short searchable labels (`source: boundary`, `status: 401`). */
  tags?: Record<string, string>;
}

/** Parses a DSN; null when it is not one. */
export function parseDsn(dsn: string): ParsedDsn | null {
  let url: URL;
  try {
    url = new URL(dsn);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const publicKey = decodeURIComponent(url.username);
  const segments = url.pathname.split('/').filter(Boolean);
  const projectId = segments.pop();
  if (!publicKey || !projectId) return null;
  const basePath = segments.map((segment) => `/${segment}`).join('');
  const storeUrl =
    `${url.protocol}//${url.host}${basePath}/api/${encodeURIComponent(projectId)}/store/` +
    `?sentry_version=7&sentry_key=${encodeURIComponent(publicKey)}`;
  return { publicKey, projectId, storeUrl };
}

const FILTERED = '[Filtered]';
const JWT_PATTERN = /eyJ[\w-]+\.[\w-]+\.[\w-]*/g;
const AUTH_SCHEME_PATTERN = /\b(Bearer|OIDC|Basic)\s+[\w\-.~+/]+=*/gi;
const SECRET_ASSIGNMENT_PATTERN =
  /\b((?:password|passwd|pwd|secret|token|access|refresh|mfa_token|otp|authorization)["']?\s*[:=]\s*["']?)[^\s"'&,;}]+/gi;

/** Masks values that look like tokens, passwords or Authorization headers. */
export function scrubText(text: string): string {
  return text
    .replace(JWT_PATTERN, FILTERED)
    .replace(AUTH_SCHEME_PATTERN, `$1 ${FILTERED}`)
    .replace(SECRET_ASSIGNMENT_PATTERN, `$1${FILTERED}`);
}

/** A URL without its query string and fragment (OIDC callbacks carry codes there). */
export const stripQuery = (url: string): string => url.split(/[?#]/, 1)[0] ?? '';

const CHROME_FRAME = /^\s*at (?:(.+?) \()?(.+?):(\d+):(\d+)\)?\s*$/;
const FIREFOX_FRAME = /^\s*(.*?)@(.+?):(\d+):(\d+)\s*$/;

/** Parses V8 and SpiderMonkey/JavaScriptCore stack traces; unknown lines are skipped. */
export function parseStack(stack: string | undefined): StackFrame[] {
  if (!stack) return [];
  const frames: StackFrame[] = [];
  for (const line of stack.split('\n')) {
    const match = CHROME_FRAME.exec(line) ?? FIREFOX_FRAME.exec(line);
    if (!match) continue;
    const [, fn, file = '', lineNo, colNo] = match;
    const filename = stripQuery(file);
    frames.push({
      ...(fn ? { function: fn } : {}),
      filename,
      lineno: Number(lineNo),
      colno: Number(colNo),
      in_app: filename.startsWith(window.location.origin) || filename.startsWith('/'),
    });
  }
  // Stack traces list the newest call first; the event format wants the oldest first.
  return frames.reverse();
}

const randomHex32 = (): string => {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
};

/** Input of buildEvent: either an error (any thrown value) or a plain message. */
export interface EventInput extends ReportContext {
  error?: unknown;
  message?: string;
  release: string;
  environment: string;
  /** Page URL; its query string is dropped. */
  url: string;
  now?: Date;
}

/** Builds a store-endpoint event from an error or a message, with secrets masked. */
export function buildEvent(input: EventInput): ReportEvent {
  const event: ReportEvent = {
    event_id: randomHex32(),
    timestamp: (input.now ?? new Date()).toISOString(),
    platform: 'javascript',
    level: input.level ?? 'error',
    release: input.release,
    environment: input.environment,
    request: { url: stripQuery(input.url) },
    tags: { ...input.tags },
  };
  if (input.error !== undefined) {
    const error = input.error;
    const type = error instanceof Error ? error.name || 'Error' : 'Error';
    const value = scrubText(error instanceof Error ? error.message : describeNonError(error));
    const frames = error instanceof Error ? parseStack(error.stack) : [];
    event.exception = {
      values: [{ type, value, ...(frames.length > 0 ? { stacktrace: { frames } } : {}) }],
    };
    if (input.message) event.message = { formatted: scrubText(input.message) };
  } else {
    event.message = { formatted: scrubText(input.message ?? 'Unknown error') };
  }
  return event;
}

function describeNonError(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Stops a loop of failing renders from flooding the collector. */
const MAX_EVENTS_PER_PAGE = 30;

interface ActiveReporter {
  storeUrl: string;
  release: string;
  environment: string;
  sent: number;
}

let active: ActiveReporter | null = null;

/** Settings of the reporter; a null or invalid DSN turns it off. */
export interface ErrorReportingConfig {
  dsn: string | null;
  release: string;
  environment: string;
}

/** Turns reporting on (valid DSN) or off (null). */
export function configureErrorReporting(config: ErrorReportingConfig): void {
  const parsed = config.dsn ? parseDsn(config.dsn) : null;
  if (config.dsn && !parsed) console.warn('Error reporting is off: the DSN is not valid');
  active = parsed
    ? { storeUrl: parsed.storeUrl, release: config.release, environment: config.environment, sent: 0 }
    : null;
}

/** True when events are being sent. */
export const isErrorReportingEnabled = (): boolean => active !== null;

function send(input: Omit<EventInput, 'release' | 'environment' | 'url'>): void {
  const reporter = active;
  if (!reporter || reporter.sent >= MAX_EVENTS_PER_PAGE) return;
  reporter.sent += 1;
  const event = buildEvent({
    ...input,
    release: reporter.release,
    environment: reporter.environment,
    url: window.location.href,
  });
  // text/plain keeps this a "simple" request, so no CORS preflight is needed.
  fetch(reporter.storeUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'text/plain;charset=UTF-8' },
    body: JSON.stringify(event),
    keepalive: true,
    credentials: 'omit',
  }).catch((sendError: unknown) => {
    console.warn('Could not send an error report', sendError);
  });
}

/** Reports a thrown value (no-op while reporting is off). */
export function reportError(error: unknown, context: ReportContext = {}): void {
  send({ ...context, error });
}

/** Reports a message without an exception (no-op while reporting is off). */
export function reportMessage(message: string, context: ReportContext = {}): void {
  send({ ...context, message });
}

const isAbortError = (value: unknown): boolean =>
  value instanceof DOMException && value.name === 'AbortError';

/**
 * Reports uncaught errors and unhandled promise rejections of `target`. Returns the function
 * that removes the listeners.
 */
export function installGlobalErrorHandlers(target: Window = window): () => void {
  const onError = (event: ErrorEvent) => {
    reportError(event.error ?? event.message, { tags: { source: 'window.onerror' } });
  };
  const onRejection = (event: PromiseRejectionEvent) => {
    // Aborted requests are an expected outcome, never an error (design §7).
    if (isAbortError(event.reason)) return;
    reportError(event.reason, { tags: { source: 'unhandledrejection' } });
  };
  target.addEventListener('error', onError);
  target.addEventListener('unhandledrejection', onRejection);
  return () => {
    target.removeEventListener('error', onError);
    target.removeEventListener('unhandledrejection', onRejection);
  };
}
