import path from 'node:path';
import type { Config } from '../../../platform/config.ts';
import type { FileStore } from './fileStore.ts';
import { LocalFileStore } from './local.ts';
import { S3FileStore } from './s3.ts';

export type { FileStore } from './fileStore.ts';
export { LocalFileStore } from './local.ts';
export { S3FileStore, type S3Settings } from './s3.ts';

const stores = new WeakMap<Config, FileStore>();

/** The configured store: S3-compatible when POD_S3_ENDPOINT is set, else DATA_DIR/pod-files. One per configuration. */
export function fileStoreOf(config: Config): FileStore {
  let store = stores.get(config);
  if (!store) {
    const { s3 } = config.podFiles;
    store = s3 ? new S3FileStore(s3) : new LocalFileStore(path.join(config.dataDir, 'pod-files'));
    stores.set(config, store);
  }
  return store;
}
