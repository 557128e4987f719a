import { describe, expect, it } from 'vitest';
import { loadConfig, testConfig } from '../../config.ts';
import { createFileStorage } from './create-storage.ts';

const base = { NODE_ENV: 'test', DATA_DIR: testConfig().filesDir };

describe('STORAGE and the S3_* settings', () => {
  it('keep files in the local folder by default', () => {
    const config = loadConfig(base);
    expect(config.storage).toEqual({ driver: 'local', s3: undefined });
    expect(createFileStorage(config).driver).toBe('local');
  });

  it('select the S3 driver with its settings', () => {
    const config = loadConfig({
      ...base,
      STORAGE: 's3',
      S3_ENDPOINT: 'http://minio:9000',
      S3_BUCKET: 'portal-files',
      S3_ACCESS_KEY_ID: 'portal',
      S3_SECRET_ACCESS_KEY: 'portal-secret',
      S3_FORCE_PATH_STYLE: 'true',
    });
    expect(config.storage).toEqual({
      driver: 's3',
      s3: {
        endpoint: 'http://minio:9000',
        region: 'us-east-1',
        bucket: 'portal-files',
        accessKeyId: 'portal',
        secretAccessKey: 'portal-secret',
        forcePathStyle: true,
      },
    });
    const storage = createFileStorage(config);
    expect(storage.driver).toBe('s3');
    storage.close();
  });

  it('keep the S3 settings with STORAGE=local, for files migrate', () => {
    const config = loadConfig({ ...base, S3_BUCKET: 'portal-files' });
    expect(config.storage.driver).toBe('local');
    expect(config.storage.s3?.bucket).toBe('portal-files');
  });

  it('refuse STORAGE=s3 without a bucket, half a key pair and an endpoint that is not a URL', () => {
    expect(() => loadConfig({ ...base, STORAGE: 's3' })).toThrow('S3_BUCKET: required when STORAGE=s3');
    expect(() =>
      loadConfig({ ...base, STORAGE: 's3', S3_BUCKET: 'files', S3_ACCESS_KEY_ID: 'only' }),
    ).toThrow('set both or neither');
    expect(() => loadConfig({ ...base, S3_ENDPOINT: 'minio:9000' })).toThrow('S3_ENDPOINT');
    expect(() => loadConfig({ ...base, STORAGE: 'ftp' })).toThrow('STORAGE');
  });
});
