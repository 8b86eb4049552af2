/** Runs a compiled gateway entry point (`dist/main.js`) as a child process, as `npm start` does. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { PROJECT_ROOT } from '../../config/paths';
import { readResponse, type TestResponse } from './gateway';

export interface ProcessGateway {
  url: string;
  child: ChildProcess;
  /** Everything the process printed so far. */
  output(): string;
  /** SIGTERM and wait for exit. */
  stop(): Promise<void>;
  /** SIGKILL (kill -9) and wait for exit. */
  kill(): Promise<void>;
}

/** The gateway's entry point on the kernel's fixture plugins (compiled test/support/fixture-main.ts). */
export const FIXTURE_MAIN = path.join(__dirname, 'fixture-main.js');

/** `wrap`: a command to run the gateway under, e.g. `['unshare', '--pid', '--fork']`. */
export function spawnGateway(
  env: Record<string, string>,
  root: string = PROJECT_ROOT,
  wrap: readonly string[] = [],
): Promise<ProcessGateway> {
  return spawnEntry(path.join(root, 'dist', 'main.js'), env, root, wrap);
}

/** The gateway as a process, as `npm start` runs it, on the kernel's fixture plugins only. */
export function spawnFixtureGateway(
  env: Record<string, string>,
  wrap: readonly string[] = [],
): Promise<ProcessGateway> {
  return spawnEntry(FIXTURE_MAIN, env, PROJECT_ROOT, wrap);
}

function spawnEntry(
  entry: string,
  env: Record<string, string>,
  root: string,
  wrap: readonly string[],
): Promise<ProcessGateway> {
  const argv = [...wrap, process.execPath, entry];
  const child = spawn(argv[0], argv.slice(1), {
    cwd: root,
    // Tests drive many concurrent calls from one address; the cap has its own test.
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      CONCURRENT_REQUESTS_PER_CLIENT: '10000',
      PAID_PAYMENTS_PER_MINUTE: '1000000',
      // Tests grant keys large trial credit; the daily budget has its own tests.
      TRIAL_CREDIT_DAILY_BUDGET_MICRO_USDC: '1000000000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c) => (out += String(c)));
  child.stderr!.on('data', (c) => (out += String(c)));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line within 15 s\n${out}`)), 15_000);
    const onData = () => {
      const m = /"url":"(http:\/\/[^"]+)"/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      resolve({
        url: m[1],
        child,
        output: () => out,
        stop: async () => {
          child.kill('SIGTERM');
          await exited;
        },
        kill: async () => {
          child.kill('SIGKILL');
          await exited;
        },
      });
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`gateway exited with ${code}\n${out}`));
    });
  });
}

/** A JSON POST to a process gateway's URL. */
export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<TestResponse> {
  return readResponse(
    await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    }),
  );
}

/** A GET of a process gateway's URL. */
export async function getUrl(url: string, headers: Record<string, string> = {}): Promise<TestResponse> {
  return readResponse(await fetch(url, { headers }));
}
