import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from './config.ts';

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
}
interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
}

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
    expect(config.trustProxy).toBe(true);
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
      NGINX_ENVSUBST_FILTER: '^TLS_',
    });
  });
});

describe('deploy/nginx.conf', () => {
  it('balances over both API instances on the port they listen on', () => {
    const upstream = /upstream portal_api \{([^}]*)\}/.exec(nginx)?.[1] ?? '';
    const servers = [...upstream.matchAll(/server ([\w-]+):(\d+)/g)].map((m) => `${m[1]}:${m[2]}`);
    expect(servers).toEqual(API_SERVICES.map((name) => `${name}:${environmentOf(name).PORT}`));
    expect(nginx).toMatch(/location \/api\/v0\/events\/ \{[^}]*proxy_buffering off;/);
    expect(nginx).toContain('X-Forwarded-For');
  });

  it('serves HTTP/2 over TLS with certificate paths from the environment; plain HTTP only redirects', () => {
    expect(nginx).toMatch(/listen 443 ssl;\s*http2 on;/);
    // filled in by the nginx image's template step (NGINX_ENVSUBST_FILTER=^TLS_)
    expect(nginx).toContain('ssl_certificate ${TLS_CERTIFICATE};');
    expect(nginx).toContain('ssl_certificate_key ${TLS_CERTIFICATE_KEY};');
    const variables = [...nginx.matchAll(/\$\{(\w+)\}/g)].map((m) => m[1]);
    expect(variables.every((name) => name?.startsWith('TLS_'))).toBe(true);
    expect(nginx).toMatch(/server \{\s*listen 80;\s*return 301 https:\/\/\$host\$request_uri;\s*\}/);
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
