/**
 * Runs a compiled gateway entry point (`dist/main.js`) as a child process, as `npm start` does;
 * with WORKERS above 1 the child is a cluster's primary, and the helpers below read which worker
 * answered what from its log lines.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
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

/**
 * One request on a TCP connection of its own (no keep-alive pool), so that a cluster's primary
 * hands each request to a worker afresh (round robin).
 */
export function requestOnNewConnection(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<TestResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: init.method ?? 'GET', headers: init.headers, agent: false, timeout: 10_000 },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          const headers = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers.set(k, v);
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            // Not JSON: tests read `text`.
          }
          resolve({ status: res.statusCode ?? 0, headers, text, body });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    // As a real client would: a connection nobody answers is given up (see docs/operations.md, Workers).
    req.on('timeout', () => req.destroy(new Error('no answer within 10 s')));
    req.end(init.body);
  });
}

/** A JSON POST on a connection of its own. */
export function postOnNewConnection(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<TestResponse> {
  return requestOnNewConnection(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** A log line of the gateway, as JSON. */
// Log lines carry arbitrary fields.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type LogLine = Record<string, any>;

/** Every whole JSON line the gateway wrote so far (a line that is not JSON fails the test). */
export function logLines(gw: ProcessGateway): LogLine[] {
  const lines = gw.output().split('\n');
  lines.pop(); // after the last line break: empty, or a line still being written
  return lines
    .filter((l) => l.startsWith('{'))
    .map((l) => {
      try {
        return JSON.parse(l) as LogLine;
      } catch {
        throw new Error(`a log line is not JSON (lines of two processes mixed?): ${l}`);
      }
    });
}

/** The worker (its cluster id) that answered each request id, read from the request log lines. */
export function answeredBy(gw: ProcessGateway): Map<string, number> {
  const by = new Map<string, number>();
  for (const line of logLines(gw)) {
    if (typeof line.req_id === 'string' && line.res && typeof line.worker === 'number')
      by.set(line.req_id, line.worker);
  }
  return by;
}

/** The workers a cluster's primary announced in its listening line: id and pid. */
export function announcedWorkers(gw: ProcessGateway): Array<{ id: number; pid: number }> {
  const line = logLines(gw).find((l) => typeof l.url === 'string' && Array.isArray(l.workers));
  if (!line) throw new Error(`no listening line naming workers\n${gw.output()}`);
  return line.workers as Array<{ id: number; pid: number }>;
}

/**
 * Runs the fixture gateway's entry point expecting it to refuse to start: its exit code, stdout
 * and stderr. A gateway that starts after all is killed (the caller's assertions then fail).
 */
export function startExpectingRefusal(
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [FIXTURE_MAIN], {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => {
    stdout += String(c);
    if (stdout.includes('gateway listening')) child.kill('SIGKILL');
  });
  child.stderr.on('data', (c) => (stderr += String(c)));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}
