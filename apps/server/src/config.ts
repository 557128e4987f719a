import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';

const boolFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** Environment variables the server reads; README.md documents each one. */
const EnvSchema = z.object({
  NODE_ENV: z.enum(['production', 'development', 'test']).default('production'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** Public origin used to build absolute `next`/`previous` links; defaults to the request's host. */
  PUBLIC_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  JWT_SECRET: z.string().min(32).optional(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).max(3600).default(300),
  REFRESH_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(300)
    .default(14 * 24 * 3600),
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(60),
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
  TRUST_PROXY: boolFromEnv,
  WEB_DIST: z.string().optional(),
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
  GOSSOPKA_URL: z.string().url().optional(),
  GOSSOPKA_USERNAME: z.string().optional(),
  GOSSOPKA_PASSWORD: z.string().optional(),
  GOSSOPKA_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  NATIONAL_CENTRE_NAME: z.string().min(1).default('НКЦКИ'),
  NATIONAL_CENTRE_MAIL_DOMAIN: z.string().min(1).default('cert.gov.ru'),
  INBOUND_MAIL_TOKEN: z.string().min(16).optional(),
  INBOUND_MAIL_AUTHSERV_ID: z.string().min(1).default('mx.soc-portal.local'),
  INBOUND_MAIL_ADDRESS: z.string().email().default('incidents@soc-portal.local'),
});

export interface Config {
  env: 'production' | 'development' | 'test';
  host: string;
  port: number;
  publicUrl: string | undefined;
  dataDir: string;
  /** A PostgreSQL URL, or undefined for the embedded PGlite database under dataDir. */
  databaseUrl: string | undefined;
  databasePoolSize: number;
  jwtSecret: Uint8Array;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** Folder of uploaded and generated files. */
  filesDir: string;
  mail: {
    /** SMTP server URL; unset: messages are written as .eml files into outboxDir. */
    smtpUrl: string | undefined;
    from: string;
    outboxDir: string;
    /** Larger files are sent gzipped, or not attached at all. */
    attachmentMaxBytes: number;
  };
  /** Above this many rows the synchronous CSV refuses and the client asks for the e-mail variant. */
  csvSyncMaxRows: number;
  csvAsyncMaxRows: number;
  /** Requests per minute and IP on the credential endpoints (sign-in, refresh, password change). */
  authRateLimitPerMinute: number;
  logLevel: string;
  trustProxy: boolean;
  /** Folder of the built web app, or undefined to serve the API only. */
  webDist: string | undefined;
  branding: {
    portalName: string;
    logoUrl: string | null;
    primaryColor: string;
    hideOidcButtons: boolean;
    hideEpsWidget: boolean;
    alternateCategoryFilter: boolean;
  };
  errorReportingDsn: string | null;
  /** The national incident-reporting centre (GosSOPKA) connector. */
  nationalCentre: {
    /** Its API base URL; unset: a local simulator started by the app (demo). */
    url: string | undefined;
    username: string | undefined;
    password: string | undefined;
    timeoutMs: number;
    /** Shown instead of the author of comments from its mail domain. */
    name: string;
    mailDomain: string;
  };
  inboundMail: {
    /** Shared secret of the mail gateway posting to /soc/inbound_mail/; unset: analysts only. */
    token: string | undefined;
    /** Only Authentication-Results headers of this server are trusted. */
    authservId: string;
    /** Reply-To of notifications; replies come back as comments. */
    address: string;
  };
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
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600 });
  }
  return new TextEncoder().encode(readFileSync(file, 'utf8').trim());
}

const defaultWebDist = (): string | undefined => {
  const candidate = path.resolve(import.meta.dirname, '../../web/dist');
  return existsSync(path.join(candidate, 'index.html')) ? candidate : undefined;
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    publicUrl: e.PUBLIC_URL,
    dataDir,
    databaseUrl: e.DATABASE_URL || undefined,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    jwtSecret: loadJwtSecret(e.JWT_SECRET, dataDir, e.DATABASE_URL),
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
    csvAsyncMaxRows: e.CSV_ASYNC_MAX_ROWS,
    authRateLimitPerMinute: e.AUTH_RATE_LIMIT_PER_MINUTE,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    webDist: e.WEB_DIST ? path.resolve(e.WEB_DIST) : defaultWebDist(),
    branding: {
      portalName: e.PORTAL_NAME,
      logoUrl: e.PORTAL_LOGO_URL || null,
      primaryColor: e.PORTAL_PRIMARY_COLOR,
      hideOidcButtons: e.BRAND_HIDE_OIDC_BUTTONS,
      hideEpsWidget: e.BRAND_HIDE_EPS_WIDGET,
      alternateCategoryFilter: e.BRAND_ALTERNATE_CATEGORY_FILTER,
    },
    errorReportingDsn: e.ERROR_REPORTING_DSN ?? null,
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

/** A configuration for tests: in-memory database, fixed secret, quiet logs. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  const scratch = mkdtempSync(path.join(tmpdir(), 'soc-test-'));
  return {
    env: 'test',
    host: '127.0.0.1',
    port: 0,
    publicUrl: undefined,
    dataDir: '',
    databaseUrl: undefined,
    databasePoolSize: 4,
    jwtSecret: new TextEncoder().encode('test-secret-test-secret-test-secret-0123'),
    accessTokenTtlSeconds: 300,
    refreshTokenTtlSeconds: 14 * 24 * 3600,
    filesDir: path.join(scratch, 'files'),
    mail: {
      smtpUrl: undefined,
      from: 'SOC Portal <no-reply@soc-portal.local>',
      outboxDir: path.join(scratch, 'outbox'),
      attachmentMaxBytes: 10 * 1024 * 1024,
    },
    csvSyncMaxRows: 10_000,
    csvAsyncMaxRows: 1_000_000,
    authRateLimitPerMinute: 1000,
    logLevel: 'silent',
    trustProxy: false,
    webDist: undefined,
    branding: {
      portalName: 'SOC Portal',
      logoUrl: null,
      primaryColor: '#1668dc',
      hideOidcButtons: false,
      hideEpsWidget: false,
      alternateCategoryFilter: false,
    },
    errorReportingDsn: null,
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
