import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { checkKey, type FileStore } from './fileStore.ts';

/**
 * Files under a folder of the data directory (DATA_DIR/pod-files), readable by the service's user only (folders
 * 0700, files 0600). A file is written under a temporary name and renamed, so a reader never sees half of one.
 */
export class LocalFileStore implements FileStore {
  private readonly root: string;

  constructor(root: string) {
    this.root = root;
  }

  private pathOf(key: string): string {
    return path.join(this.root, ...checkKey(key).split('/'));
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    const file = this.pathOf(key);
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const partial = `${file}.${randomUUID()}.part`;
    await fs.writeFile(partial, bytes, { mode: 0o600 });
    await fs.rename(partial, file);
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await fs.readFile(this.pathOf(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    await fs.rm(this.pathOf(key), { force: true });
  }
}
