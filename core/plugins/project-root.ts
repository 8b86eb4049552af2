/**
 * The repository root (where package.json and data/ are), whether running from source or from
 * dist/: where plugins and domain modules read their data files and the release version.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

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
