import type { Config } from '../../core/config.ts';
import type { FileStorage } from './file-storage.ts';
import { LocalFileStorage } from './local-storage.ts';
import { S3FileStorage } from './s3-storage.ts';

/** The configured storage: the folder `filesDir` (STORAGE=local) or the S3 bucket (STORAGE=s3). */
export function createFileStorage(config: Pick<Config, 'filesDir' | 'storage'>): FileStorage {
  return config.storage.driver === 's3'
    ? new S3FileStorage(config.storage.s3)
    : new LocalFileStorage(config.filesDir);
}
