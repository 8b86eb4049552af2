/** Starting servers in child processes and driving them with autocannon from this process. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';

export interface Server {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts a compiled bench server script; it announces "ready <port>" on stdout or stderr. */
export function startServer(
  script: string,
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<Server> {
  const child = spawn(process.execPath, [...nodeArgs, path.join(__dirname, '..', 'servers', script)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += String(chunk);
      const m = /ready (\d+)/.exec(seen);
      if (!m) return;
      child.stdout!.off('data', onData);
      child.stderr!.off('data', onData);
      // Drain the rest (request logs) so the child never blocks on a full pipe.
      child.stdout!.resume();
      child.stderr!.resume();
      resolve({
        url: `http://127.0.0.1:${m[1]}`,
        child,
        stop: () =>
          new Promise((done) => {
            child.once('exit', () => done());
            child.kill('SIGKILL');
          }),
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}: ${seen}`)));
  });
}

export interface LoadResult {
  label: string;
  requestsPerSec: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

export async function load(
  label: string,
  opts: {
    url: string;
    connections?: number;
    duration?: number;
    method?: 'GET' | 'POST';
    headers?: Record<string, string>;
    body?: string;
    /** Per-request setup (a fresh key or payment per request). */
    requests?: autocannon.Request[];
  },
): Promise<LoadResult> {
  const r = await autocannon({
    url: opts.url,
    connections: opts.connections ?? 50,
    duration: opts.duration ?? 10,
    method: opts.method ?? 'GET',
    headers: opts.headers,
    body: opts.body,
    ...(opts.requests ? { requests: opts.requests } : {}),
  });
  return summarize(label, r);
}

/** The row of a finished autocannon run. */
export function summarize(label: string, r: autocannon.Result): LoadResult {
  return {
    label,
    requestsPerSec: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  };
}

export function table(rows: LoadResult[]): string {
  const head = '| run | req/s | p50 ms | p99 ms | non-2xx | errors |\n|---|---:|---:|---:|---:|---:|';
  return [
    head,
    ...rows.map(
      (r) => `| ${r.label} | ${r.requestsPerSec} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${r.errors} |`,
    ),
  ].join('\n');
}
