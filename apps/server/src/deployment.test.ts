import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { Agent, fetch as fetchVia } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildServer } from '../build.mjs';
import { loadConfig } from './config.ts';
import { auditLog } from './db/schema/index.ts';
import { createTestContext } from './test/harness.ts';
import type { TestContext } from './test/harness.ts';

/** A port nothing listens on now. */
const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

// No Docker engine runs where the tests do: these checks read the deployment files and hold
// them to what the server needs (README.md, "Deployment with containers").
const ROOT = path.resolve(import.meta.dirname, '../../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  command?: string[];
  entrypoint?: string[];
  networks?: Record<string, { ipv4_address?: string }>;
}
interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
  networks?: Record<string, { ipam?: { config?: { subnet?: string }[] } }>;
}

/** Whether an IPv4 address lies in a CIDR range. */
const isInSubnet = (address: string, cidr: string) => {
  const [base, bits] = cidr.split('/');
  const toInt = (a: string) => a.split('.').reduce((n, part) => n * 256 + Number(part), 0);
  const mask = 2 ** 32 - 2 ** (32 - Number(bits));
  return (toInt(address) & mask) >>> 0 === (toInt(base ?? '') & mask) >>> 0;
};

const compose = parse(read('deploy/compose.yaml'), { merge: true }) as ComposeFile;
const nginx = read('deploy/nginx.conf');
const dockerfile = read('Dockerfile');
const API_SERVICES = ['api-1', 'api-2'];

/** An API service's environment with the compose variables filled in. */
const environmentOf = (service: string): NodeJS.ProcessEnv => {
  const substitute = (value: string) =>
    value
      .replace(/\$\{POSTGRES_PASSWORD[^}]*\}/g, 'database-password')
      .replace(/\$\{JWT_SECRET[^}]*\}/g, 'x'.repeat(48))
      .replace(/\$\{(\w+):\?[^}]*\}/g, (_, name: string) => `${name.toLowerCase()}-value`)
      .replace(/\$\{\w+:-([^}]*)\}/g, '$1');
  const env = compose.services[service]?.environment ?? {};
  return Object.fromEntries(Object.entries(env).map(([key, value]) => [key, substitute(String(value))]));
};

describe('deploy/compose.yaml', () => {
  it('runs PostgreSQL, Redis, MinIO (with its one-shot setup), two API instances and nginx', () => {
    expect(Object.keys(compose.services).sort()).toEqual([
      'api-1',
      'api-2',
      'minio',
      'minio-init',
      'nginx',
      'postgres',
      'redis',
    ]);
    for (const name of ['postgres', 'redis', 'minio'])
      expect(compose.services[name]?.healthcheck).toBeDefined();
  });

  it('gives both API instances the same image, database, secret, Redis and bucket', () => {
    const [first, second] = API_SERVICES.map((name) => compose.services[name]);
    expect(first?.build).toEqual({ context: '..', dockerfile: 'Dockerfile' });
    expect(second?.image).toBe(first?.image);
    expect(second?.environment).toEqual(first?.environment);
    expect(second?.volumes).toEqual(first?.volumes);
    const env = environmentOf('api-1');
    expect(env.DATABASE_URL).toMatch(/^postgres:\/\/portal:[^@]+@postgres:5432\/portal$/);
    expect(env.REDIS_URL).toBe('redis://redis:6379/0');
    // files in MinIO, not in a folder shared by the instances (several hosts cannot share one)
    expect(first?.volumes).toBeUndefined();
    expect(Object.keys(compose.volumes).sort()).toEqual(['minio-data', 'postgres-data']);
    expect(compose.services.minio?.image).toMatch(/^minio\/minio:/);
    expect(compose.services.minio?.volumes).toEqual(['minio-data:/data']);
  });

  it('stores files in the MinIO bucket that minio-init creates, with an account of its own', () => {
    const env = environmentOf('api-1');
    expect(env).toMatchObject({
      STORAGE: 's3',
      S3_ENDPOINT: 'http://minio:9000',
      S3_FORCE_PATH_STYLE: 'true',
      S3_BUCKET: 'soc-portal-files',
    });
    // secrets come from the environment of `docker compose up`, never from the file
    const raw = compose.services['api-1']?.environment ?? {};
    expect(raw.S3_SECRET_ACCESS_KEY).toMatch(/^\$\{S3_SECRET_ACCESS_KEY:\?/);
    expect(env.S3_ACCESS_KEY_ID).not.toBe(environmentOf('minio').MINIO_ROOT_USER);
    const init = compose.services['minio-init'];
    expect(init?.image).toMatch(/^minio\/mc:/);
    expect(init?.depends_on?.minio?.condition).toBe('service_healthy');
    const script = init?.command?.join('\n') ?? '';
    expect(script).toContain('mc mb --ignore-existing "store/$$S3_BUCKET"');
    expect(script).toContain('mc admin user add store "$$S3_ACCESS_KEY_ID" "$$S3_SECRET_ACCESS_KEY"');
    expect(environmentOf('minio-init')).toMatchObject({
      S3_BUCKET: env.S3_BUCKET,
      S3_ACCESS_KEY_ID: env.S3_ACCESS_KEY_ID,
      S3_SECRET_ACCESS_KEY: env.S3_SECRET_ACCESS_KEY,
    });
    for (const name of API_SERVICES) {
      expect(compose.services[name]?.depends_on?.['minio-init']?.condition).toBe(
        'service_completed_successfully',
      );
    }
  });

  it('checks the health of each API instance on /readyz', () => {
    for (const name of API_SERVICES) {
      const test = compose.services[name]?.healthcheck?.test.join(' ') ?? '';
      expect(test).toContain(`http://127.0.0.1:${environmentOf(name).PORT}/readyz`);
    }
  });

  it("holds an environment the server's configuration accepts", () => {
    const config = loadConfig(environmentOf('api-1'));
    expect(config.databaseUrl).toContain('@postgres:5432/portal');
    expect(config.host).toBe('0.0.0.0');
    expect(config.port).toBe(8080);
    // nginx's fixed address in the compose network, nothing else: a hop count or `true` would let
    // anything that reaches an instance choose its client address
    expect(config.trustProxy).toEqual([compose.services.nginx?.networks?.default?.ipv4_address]);
    const subnet = compose.networks?.default?.ipam?.config?.[0]?.subnet ?? '';
    expect(isInSubnet(String(config.trustProxy), subnet)).toBe(true);
    // the metrics listener inside the compose network only (no port of it is published)
    expect(config.metrics).toEqual({ port: 9464, host: '0.0.0.0', token: undefined });
    expect(compose.services['api-1']?.ports).toBeUndefined();
    expect(config.storage).toEqual({
      driver: 's3',
      s3: {
        endpoint: 'http://minio:9000',
        region: 'us-east-1',
        bucket: 'soc-portal-files',
        accessKeyId: 'soc-portal',
        secretAccessKey: 's3_secret_access_key-value',
        forcePathStyle: true,
      },
    });
  });

  it('starts the second instance after the first is ready and nginx after both', () => {
    expect(compose.services['api-2']?.depends_on?.['api-1']?.condition).toBe('service_healthy');
    for (const name of API_SERVICES) {
      expect(compose.services.nginx?.depends_on?.[name]?.condition).toBe('service_healthy');
    }
    // nginx.conf is the image's template (TLS paths filled in), the certificates a read-only folder
    expect(compose.services.nginx?.volumes).toEqual([
      './nginx.conf:/etc/nginx/templates/nginx.conf.template:ro',
      '${TLS_DIR:-./certs}:/etc/nginx/certs:ro',
    ]);
    expect(compose.services.nginx?.environment).toMatchObject({
      NGINX_ENVSUBST_OUTPUT_DIR: '/etc/nginx',
      NGINX_ENVSUBST_FILTER: '^(TLS_|PORTAL_HTTPS_PORT)',
    });
  });
});

describe('deploy/nginx.conf', () => {
  it('balances over both API instances on the port they listen on', () => {
    const upstream = /upstream portal_api \{([^}]*)\}/.exec(nginx)?.[1] ?? '';
    const servers = [...upstream.matchAll(/server ([\w-]+):(\d+)/g)].map((m) => `${m[1]}:${m[2]}`);
    expect(servers).toEqual(API_SERVICES.map((name) => `${name}:${environmentOf(name).PORT}`));
    expect(nginx).toMatch(/location \/api\/v0\/events\/ \{[^}]*proxy_buffering off;/);
  });

  it("sets X-Forwarded-For to the peer's address (never appends the client's) and passes a request id", () => {
    expect(nginx).toMatch(/^\s*proxy_set_header X-Forwarded-For \$remote_addr;$/m);
    expect(nginx).not.toContain('$proxy_add_x_forwarded_for');
    expect(nginx).toMatch(/^\s*proxy_set_header X-Request-Id \$request_id;$/m);
  });

  it('serves HTTP/2 over TLS with certificate paths from the environment; plain HTTP only redirects', () => {
    // `http2 on;` is unknown to Debian 12's nginx 1.22; `listen … http2` works there and later
    expect(nginx).toMatch(/listen 443 ssl http2;/);
    expect(nginx).not.toMatch(/^\s*http2 on;/m);
    // filled in by the nginx image's template step (NGINX_ENVSUBST_FILTER=^TLS_)
    expect(nginx).toContain('ssl_certificate ${TLS_CERTIFICATE};');
    expect(nginx).toContain('ssl_certificate_key ${TLS_CERTIFICATE_KEY};');
    // only the variables that compose gives the template step, so that nginx's own stay as they are
    const filter = new RegExp(compose.services.nginx?.environment?.NGINX_ENVSUBST_FILTER ?? '^$');
    const variables = [...new Set([...nginx.matchAll(/\$\{(\w+)\}/g)].map((m) => m[1]!))];
    expect(variables.sort()).toEqual(['PORTAL_HTTPS_PORT', 'TLS_CERTIFICATE', 'TLS_CERTIFICATE_KEY']);
    for (const name of variables) {
      expect(name).toMatch(filter);
      expect(compose.services.nginx?.environment?.[name]).toBeDefined();
    }
    expect(nginx).toMatch(
      /server \{\s*listen 80;\s*return 301 https:\/\/\$host\$https_port_suffix\$request_uri;\s*\}/,
    );
  });

  it('compresses JSON and CSV that pass through uncompressed, never the live events', () => {
    expect(nginx).toMatch(/^\s*gzip on;/m);
    expect(nginx).toMatch(/^\s*gzip_vary on;/m);
    const types = /gzip_types([^;]*);/.exec(nginx)?.[1]?.split(/\s+/) ?? [];
    expect(types).toEqual(expect.arrayContaining(['application/json', 'text/csv']));
    expect(types).not.toContain('application/octet-stream');
    expect(types).not.toContain('application/pdf');
    expect(nginx).toMatch(/location \/api\/v0\/events\/ \{[^}]*gzip off;/);
  });
});

describe('Dockerfile', () => {
  it('builds on node:24-slim (Node 24 LTS, issue 31) in stages and runs the server bundle as a non-root user', () => {
    const stages = [...dockerfile.matchAll(/^FROM (\S+) AS (\w+)/gm)].map((m) => [m[1], m[2]]);
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const [image] of stages) expect(image).toBe('node:24-slim');
    expect(dockerfile).toMatch(/^RUN npm ci/m);
    expect(dockerfile).toMatch(/^RUN npm run build$/m);
    const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/^CMD \[.*"apps\/server\/dist\/main\.js"\]$/m);
    expect(runtime).toContain('./apps/server/drizzle');
    expect(runtime).toContain('./apps/web/dist');
  });
});

describe('Redis between the instances', () => {
  it('carries only the rate-limit counters, as compose.yaml and README.md say: live events go by LISTEN/NOTIFY', () => {
    const sources = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory()
          ? sources(path.join(dir, entry.name))
          : entry.name.endsWith('.ts') && !entry.name.includes('.test.')
            ? [path.join(dir, entry.name)]
            : [],
      );
    const clients = sources(path.join(ROOT, 'apps/server/src')).filter((file) =>
      /from 'ioredis'/.test(readFileSync(file, 'utf8')),
    );
    expect(clients.map((file) => path.relative(ROOT, file))).toEqual([
      'apps/server/src/integrations/redis/rate-limit-store.ts',
    ]);
    expect(readFileSync(clients[0]!, 'utf8')).not.toMatch(/\.(p?subscribe|publish)\(/);
    const redisComment =
      /#([^\n]*\n\s*#)*[^\n]*\n\s*command: \['redis-server'/.exec(read('deploy/compose.yaml'))?.[0] ?? '';
    expect(redisComment).toContain('rate-limit counters');
    expect(redisComment).not.toMatch(/pub\/sub between/);
    expect(read('README.md')).toContain('Live events do not go through Redis pub/sub');
  });
});

describe('the image runs `npm run admin`', () => {
  /** `COPY [--from=stage] source… destination` lines of the Dockerfile's last stage. */
  const runtimeCopies = () =>
    [...dockerfile.slice(dockerfile.lastIndexOf('\nFROM ')).matchAll(/^COPY (?:--from=(\w+) )?(.+)$/gm)].map(
      (m) => {
        const parts = m[2]!.trim().split(/\s+/);
        return { from: m[1], sources: parts.slice(0, -1), destination: parts.at(-1)! };
      },
    );

  it('copies the script of `npm run admin`, what it imports and the bundle it runs', () => {
    const copied = runtimeCopies().flatMap((c) => c.sources.map((s) => s.replace(/^\/app\//, '')));
    const isCopied = (file: string) => copied.some((c) => file === c || file.startsWith(`${c}/`));
    const admin =
      (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts.admin ?? '';
    const script = /^node (\S+)$/.exec(admin)?.[1] ?? '';
    expect(script).toBe('scripts/admin.mjs');
    const text = read(script);
    const imports = [...text.matchAll(/from '(\.\/[^']+)'/g)].map((m) => path.join('scripts', m[1]!));
    const spawned = /const ADMIN_OUTPUT = '([^']+)'/.exec(text)?.[1] ?? '';
    expect(spawned).toBe('apps/server/dist/admin-cli.js');
    for (const file of [script, ...imports, spawned, 'package.json']) expect(file, file).toSatisfy(isCopied);
  });

  it('answers `npm run admin -- help` in a folder laid out as the image', async () => {
    const image = mkdtempSync(path.join(tmpdir(), 'soc-image-'));
    const dataDir = mkdtempSync(path.join(tmpdir(), 'soc-image-data-'));
    let ctx: TestContext | undefined;
    try {
      for (const { from, sources, destination } of runtimeCopies()) {
        for (const source of sources) {
          const inRepo = source.replace(/^\/app\//, '');
          const target = path.join(
            image,
            destination.endsWith('/') ? path.join(destination, path.basename(inRepo)) : destination,
          );
          mkdirSync(path.dirname(target), { recursive: true });
          // the production dependencies: the repository's own (a superset)
          if (from === 'deps') symlinkSync(path.join(ROOT, inRepo), target);
          // the build's output: the server's bundles, built as the image builds them
          else if (inRepo === 'apps/server/dist') await buildServer(target);
          // with their times, as COPY keeps them (`npm run admin` rebuilds a bundle older than its sources)
          else if (!inRepo.endsWith('/dist'))
            cpSync(path.join(ROOT, inRepo), target, { recursive: true, preserveTimestamps: true });
        }
      }
      ctx = process.env.TEST_DB_DRIVER === 'pg' ? await createTestContext({ incidents: 0 }) : undefined;
      const env = {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: 'production',
        DATA_DIR: dataDir,
        JWT_SECRET: 'image-test-secret-image-test-secret-0123',
        ...(ctx?.databaseUrl ? { DATABASE_URL: ctx.databaseUrl } : {}),
      };
      const run = spawnSync('npm', ['run', '--silent', 'admin', '--', 'help'], {
        cwd: image,
        env,
        encoding: 'utf8',
      });
      expect(run.stderr).not.toMatch(/Cannot find module|ERR_MODULE_NOT_FOUND|Missing script/);
      expect(run.status).toBe(0);
      expect(run.stdout).toContain('derived check');
    } finally {
      await ctx?.close();
      rmSync(image, { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});

// nginx itself, where it is installed (CI installs Debian's): the shipped config must load, and a
// client behind it must not choose its address by sending X-Forwarded-For
const NGINX = '/usr/sbin/nginx';
describe.runIf(existsSync(NGINX))('deploy/nginx.conf on this machine', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'soc-nginx-'));
  const certificate = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  const errorLog = path.join(dir, 'error.log');
  const nginxArgs = [
    '-p',
    dir,
    '-c',
    path.join(dir, 'nginx.conf'),
    '-g',
    `pid ${path.join(dir, 'nginx.pid')}; error_log ${errorLog};`,
  ];
  let ctx: TestContext;
  let httpPort = 0;
  let httpsPort = 0;
  let started = false;
  const tls = new Agent({ connect: { rejectUnauthorized: false } });

  /** The shipped config as the nginx image's template step fills it in, on local ports. */
  const render = (appPort: number) =>
    nginx
      .replaceAll('${TLS_CERTIFICATE}', certificate)
      .replaceAll('${TLS_CERTIFICATE_KEY}', key)
      .replaceAll('${PORTAL_HTTPS_PORT}', String(httpsPort))
      .replace(/server api-[12]:8080/g, `server 127.0.0.1:${appPort}`)
      .replace('listen 80;', `listen 127.0.0.1:${httpPort};`)
      .replace('listen 443 ssl http2;', `listen 127.0.0.1:${httpsPort} ssl http2;`)
      .replace('http {', `http {\n  access_log ${path.join(dir, 'access.log')};`);

  beforeAll(async () => {
    const made = spawnSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-keyout',
        key,
        '-out',
        certificate,
      ],
      { encoding: 'utf8' },
    );
    expect(made.status, made.stderr).toBe(0);
    // the instance trusts the proxy's address only (as compose's TRUST_PROXY names nginx's)
    ctx = await createTestContext({ incidents: 0, config: { trustProxy: ['127.0.0.1'] } });
    const address = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    [httpPort, httpsPort] = await Promise.all([freePort(), freePort()]);
    writeFileSync(path.join(dir, 'nginx.conf'), render(Number(new URL(address).port)));
    // in daemon mode `nginx` returns once its sockets listen (its daemon keeps no pipe of ours)
    const start = spawnSync(NGINX, nginxArgs, { stdio: 'ignore' });
    started = start.status === 0;
  });
  afterAll(async () => {
    if (started) spawnSync(NGINX, [...nginxArgs, '-s', 'stop'], { stdio: 'ignore' });
    await tls.close();
    await ctx?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('passes `nginx -t` with a generated certificate', () => {
    const test = spawnSync(NGINX, ['-t', ...nginxArgs], { encoding: 'utf8' });
    expect(test.stderr).toContain('test is successful');
    expect(test.status).toBe(0);
  });

  it('redirects plain HTTP to HTTPS on the public HTTPS port', async () => {
    expect(started, existsSync(errorLog) ? readFileSync(errorLog, 'utf8') : '').toBe(true);
    // the client's Host names the plain HTTP port: the redirect names the HTTPS one instead
    const res = await fetch(`http://127.0.0.1:${httpPort}/inc/42?tab=chat`, { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe(`https://127.0.0.1:${httpsPort}/inc/42?tab=chat`);
  });

  it('does not let a forged X-Forwarded-For choose the address of the sign-in lock and the audit log', async () => {
    expect(started, existsSync(errorLog) ? readFileSync(errorLog, 'utf8') : '').toBe(true);
    const statuses: number[] = [];
    // the per-IP lock comes after 10 failures in a row: each from "another" address if the header counted
    for (let i = 1; i <= 11; i++) {
      const res = await fetchVia(`https://127.0.0.1:${httpsPort}/api/v0/auth/token/obtain/`, {
        method: 'POST',
        dispatcher: tls,
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.${i}` },
        body: JSON.stringify({ username: `forger-${i}`, password: 'not-a-password-1' }),
      });
      statuses.push(res.status);
      // nginx's own id reached the instance and came back
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f]{32}$/);
    }
    expect(statuses).toEqual([...Array<number>(10).fill(401), 429]);
    const rows = await ctx.database.db
      .select({ ip: auditLog.ip, requestId: auditLog.requestId })
      .from(auditLog)
      .where(eq(auditLog.action, 'auth.login_failed'));
    expect(rows).toHaveLength(10);
    expect(new Set(rows.map((r) => r.ip))).toEqual(new Set(['127.0.0.1']));
    for (const row of rows) expect(row.requestId).toMatch(/^[0-9a-f]{32}$/);
  });
});
