// The configuration's types and fixed defaults: the ground floor (design §10) every layer reads.
// config.ts reads the environment into a Config; nothing here reads it.
import { z } from 'zod';

/** Where the S3 driver stores (STORAGE=s3 and the S3_* settings). */
export interface S3StorageSettings {
  /** The service's URL (MinIO, Ceph RGW); unset: AWS S3 of `region`. */
  endpoint: string | undefined;
  region: string;
  bucket: string;
  /** Unset: the SDK's default credential chain (environment, instance role). */
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  /** `host/bucket/key` URLs instead of `bucket.host/key` (MinIO, Ceph and s3rver need it). */
  forcePathStyle: boolean;
}

/**
 * The rate limits on expensive and write routes (plugins/route-limits.ts): requests a window
 * (a minute by default) per user and per system (tenant). A route names its bucket in its config.
 */
export const ROUTE_LIMIT_DEFAULTS = {
  /** CSV export of incidents, synchronous and by e-mail. */
  export: { perUser: 5, perSystem: 15 },
  /** Ordering a one-off report (its PDF is built by a job). */
  report: { perUser: 5, perSystem: 20 },
  /** Comments of incidents, tasks and documents (with their files). */
  comment: { perUser: 30, perSystem: 120 },
  /** Files posted to incidents, tasks and documents. */
  upload: { perUser: 20, perSystem: 60 },
  /** New incidents (the customers' form and the analyst API). */
  incident: { perUser: 120, perSystem: 600 },
  /** PDF of an incident or a document, built on request. */
  pdf: { perUser: 10, perSystem: 30 },
  /** The IOC feed, every format and page (blocking tools poll it with a token). */
  feed: { perUser: 30, perSystem: 60 },
  /** ATT&CK Navigator layers: the rules' coverage, the incidents per technique. */
  layer: { perUser: 10, perSystem: 30 },
  /** Webhook test events and "send again": each queues a POST to the endpoint. */
  webhook_test: { perUser: 5, perSystem: 20 },
} as const;
export type RouteLimitBucket = keyof typeof ROUTE_LIMIT_DEFAULTS;
export type RouteLimits = Record<RouteLimitBucket, { perUser: number; perSystem: number }>;

/** Deliveries not yet done an endpoint, and all endpoints of one system, may have (webhooks). */
export const WEBHOOK_QUEUE_DEFAULTS = { queueMaxPerEndpoint: 500, queueMaxPerSystem: 2_000 } as const;

/** One OIDC identity provider (an item of the OIDC_PROVIDERS JSON list). */
export const OidcProviderConfigSchema = z.object({
  /** Shown on the button; also the provider's id in the start and callback URLs. */
  name: z.string().min(1).max(100),
  /** The issuer; discovery reads `{issuer}/.well-known/openid-configuration`. */
  issuer: z.string().url(),
  client_id: z.string().min(1),
  /** Confidential clients; public clients rely on PKCE alone. */
  client_secret: z.string().optional(),
  scope: z.string().default('openid email profile'),
  /** Link by the `sub` claim only, or also by a verified e-mail equal to a user's. */
  match: z.enum(['subject', 'email']).default('email'),
  /** Create a customer account (without systems) for an unknown identity. */
  auto_create: z.boolean().default(false),
  /** Plain-HTTP issuer (local test IdPs only). */
  allow_http: z.boolean().default(false),
});
export type OidcProviderConfig = z.infer<typeof OidcProviderConfigSchema>;

/**
 * Second factor of OIDC and SSO sign-ins: `portal` — a user with a portal second factor enters
 * its code after the provider (as after the password); `idp` — the provider's own MFA is relied on.
 */
export type ExternalLoginMfa = 'portal' | 'idp';

/** `true`/`false`, a hop count, or the addresses and CIDR ranges of the trusted proxies. */
export type TrustProxy = boolean | number | string[];

export interface MetricsConfig {
  /** Port of the separate metrics listener; undefined: none. */
  port: number | undefined;
  /** Address it listens on (loopback unless the scraper runs elsewhere). */
  host: string;
  /** Bearer token of GET /metrics on the main port; undefined: not served there. */
  token: string | undefined;
}

export interface Config {
  env: 'production' | 'development' | 'test';
  host: string;
  port: number;
  publicUrl: string | undefined;
  dataDir: string;
  /** MITRE ATT&CK STIX bundle; unset: the cached download under dataDir/attack/ (design §2). */
  attackStixPath: string | undefined;
  /** A PostgreSQL URL, or undefined for the embedded PGlite database under dataDir. */
  databaseUrl: string | undefined;
  databasePoolSize: number;
  /** The demo data set: loaded into an empty database at start when enabled (DEMO_DATA, DEMO_INCIDENTS). */
  demo: { enabled: boolean; incidents: number };
  /** work_mem of each connection (`32MB`), or undefined for the server's setting. */
  databaseWorkMem: string | undefined;
  /** The current signing key: new tokens are signed with it and name it by `kid`. */
  jwtSecret: Uint8Array;
  /**
   * The key before a rotation (JWT_SECRET_PREVIOUS): tokens naming it still verify, and secrets
   * sealed with it still open; nothing new is signed or sealed with it.
   */
  jwtPreviousSecret?: Uint8Array | undefined;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** Folder of uploaded and generated files (STORAGE=local). */
  filesDir: string;
  /** Where uploaded and generated files live: the folder `filesDir`, or an S3 bucket. */
  storage: { driver: 'local'; s3?: S3StorageSettings } | { driver: 's3'; s3: S3StorageSettings };
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
  /** Reports up to this size are e-mailed as attachments; larger ones as a link. */
  reportAttachmentMaxBytes: number;
  webhooks: {
    /** CIDR ranges of private addresses that endpoints may reach (the administrator's allow-list). */
    allowPrivateCidrs: string[];
    /** The first retry's delay (before jitter). */
    retryBaseMs: number;
    /**
     * Deliveries not yet done (pending or retrying) an endpoint, and all endpoints of a system,
     * may have: an event past them is recorded as not sent, a test or resend answers 429.
     */
    queueMaxPerEndpoint: number;
    queueMaxPerSystem: number;
  };
  jobs: {
    /**
     * A running job's lease: its runner renews it while the job runs; a job whose lease passed
     * (its process died) is claimed again by any instance.
     */
    leaseSeconds: number;
    /** The first retry of a failed job waits this long, doubling with each attempt (30 min at most). */
    retryBaseMs: number;
  };
  csvAsyncMaxRows: number;
  /** Requests per minute and IP on the credential endpoints (sign-in, refresh, password change). */
  authRateLimitPerMinute: number;
  /**
   * Longest time an answer of the session check is kept in memory (plugins/auth-cache.ts); every
   * committed change of the user, their systems or sessions ends it sooner. 0: no cache.
   */
  authCacheSeconds: number;
  /** Redis shared by the instances for the rate-limit counters; unset: each instance counts alone. */
  redisUrl: string | undefined;
  /** Prefix of every Redis key the portal writes (several portals may share one Redis). */
  redisKeyPrefix: string;
  /** Rate limits of expensive and write routes (per user and per system; 0: off), counted in Redis when set. */
  routeLimits: { windowSeconds: number; buckets: RouteLimits };
  /** Bytes of uploaded files each system may keep (incident and task files); 0: no quota. */
  storageQuotaBytesPerSystem: number;
  logLevel: string;
  /** Fastify's `trustProxy`: whom to believe about the client's address (`X-Forwarded-For`). */
  trustProxy: TrustProxy;
  /** Prometheus metrics (plugins/metrics.ts): never served unless a port or a token is set. */
  metrics: MetricsConfig;
  /** Folder of the built web app, or undefined to serve the API only. */
  webDist: string | undefined;
  /**
   * API answers over 1 KB compressed on the fly (plugins/compression.ts); the web app's files
   * are compressed at build time whatever this says.
   */
  compression: { enabled: boolean; brotliQuality: number; gzipLevel: number };
  branding: {
    portalName: string;
    logoUrl: string | null;
    primaryColor: string;
    hideOidcButtons: boolean;
    hideEpsWidget: boolean;
    alternateCategoryFilter: boolean;
  };
  errorReportingDsn: string | null;
  mfa: {
    /** Seconds before another code may be sent (product §A9). */
    resendTimeoutSeconds: number;
    codeTtlSeconds: number;
  };
  sms: {
    /** HTTP gateway; unset: the embedded outbox (when enabled) or no SMS at all. */
    gatewayUrl: string | undefined;
    /** Authorization header value sent to the gateway (e.g. `Bearer …`). */
    gatewayAuthHeader: string | undefined;
    gatewayUsername: string | undefined;
    gatewayPassword: string | undefined;
    /** Request body; `{{phone}}` and `{{text}}` are replaced (JSON-escaped for a JSON body). */
    bodyTemplate: string;
    contentType: string;
    /** Message text; `{{code}}` and `{{minutes}}` (the code's lifetime) are replaced. */
    textTemplate: string;
    maxPerUserPerHour: number;
    /** Keep messages in the database and serve the development-only outbox page. */
    outbox: boolean;
  };
  oidcProviders: OidcProviderConfig[];
  sso: {
    /** Header carrying the signed-in user's name or e-mail, set by the trusted proxy; unset: SSO off. */
    header: string | undefined;
    /** The proxy proves itself with this value in `secretHeader`… */
    sharedSecret: string | undefined;
    secretHeader: string;
    /** …or by calling from one of these addresses. */
    trustedProxies: string[];
    match: 'username' | 'email';
  };
  externalLoginMfa: ExternalLoginMfa;
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

/** Every route limit lifted (tests, and benches that show the difference). */
export const routeLimitsOff = (): RouteLimits =>
  Object.fromEntries(
    Object.keys(ROUTE_LIMIT_DEFAULTS).map((bucket) => [bucket, { perUser: 0, perSystem: 0 }]),
  ) as RouteLimits;
