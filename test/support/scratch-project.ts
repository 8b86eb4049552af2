/**
 * A scratch copy of the project in a temporary directory (sources, data and test support, with
 * node_modules linked), for tests that add or scaffold plugin folders, compile with the real
 * compiler and boot the real entry point, without touching the working tree.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../../config/paths';
import { spawnGateway, type ProcessGateway } from './process-gateway';

const COPIED = [
  'core',
  'config',
  'domain',
  'plugins',
  'data',
  'tools',
  'main.ts',
  'package.json',
  'tsconfig.json',
  'eslint.config.mjs',
  '.prettierrc.json',
  '.prettierignore',
];

export function makeScratchProject(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'jpgw-scratch-'));
  for (const entry of COPIED)
    cpSync(path.join(PROJECT_ROOT, entry), path.join(dir, entry), { recursive: true });
  mkdirSync(path.join(dir, 'test'));
  cpSync(path.join(PROJECT_ROOT, 'test', 'support'), path.join(dir, 'test', 'support'), { recursive: true });
  symlinkSync(path.join(PROJECT_ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

/** A clean build with the project's compiler (what `npm run build` does). */
export function compile(dir: string): void {
  rmSync(path.join(dir, 'dist'), { recursive: true, force: true });
  execFileSync(
    process.execPath,
    [path.join(dir, 'node_modules', 'typescript7', 'bin', 'tsc'), '-p', path.join(dir, 'tsconfig.json')],
    {
      cwd: dir,
      stdio: 'pipe',
    },
  );
}

/** Starts `node dist/main.js` in the scratch project and waits for its "listening" log line. */
export function bootScratch(dir: string, env: Record<string, string> = {}): Promise<ProcessGateway> {
  return spawnGateway({ DATA_DIR: path.join(dir, 'var'), ...env }, dir);
}
