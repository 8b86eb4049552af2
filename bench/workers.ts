/**
 * The gateway with WORKERS=1 and WORKERS=2 (issue 28) in one run: preview, broker (key credit,
 * SQLite store) and paid (x402, a fresh signed payment per request, the facilitator stand-in)
 * throughput, rounds interleaved and the order alternating each round, so that the machine's
 * load hits both. CPU µs/req sums the primary's and every worker's /proc time. The broker's
 * balances are checked exact on both at the end (every 2xx charged once, across workers).
 *
 *   npm run bench:workers [-- seconds [rounds]]     (10 s, 2 rounds)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { BENCH_ENDPOINT } from './lib/endpoint';
import {
  cpuMicros,
  createKeys,
  keyedGatewayEnv,
  startServer,
  summarize,
  table,
  type LoadResult,
} from './lib/harness';
import { header, makeSigner, PAY_TO } from './lib/payments';

const PREVIEW = `/preview/v1/${BENCH_ENDPOINT.tail}${BENCH_ENDPOINT.queryString}`;
const PAID = `/v1/${BENCH_ENDPOINT.tail}${BENCH_ENDPOINT.queryString}`;
const BROKER_BODY = JSON.stringify({ product_id: BENCH_ENDPOINT.brokerId, query: BENCH_ENDPOINT.query });
const PRICE = BENCH_ENDPOINT.priceMicroUsdc;
// As bench/broker.ts: 1,000 keys, each under the default limit of 300 a minute.
const KEYS = Number(process.env.BENCH_KEYS ?? 1000);
const TRIAL = 100_000_000;

interface ClusterServer {
  workers: number;
  url: string;
  /** The primary and its workers (one process with WORKERS=1). */
  pids: number[];
  keys: string[];
  dataDir: string;
  /** Broker calls answered 2xx to the client, the warm-ups included. */
  brokerCalls: number;
  /** Broker load runs (each may leave up to 50 calls that finish, charged, after the client stopped reading). */
  brokerRuns: number;
  stop(): Promise<void>;
}

async function startGateway(workers: number, facilitatorUrl: string): Promise<ClusterServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `jpgw-bench-workers-${workers}-`));
  const child = spawn(process.execPath, [path.join(__dirname, 'servers', 'gateway-main.js')], {
    env: {
      ...process.env,
      ...keyedGatewayEnv(dataDir, KEYS, TRIAL, '300'),
      WORKERS: String(workers),
      PORT: '0',
      HOST: '127.0.0.1',
      // One client with 50 connections: neither per-client cap is what is measured.
      CONCURRENT_REQUESTS_PER_CLIENT: '10000',
      PAID_PAYMENTS_PER_MINUTE: '1000000',
      X402_PAY_TO: PAY_TO,
      X402_FACILITATOR_URL: facilitatorUrl,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const listening = await new Promise<{ url: string; workers?: Array<{ pid: number }> }>(
    (resolve, reject) => {
      let seen = '';
      const onData = (chunk: Buffer) => {
        seen += String(chunk);
        for (const line of seen.split('\n')) {
          if (!line.includes('"url":"')) continue;
          child.stdout!.off('data', onData);
          // Drain the rest (request logs) so the processes never block on a full pipe.
          child.stdout!.resume();
          child.stderr!.resume();
          return resolve(JSON.parse(line) as { url: string; workers?: Array<{ pid: number }> });
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', (c) => (seen += String(c)));
      child.once('exit', (code) => reject(new Error(`WORKERS=${workers} exited with ${code}: ${seen}`)));
    },
  );
  const url = listening.url.replace('localhost', '127.0.0.1');
  const server: ClusterServer = {
    workers,
    url,
    pids: [child.pid!, ...(listening.workers ?? []).map((w) => w.pid)],
    keys: await createKeys(url, KEYS),
    dataDir,
    brokerCalls: 0,
    brokerRuns: 0,
    stop: () =>
      new Promise((done) => {
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
  return server;
}

const cpuOf = (s: ClusterServer) => s.pids.reduce((sum, pid) => sum + cpuMicros(pid), 0);

type Path = 'preview' | 'broker' | 'paid';

async function round(s: ClusterServer, what: Path, seconds: number, label: string): Promise<LoadResult> {
  let key = 0;
  // Signed before the round (as bench/paid.ts does), so that signing does not load the client.
  const sign = makeSigner(200);
  const payments =
    what === 'paid'
      ? Array.from({ length: Math.max(5_000, seconds * 3_000) }, () => header(sign(PRICE)))
      : [];
  let paid = 0;
  const requests: autocannon.Request[] | undefined =
    what === 'broker'
      ? [
          {
            method: 'POST',
            path: '/broker/call',
            body: BROKER_BODY,
            setupRequest: (req) => ({
              ...req,
              headers: {
                ...req.headers,
                'content-type': 'application/json',
                'x-api-key': s.keys[key++ % s.keys.length],
              },
            }),
          },
        ]
      : what === 'paid'
        ? [
            {
              method: 'GET',
              path: PAID,
              setupRequest: (req) => {
                const payment = payments[paid++];
                if (payment === undefined) throw new Error('payment pool exhausted: raise its size');
                return { ...req, headers: { ...req.headers, 'x-payment': payment } };
              },
            },
          ]
        : undefined;
  const before = cpuOf(s);
  const r = await autocannon({
    url: s.url + (what === 'preview' ? PREVIEW : ''),
    connections: 50,
    duration: seconds,
    ...(requests ? { requests } : {}),
  });
  if (what === 'broker') {
    s.brokerCalls += r['2xx'];
    s.brokerRuns++;
  }
  const row = summarize(label, r);
  row.cpuUsPerReq = r.requests.total > 0 ? Math.round((cpuOf(s) - before) / r.requests.total) : NaN;
  return row;
}

/**
 * The keys' ledgers after the rounds, read through the gateway: balance plus holds must be the
 * trial credit minus one price per call charged, and the calls charged must be those answered 2xx,
 * plus at most the calls in flight when each autocannon run stopped reading (50 per run).
 */
async function brokerLedgers(s: ClusterServer): Promise<string> {
  let balance = 0;
  let charged = 0;
  for (const k of s.keys) {
    const status = (await (await fetch(`${s.url}/keys/status`, { headers: { 'x-api-key': k } })).json()) as {
      balance: { micro_usdc: number };
      reserved_in_flight: { micro_usdc: number };
      spent: { calls: number };
    };
    balance += status.balance.micro_usdc + status.reserved_in_flight.micro_usdc;
    charged += status.spent.calls;
  }
  const exact = balance === KEYS * TRIAL - PRICE * charged;
  const cut = charged - s.brokerCalls;
  const accounted = cut >= 0 && cut <= 50 * s.brokerRuns;
  return (
    `WORKERS=${s.workers}: ${charged} broker calls charged, ${s.brokerCalls} answered 2xx before the runs stopped ` +
    `(${cut} in flight at the ${s.brokerRuns} stops); balances ${exact ? 'EXACT' : 'MISMATCH'}` +
    (accounted ? '' : ', CHARGES NOT ACCOUNTED FOR')
  );
}

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 10);
  const rounds = Number(process.argv[3] ?? 2);
  const facilitator = await startServer('facilitator.js');
  const servers: ClusterServer[] = [];
  const rows: LoadResult[] = [];
  try {
    servers.push(await startGateway(1, facilitator.url), await startGateway(2, facilitator.url));
    for (const s of servers) {
      for (const what of ['preview', 'broker', 'paid'] as const) await round(s, what, 2, 'warm-up');
    }
    for (let r = 1; r <= rounds; r++) {
      for (const what of ['preview', 'broker', 'paid'] as const) {
        const order = r % 2 ? servers : [...servers].reverse();
        for (const s of order)
          rows.push(await round(s, what, seconds, `${what}, WORKERS=${s.workers} #${r}`));
      }
    }
    console.log(
      `\n## WORKERS=1 vs WORKERS=2 (50 connections, ${seconds} s rounds, LOG_LEVEL=${process.env.LOG_LEVEL ?? 'info'}, SQLite store)\n`,
    );
    console.log(table(rows.sort((a, b) => a.label.localeCompare(b.label))));
    const avg = (what: Path, workers: number) => {
      const xs = rows.filter((x) => x.label.startsWith(`${what}, WORKERS=${workers} `));
      return xs.reduce((sum, x) => sum + x.requestsPerSec, 0) / xs.length;
    };
    console.log('');
    for (const what of ['preview', 'broker', 'paid'] as const)
      console.log(`${what}: WORKERS=2 / WORKERS=1 throughput ${(avg(what, 2) / avg(what, 1)).toFixed(2)}`);
    for (const s of servers) console.log(await brokerLedgers(s));
  } finally {
    for (const s of servers) {
      await s.stop();
      rmSync(s.dataDir, { recursive: true, force: true });
    }
    await facilitator.stop();
  }
}

void main();
