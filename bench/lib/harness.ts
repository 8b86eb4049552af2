/** Starting servers in child processes and driving them with autocannon from this process. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';

export interface Server {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts a compiled bench server script; it announces "ready <port>" on stdout or stderr.
 * BENCH_CPU_PROF=<dir>: the gateway runs under `node --cpu-prof` and writes its profile to <dir>
 * when stopped.
 */
export function startServer(
  script: string,
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<Server> {
  const profileDir = script === 'gateway.js' ? process.env.BENCH_CPU_PROF : undefined;
  if (profileDir) nodeArgs = [...nodeArgs, '--cpu-prof', `--cpu-prof-dir=${profileDir}`];
  // An absolute script is another build's server (a baseline run side by side).
  const child = spawn(process.execPath, [...nodeArgs, path.resolve(__dirname, '..', 'servers', script)], {
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
            // A profiled gateway exits on SIGINT and writes its profile (bench/servers/gateway.ts).
            child.kill(profileDir ? 'SIGINT' : 'SIGKILL');
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
  /** Server CPU (user + system, from /proc) per answered request, in µs, when a server was given. */
  cpuUsPerReq?: number;
}

/** CPU time (user + system) a process has used so far, in µs, from /proc/<pid>/stat (Linux). */
export function cpuMicros(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 14th and 15th.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1e6) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}
const CLOCK_TICKS = 100; // sysconf(_SC_CLK_TCK) on Linux

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
    /** The server whose CPU per request is read from /proc. */
    cpuOf?: Server;
  },
): Promise<LoadResult> {
  const pid = opts.cpuOf?.child.pid;
  const cpuBefore = pid === undefined ? NaN : cpuMicros(pid);
  const r = await autocannon({
    url: opts.url,
    connections: opts.connections ?? 50,
    duration: opts.duration ?? 10,
    method: opts.method ?? 'GET',
    headers: opts.headers,
    body: opts.body,
    ...(opts.requests ? { requests: opts.requests } : {}),
  });
  const row = summarize(label, r);
  if (pid !== undefined) {
    const answered = r.requests.total;
    row.cpuUsPerReq = answered > 0 ? Math.round((cpuMicros(pid) - cpuBefore) / answered) : NaN;
  }
  return row;
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
  const cpu = rows.some((r) => r.cpuUsPerReq !== undefined);
  const head =
    '| run | req/s | p50 ms | p99 ms | non-2xx | errors |' +
    (cpu ? ' CPU µs/req |\n|---|---:|---:|---:|---:|---:|---:|' : '\n|---|---:|---:|---:|---:|---:|');
  return [
    head,
    ...rows.map(
      (r) =>
        `| ${r.label} | ${r.requestsPerSec} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${r.errors} |` +
        (cpu ? ` ${r.cpuUsPerReq ?? ''} |` : ''),
    ),
  ].join('\n');
}

/** `count` API keys created on the gateway at `url` (each with the gateway's trial credit). */
/**
 * The environment of a gateway for key-metered load: `keys` keys, each granted `trialMicro` of
 * trial credit within one day's budget, at `limitPerMinute` calls a minute each.
 */
export function keyedGatewayEnv(
  dataDir: string,
  keys: number,
  trialMicro: number,
  limitPerMinute: string,
): Record<string, string> {
  return {
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    DATA_DIR: dataDir,
    TRIAL_CREDIT_MICRO_USDC: String(trialMicro),
    TRIAL_CREDIT_DAILY_BUDGET_MICRO_USDC: String(keys * trialMicro),
    BROKER_LIMIT_PER_MINUTE: limitPerMinute,
    KEY_CREATE_LIMIT_PER_HOUR: String(Math.max(1000, keys)),
  };
}

export async function createKeys(url: string, count: number): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${url}/keys/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"owner_label":"bench ${i}"}`,
    });
    keys.push(((await res.json()) as { api_key: string }).api_key);
  }
  return keys;
}
