import { existsSync } from 'node:fs';
import path from 'node:path';

/** The repository root (where package.json is), whether running from source or from dist/. */
function findRoot(start: string): string {
  let dir = start;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`package.json not found above ${start}`);
    dir = up;
  }
  return dir;
}

export const PROJECT_ROOT = findRoot(__dirname);
/** Compiled plugin folders: scanned at boot. */
export const PLUGINS_DIR = path.join(__dirname, '..', 'plugins');
