/**
 * A scratch copy of the project in a temporary directory (sources, data and test support, with
 * node_modules linked), for tests that add or scaffold plugin folders, compile with the real
 * compiler and boot the real entry point, without touching the working tree.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../../config/paths';

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

export interface RunningScratch {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts `node dist/main.js` in the scratch project and waits for its "listening" log line. */
export function bootScratch(dir: string, env: Record<string, string> = {}): Promise<RunningScratch> {
  const child = spawn(process.execPath, [path.join(dir, 'dist', 'main.js')], {
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DATA_DIR: path.join(dir, 'var'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(
      () => reject(new Error(`no listening line within 15 s\n${out}\n${err}`)),
      15_000,
    );
    child.stderr!.on('data', (c) => (err += String(c)));
    child.stdout!.on('data', (c) => {
      out += String(c);
      const m = /"url":"(http:\/\/[^"]+)"/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: m[1],
          child,
          stop: () =>
            new Promise<void>((done) => {
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`gateway exited with ${code}\n${out}\n${err}`));
    });
  });
}
