// What the local store and the upload work folder hold: proves what a request left behind.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { TestApp } from '../../helpers/app';

/** Every object in the local store, as keys. */
export function storedKeys(t: TestApp): string[] {
  const root = path.join(t.platform.config.DATA_DIR, 'storage');
  const walk = (dir: string, prefix: string): string[] => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return [];
    }
    return entries.flatMap((e) =>
      e.name.startsWith('.')
        ? []
        : e.isDirectory()
          ? walk(path.join(dir, e.name), `${prefix}${e.name}/`)
          : [`${prefix}${e.name}`],
    );
  };
  return walk(root, '');
}

/** Files left in `DATA_DIR/tmp` by uploads (there should be none after any request). */
export function tmpLeftovers(t: TestApp): string[] {
  try {
    return readdirSync(path.join(t.platform.config.DATA_DIR, 'tmp'));
  } catch {
    return [];
  }
}
