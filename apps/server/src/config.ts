// Over 400 lines on purpose: the env schema, Config, loadConfig and testConfig list every setting in step.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { isWorkMem } from './db/work-mem.ts';
import { isCidr } from './lib/ssrf-guard.ts';
import { PRIVATE_FILE_MODE, ensurePrivateDir } from './core/private-files.ts';
import {
  OidcProviderConfigSchema,
  ROUTE_LIMIT_DEFAULTS,
  WEBHOOK_QUEUE_DEFAULTS,
  routeLimitsOff,
} from './core/config.ts';
import type { Config, OidcProviderConfig, TrustProxy } from './core/config.ts';

const boolFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** Requests a window of a bucket's rate limit; 0 lifts that limit. */
const limitCount = (fallback: number) => z.coerce.number().int().min(0).max(1_000_000).default(fallback);
const D = ROUTE_LIMIT_DEFAULTS;

/** Environment variables the server reads; README.md documents each one. */
const EnvSchema = z.object({
  NODE_ENV: z.enum(['production', 'development', 'test']).default('production'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** Public origin of absolute `next`/`previous` links; unset: links relative to the root (never the Host header). */
  PUBLIC_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./data'),
  ATTACK_STIX_PATH: z.string().optional(),
  DATABASE_URL: z.string().optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /** PostgreSQL's work_mem for the portal's connections; empty: the server's own setting. */
  DATABASE_WORK_MEM: z
    .string()
    .default('32MB')
    .refine((v) => !v || isWorkMem(v), 'a size from 64kB to 2047GB such as 32MB, or empty'),
  JWT_SECRET: z.string().min(32).optional(),
  /** The signing key before the last rotation: its tokens still verify until they expire. */
  JWT_SECRET_PREVIOUS: z.string().min(32).optional(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).max(3600).default(300),
  REFRESH_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(300)
    .default(14 * 24 * 3600),
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  AUTH_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  REDIS_KEY_PREFIX: z.string().default('soc-portal:'),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  RATE_LIMIT_EXPORT_PER_USER: limitCount(D.export.perUser),
  RATE_LIMIT_EXPORT_PER_SYSTEM: limitCount(D.export.perSystem),
  RATE_LIMIT_REPORT_PER_USER: limitCount(D.report.perUser),
  RATE_LIMIT_REPORT_PER_SYSTEM: limitCount(D.report.perSystem),
  RATE_LIMIT_COMMENT_PER_USER: limitCount(D.comment.perUser),
  RATE_LIMIT_COMMENT_PER_SYSTEM: limitCount(D.comment.perSystem),
  RATE_LIMIT_UPLOAD_PER_USER: limitCount(D.upload.perUser),
  RATE_LIMIT_UPLOAD_PER_SYSTEM: limitCount(D.upload.perSystem),
  RATE_LIMIT_INCIDENT_PER_USER: limitCount(D.incident.perUser),
  RATE_LIMIT_INCIDENT_PER_SYSTEM: limitCount(D.incident.perSystem),
  RATE_LIMIT_PDF_PER_USER: limitCount(D.pdf.perUser),
  RATE_LIMIT_PDF_PER_SYSTEM: limitCount(D.pdf.perSystem),
  RATE_LIMIT_FEED_PER_USER: limitCount(D.feed.perUser),
  RATE_LIMIT_FEED_PER_SYSTEM: limitCount(D.feed.perSystem),
  RATE_LIMIT_LAYER_PER_USER: limitCount(D.layer.perUser),
  RATE_LIMIT_LAYER_PER_SYSTEM: limitCount(D.layer.perSystem),
  RATE_LIMIT_WEBHOOK_TEST_PER_USER: limitCount(D.webhook_test.perUser),
  RATE_LIMIT_WEBHOOK_TEST_PER_SYSTEM: limitCount(D.webhook_test.perSystem),
  /** Bytes of uploaded files a system may keep; 0: no quota. */
  STORAGE_QUOTA_BYTES_PER_SYSTEM: z.coerce
    .number()
    .int()
    .min(0)
    .default(20 * 1024 ** 3),
  /** Where files live: `local` (the folder DATA_DIR/files) or `s3` (an S3-compatible bucket). */
  STORAGE: z.enum(['local', 's3']).default('local'),
  /** The S3 service's URL (MinIO, Ceph RGW); unset: AWS S3 of S3_REGION. */
  S3_ENDPOINT: z
    .string()
    .regex(/^https?:\/\/[^/]/, 'an http:// or https:// URL')
    .optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_BUCKET: z.string().min(3).max(63).optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Path-style URLs (`host/bucket/key`): MinIO and Ceph need it. */
  S3_FORCE_PATH_STYLE: boolFromEnv,
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('SOC Portal <no-reply@soc-portal.local>'),
  MAIL_ATTACHMENT_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(10 * 1024 * 1024),
  CSV_SYNC_MAX_ROWS: z.coerce.number().int().min(1).default(10_000),
  CSV_ASYNC_MAX_ROWS: z.coerce.number().int().min(1).default(1_000_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Which proxies' `X-Forwarded-For` to believe: `true`/`false`, a hop count (`1`: the nearest
   * proxy) or a comma-separated list of addresses and CIDR ranges.
   */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v, issue) => {
      const parsed = parseTrustProxy(v);
      if (parsed === null) {
        issue.addIssue({
          code: 'custom',
          message: 'true, false, a hop count or a list of addresses/CIDR ranges',
        });
        return z.NEVER;
      }
      return parsed;
    }),
  /** A listener of its own for GET /metrics (Prometheus); unset: none. */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /** GET /metrics on the main port for a caller with `Authorization: Bearer <token>`; unset: none. */
  METRICS_TOKEN: z.string().min(32, 'at least 32 characters').optional(),
  WEB_DIST: z.string().optional(),
  HTTP_COMPRESSION: z.enum(['on', 'off', 'true', 'false', '1', '0']).default('on'),
  HTTP_COMPRESSION_BROTLI_QUALITY: z.coerce.number().int().min(0).max(11).default(4),
  HTTP_COMPRESSION_GZIP_LEVEL: z.coerce.number().int().min(1).max(9).default(6),
  PORTAL_NAME: z.string().min(1).default('SOC Portal'),
  PORTAL_LOGO_URL: z.string().optional(),
  PORTAL_PRIMARY_COLOR: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/)
    .default('#1668dc'),
  BRAND_HIDE_OIDC_BUTTONS: boolFromEnv,
  BRAND_HIDE_EPS_WIDGET: boolFromEnv,
  BRAND_ALTERNATE_CATEGORY_FILTER: boolFromEnv,
  ERROR_REPORTING_DSN: z.string().url().optional(),
  MFA_RESEND_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  MFA_CODE_TTL_SECONDS: z.coerce.number().int().min(30).max(3600).default(300),
  SMS_GATEWAY_URL: z.string().url().optional(),
  SMS_GATEWAY_AUTH_HEADER: z.string().optional(),
  SMS_GATEWAY_USERNAME: z.string().optional(),
  SMS_GATEWAY_PASSWORD: z.string().optional(),
  SMS_GATEWAY_BODY_TEMPLATE: z.string().default('{"to":"{{phone}}","text":"{{text}}"}'),
  SMS_GATEWAY_CONTENT_TYPE: z.string().default('application/json'),
  SMS_TEXT_TEMPLATE: z
    .string()
    .default('{{code}} is your SOC Portal sign-in code. It expires in {{minutes}} minutes.'),
  SMS_MAX_PER_USER_PER_HOUR: z.coerce.number().int().min(1).default(10),
  SMS_OUTBOX: z.enum(['true', 'false', '1', '0', 'yes', 'no']).optional(),
  /** Whether an empty database gets the demo data set at start (anything but `false`); the SMS outbox too. */
  DEMO_DATA: z.string().optional(),
  DEMO_INCIDENTS: z.coerce.number().int().min(0).max(10_000_000).default(5000),
  OIDC_PROVIDERS: z.string().optional(),
  SSO_HEADER: z.string().optional(),
  SSO_SHARED_SECRET: z.string().min(16).optional(),
  SSO_SECRET_HEADER: z.string().default('x-sso-secret'),
  SSO_TRUSTED_PROXIES: z.string().optional(),
  SSO_MATCH: z.enum(['username', 'email']).default('username'),
  EXTERNAL_LOGIN_MFA: z.enum(['portal', 'idp']).default('portal'),
  GOSSOPKA_URL: z.string().url().optional(),
  GOSSOPKA_USERNAME: z.string().optional(),
  GOSSOPKA_PASSWORD: z.string().optional(),
  GOSSOPKA_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  NATIONAL_CENTRE_NAME: z.string().min(1).default('НКЦКИ'),
  NATIONAL_CENTRE_MAIL_DOMAIN: z.string().min(1).default('cert.gov.ru'),
  INBOUND_MAIL_TOKEN: z.string().min(16).optional(),
  INBOUND_MAIL_AUTHSERV_ID: z.string().min(1).default('mx.soc-portal.local'),
  INBOUND_MAIL_ADDRESS: z.string().email().default('incidents@soc-portal.local'),
  JOB_LEASE_SECONDS: z.coerce.number().int().min(2).max(86_400).default(600),
  /**
   * Private address ranges (CIDR, comma separated) that webhook endpoints may reach anyway, e.g.
   * `10.20.0.0/16,127.0.0.1/32`; empty: every private, loopback, link-local and metadata address is refused.
   */
  WEBHOOK_ALLOW_PRIVATE_CIDRS: z
    .string()
    .default('')
    .refine((v) => v.split(',').every((c) => !c.trim() || isCidr(c.trim())), 'comma-separated CIDR ranges'),
  /** The first webhook retry waits about this long; each further one twice as long (at most an hour). */
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
  /** Deliveries waiting to be sent (first attempt or retry) an endpoint may have; more are not sent. */
  WEBHOOK_QUEUE_MAX_PER_ENDPOINT: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(WEBHOOK_QUEUE_DEFAULTS.queueMaxPerEndpoint),
  /** The same over all endpoints of a system. */
  WEBHOOK_QUEUE_MAX_PER_SYSTEM: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000_000)
    .default(WEBHOOK_QUEUE_DEFAULTS.queueMaxPerSystem),
  JOB_RETRY_BASE_MS: z.coerce.number().int().min(10).max(3_600_000).default(5_000),
  REPORT_MAX_ATTACHMENT_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(10 * 1024 * 1024),
});

function parseOidcProviders(raw: string | undefined): OidcProviderConfig[] {
  if (!raw?.trim()) return [];
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new Error('Invalid configuration:\nOIDC_PROVIDERS: not valid JSON');
  }
  const parsed = z.array(OidcProviderConfigSchema).safeParse(json);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `OIDC_PROVIDERS.${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const names = new Set(parsed.data.map((p) => p.name));
  if (names.size !== parsed.data.length)
    throw new Error('Invalid configuration:\nOIDC_PROVIDERS: duplicate name');
  return parsed.data;
}

/**
 * TRUST_PROXY: empty or `false` trusts no proxy; `true` every hop (only where no client can reach
 * the server but through the proxy); a hop count; or the proxies' addresses and CIDR ranges
 * (or proxy-addr's names `loopback`, `linklocal`, `uniquelocal`).
 * null: none of these.
 */
export function parseTrustProxy(raw: string | undefined): TrustProxy | null {
  const value = (raw ?? '').trim();
  if (['', 'false', '0', 'no'].includes(value)) return false;
  if (['true', 'yes'].includes(value)) return true;
  if (/^\d+$/.test(value)) return Number(value);
  const list = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  // proxy-addr's names of ranges are accepted too
  const address = (item: string) =>
    ['loopback', 'linklocal', 'uniquelocal'].includes(item) ||
    // IPv6, or IPv4 in its four-part form only (`10.5` would mean 10.0.0.5)
    ((item.includes(':') || /^\d{1,3}(\.\d{1,3}){3}(\/\d{1,2})?$/.test(item)) &&
      isCidr(item.includes('/') ? item : `${item}/${item.includes(':') ? 128 : 32}`));
  return list.length && list.every(address) ? list : null;
}

/**
 * Fastify's `trustProxy` for a TrustProxy: a hop count as a function of the hop (Fastify itself
 * refuses counts, since a client that reaches the server directly then chooses its address: a
 * count only suits a server that nothing but the proxy can reach, README.md "TRUST_PROXY").
 */
export function fastifyTrustProxy(
  tp: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof tp === 'number' ? (_address: string, hop: number) => hop < tp : tp;
}

/**
 * The signing key comes from JWT_SECRET; without it an embedded installation keeps a random
 * key in its data folder so that sessions survive restarts. A PostgreSQL deployment with
 * several instances must set JWT_SECRET so that all instances share it.
 */
function loadJwtSecret(
  secret: string | undefined,
  dataDir: string,
  databaseUrl: string | undefined,
): Uint8Array {
  if (secret) return new TextEncoder().encode(secret);
  if (databaseUrl && process.env.NODE_ENV === 'production') {
    throw new Error('JWT_SECRET (32 characters or more) is required when DATABASE_URL is set');
  }
  const file = path.join(dataDir, 'jwt-secret');
  ensurePrivateDir(dataDir);
  if (!existsSync(file)) {
    writeFileSync(file, randomBytes(48).toString('base64url'), { mode: PRIVATE_FILE_MODE });
  }
  chmodSync(file, PRIVATE_FILE_MODE);
  return new TextEncoder().encode(readFileSync(file, 'utf8').trim());
}

/** JWT_SECRET_PREVIOUS, only beside a JWT_SECRET that differs from it (a rotation). */
function previousJwtSecret(
  current: string | undefined,
  previous: string | undefined,
): Uint8Array | undefined {
  if (!previous) return undefined;
  if (!current) throw new Error('JWT_SECRET_PREVIOUS needs JWT_SECRET (the new key) beside it');
  if (previous === current) throw new Error('JWT_SECRET_PREVIOUS must differ from JWT_SECRET');
  return new TextEncoder().encode(previous);
}

const defaultWebDist = (): string | undefined => {
  const candidate = path.resolve(import.meta.dirname, '../../web/dist');
  return existsSync(path.join(candidate, 'index.html')) ? candidate : undefined;
};

/**
 * STORAGE and the S3_* settings. The bucket is required for STORAGE=s3; the keys come as a pair
 * or not at all (then the SDK's own chain: environment, instance role). The S3 settings are kept
 * with STORAGE=local too, for `files migrate --to s3`.
 */
function storageConfig(e: z.infer<typeof EnvSchema>): Pick<Config, 'storage'> {
  const problems = [
    e.STORAGE === 's3' && !e.S3_BUCKET && 'S3_BUCKET: required when STORAGE=s3',
    !e.S3_ACCESS_KEY_ID !== !e.S3_SECRET_ACCESS_KEY &&
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both or neither',
  ].filter(Boolean);
  if (problems.length) throw new Error(`Invalid configuration:\n${problems.join('\n')}`);
  const s3 = e.S3_BUCKET
    ? {
        endpoint: e.S3_ENDPOINT,
        region: e.S3_REGION,
        bucket: e.S3_BUCKET,
        accessKeyId: e.S3_ACCESS_KEY_ID,
        secretAccessKey: e.S3_SECRET_ACCESS_KEY,
        forcePathStyle: e.S3_FORCE_PATH_STYLE,
      }
    : undefined;
  if (e.STORAGE === 's3' && s3) return { storage: { driver: 's3', s3 } };
  return { storage: { driver: 'local', s3 } };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.SSO_HEADER && !e.SSO_SHARED_SECRET && !e.SSO_TRUSTED_PROXIES?.trim()) {
    // anyone could send the header otherwise
    throw new Error('Invalid configuration:\nSSO_HEADER needs SSO_SHARED_SECRET or SSO_TRUSTED_PROXIES');
  }
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    ...storageConfig(e),
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    publicUrl: e.PUBLIC_URL,
    dataDir,
    attackStixPath: e.ATTACK_STIX_PATH ? path.resolve(e.ATTACK_STIX_PATH) : undefined,
    databaseUrl: e.DATABASE_URL || undefined,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    demo: { enabled: e.DEMO_DATA !== 'false', incidents: e.DEMO_INCIDENTS },
    databaseWorkMem: e.DATABASE_WORK_MEM || undefined,
    jwtSecret: loadJwtSecret(e.JWT_SECRET, dataDir, e.DATABASE_URL),
    jwtPreviousSecret: previousJwtSecret(e.JWT_SECRET, e.JWT_SECRET_PREVIOUS),
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlSeconds: e.REFRESH_TOKEN_TTL_SECONDS,
    filesDir: path.join(dataDir, 'files'),
    mail: {
      smtpUrl: e.SMTP_URL || undefined,
      from: e.MAIL_FROM,
      outboxDir: path.join(dataDir, 'outbox'),
      attachmentMaxBytes: e.MAIL_ATTACHMENT_MAX_BYTES,
    },
    csvSyncMaxRows: e.CSV_SYNC_MAX_ROWS,
    reportAttachmentMaxBytes: e.REPORT_MAX_ATTACHMENT_BYTES,
    jobs: { leaseSeconds: e.JOB_LEASE_SECONDS, retryBaseMs: e.JOB_RETRY_BASE_MS },
    webhooks: {
      allowPrivateCidrs: e.WEBHOOK_ALLOW_PRIVATE_CIDRS.split(',')
        .map((c) => c.trim())
        .filter(Boolean),
      retryBaseMs: e.WEBHOOK_RETRY_BASE_MS,
      queueMaxPerEndpoint: e.WEBHOOK_QUEUE_MAX_PER_ENDPOINT,
      queueMaxPerSystem: e.WEBHOOK_QUEUE_MAX_PER_SYSTEM,
    },
    csvAsyncMaxRows: e.CSV_ASYNC_MAX_ROWS,
    authRateLimitPerMinute: e.AUTH_RATE_LIMIT_PER_MINUTE,
    authCacheSeconds: e.AUTH_CACHE_SECONDS,
    redisUrl: e.REDIS_URL || undefined,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    routeLimits: {
      windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS,
      buckets: {
        export: { perUser: e.RATE_LIMIT_EXPORT_PER_USER, perSystem: e.RATE_LIMIT_EXPORT_PER_SYSTEM },
        report: { perUser: e.RATE_LIMIT_REPORT_PER_USER, perSystem: e.RATE_LIMIT_REPORT_PER_SYSTEM },
        comment: { perUser: e.RATE_LIMIT_COMMENT_PER_USER, perSystem: e.RATE_LIMIT_COMMENT_PER_SYSTEM },
        upload: { perUser: e.RATE_LIMIT_UPLOAD_PER_USER, perSystem: e.RATE_LIMIT_UPLOAD_PER_SYSTEM },
        incident: { perUser: e.RATE_LIMIT_INCIDENT_PER_USER, perSystem: e.RATE_LIMIT_INCIDENT_PER_SYSTEM },
        pdf: { perUser: e.RATE_LIMIT_PDF_PER_USER, perSystem: e.RATE_LIMIT_PDF_PER_SYSTEM },
        feed: { perUser: e.RATE_LIMIT_FEED_PER_USER, perSystem: e.RATE_LIMIT_FEED_PER_SYSTEM },
        layer: { perUser: e.RATE_LIMIT_LAYER_PER_USER, perSystem: e.RATE_LIMIT_LAYER_PER_SYSTEM },
        webhook_test: {
          perUser: e.RATE_LIMIT_WEBHOOK_TEST_PER_USER,
          perSystem: e.RATE_LIMIT_WEBHOOK_TEST_PER_SYSTEM,
        },
      },
    },
    storageQuotaBytesPerSystem: e.STORAGE_QUOTA_BYTES_PER_SYSTEM,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    metrics: { port: e.METRICS_PORT, host: e.METRICS_HOST, token: e.METRICS_TOKEN },
    webDist: e.WEB_DIST ? path.resolve(e.WEB_DIST) : defaultWebDist(),
    compression: {
      enabled: ['on', 'true', '1'].includes(e.HTTP_COMPRESSION),
      brotliQuality: e.HTTP_COMPRESSION_BROTLI_QUALITY,
      gzipLevel: e.HTTP_COMPRESSION_GZIP_LEVEL,
    },
    branding: {
      portalName: e.PORTAL_NAME,
      logoUrl: e.PORTAL_LOGO_URL || null,
      primaryColor: e.PORTAL_PRIMARY_COLOR,
      hideOidcButtons: e.BRAND_HIDE_OIDC_BUTTONS,
      hideEpsWidget: e.BRAND_HIDE_EPS_WIDGET,
      alternateCategoryFilter: e.BRAND_ALTERNATE_CATEGORY_FILTER,
    },
    errorReportingDsn: e.ERROR_REPORTING_DSN ?? null,
    mfa: { resendTimeoutSeconds: e.MFA_RESEND_TIMEOUT_SECONDS, codeTtlSeconds: e.MFA_CODE_TTL_SECONDS },
    sms: {
      gatewayUrl: e.SMS_GATEWAY_URL,
      gatewayAuthHeader: e.SMS_GATEWAY_AUTH_HEADER,
      gatewayUsername: e.SMS_GATEWAY_USERNAME,
      gatewayPassword: e.SMS_GATEWAY_PASSWORD,
      bodyTemplate: e.SMS_GATEWAY_BODY_TEMPLATE,
      contentType: e.SMS_GATEWAY_CONTENT_TYPE,
      textTemplate: e.SMS_TEXT_TEMPLATE,
      maxPerUserPerHour: e.SMS_MAX_PER_USER_PER_HOUR,
      // the outbox shows codes to anyone: only in the embedded demo, never beside a real gateway
      // nor with the demo data set off (the routes also check that the demo accounts exist)
      outbox:
        !e.SMS_GATEWAY_URL &&
        e.DEMO_DATA !== 'false' &&
        (e.SMS_OUTBOX === undefined ? !e.DATABASE_URL : ['true', '1', 'yes'].includes(e.SMS_OUTBOX)),
    },
    oidcProviders: parseOidcProviders(e.OIDC_PROVIDERS),
    sso: {
      header: e.SSO_HEADER?.toLowerCase() || undefined,
      sharedSecret: e.SSO_SHARED_SECRET,
      secretHeader: e.SSO_SECRET_HEADER.toLowerCase(),
      trustedProxies: (e.SSO_TRUSTED_PROXIES ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
      match: e.SSO_MATCH,
    },
    externalLoginMfa: e.EXTERNAL_LOGIN_MFA,
    nationalCentre: {
      url: e.GOSSOPKA_URL,
      username: e.GOSSOPKA_USERNAME,
      password: e.GOSSOPKA_PASSWORD,
      timeoutMs: e.GOSSOPKA_TIMEOUT_MS,
      name: e.NATIONAL_CENTRE_NAME,
      mailDomain: e.NATIONAL_CENTRE_MAIL_DOMAIN.toLowerCase(),
    },
    inboundMail: {
      token: e.INBOUND_MAIL_TOKEN,
      authservId: e.INBOUND_MAIL_AUTHSERV_ID,
      address: e.INBOUND_MAIL_ADDRESS,
    },
  };
}

/** Tests read ATTACK_STIX_PATH's bundle when it is set, else the repository's compact ATT&CK file. */
const testAttackPath = () => process.env.ATTACK_STIX_PATH || undefined;

/** A configuration for tests: in-memory database, fixed secret, quiet logs. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  const scratch = mkdtempSync(path.join(tmpdir(), 'soc-test-'));
  return {
    env: 'test',
    host: '127.0.0.1',
    port: 0,
    publicUrl: undefined,
    dataDir: '',
    attackStixPath: testAttackPath(),
    databaseUrl: undefined,
    databasePoolSize: 4,
    demo: { enabled: false, incidents: 0 },
    databaseWorkMem: '32MB',
    jwtSecret: new TextEncoder().encode('test-secret-test-secret-test-secret-0123'),
    accessTokenTtlSeconds: 300,
    refreshTokenTtlSeconds: 14 * 24 * 3600,
    filesDir: path.join(scratch, 'files'),
    storage: { driver: 'local' },
    mail: {
      smtpUrl: undefined,
      from: 'SOC Portal <no-reply@soc-portal.local>',
      outboxDir: path.join(scratch, 'outbox'),
      attachmentMaxBytes: 10 * 1024 * 1024,
    },
    csvSyncMaxRows: 10_000,
    reportAttachmentMaxBytes: 10 * 1024 * 1024,
    jobs: { leaseSeconds: 600, retryBaseMs: 5_000 },
    webhooks: { allowPrivateCidrs: [], retryBaseMs: 0, ...WEBHOOK_QUEUE_DEFAULTS },
    csvAsyncMaxRows: 1_000_000,
    authRateLimitPerMinute: 1000,
    authCacheSeconds: 30,
    redisUrl: undefined,
    redisKeyPrefix: 'soc-portal-test:',
    // off, so that suites which post many comments or files do not meet them; their tests turn them on
    routeLimits: { windowSeconds: 60, buckets: routeLimitsOff() },
    storageQuotaBytesPerSystem: 20 * 1024 ** 3,
    logLevel: 'silent',
    trustProxy: false,
    metrics: { port: undefined, host: '127.0.0.1', token: undefined },
    webDist: undefined,
    compression: { enabled: true, brotliQuality: 4, gzipLevel: 6 },
    branding: {
      portalName: 'SOC Portal',
      logoUrl: null,
      primaryColor: '#1668dc',
      hideOidcButtons: false,
      hideEpsWidget: false,
      alternateCategoryFilter: false,
    },
    errorReportingDsn: null,
    mfa: { resendTimeoutSeconds: 60, codeTtlSeconds: 300 },
    sms: {
      gatewayUrl: undefined,
      gatewayAuthHeader: undefined,
      gatewayUsername: undefined,
      gatewayPassword: undefined,
      bodyTemplate: '{"to":"{{phone}}","text":"{{text}}"}',
      contentType: 'application/json',
      textTemplate: '{{code}} is your SOC Portal sign-in code. It expires in {{minutes}} minutes.',
      maxPerUserPerHour: 10,
      outbox: true,
    },
    oidcProviders: [],
    sso: {
      header: undefined,
      sharedSecret: undefined,
      secretHeader: 'x-sso-secret',
      trustedProxies: [],
      match: 'username',
    },
    externalLoginMfa: 'portal',
    nationalCentre: {
      url: undefined,
      username: undefined,
      password: undefined,
      timeoutMs: 2000,
      name: 'НКЦКИ',
      mailDomain: 'cert.gov.ru',
    },
    inboundMail: {
      token: 'test-inbound-token-0123456789',
      authservId: 'mx.soc-portal.local',
      address: 'incidents@soc-portal.local',
    },
    ...overrides,
  };
}
