/**
 * Every ratio of the hot path's targets (issue 35) in ONE run, rounds interleaved with the order
 * alternating, so that the machine's load hits every side alike:
 *   preview / bare Express (no Accept-Encoding), preview / bare Express + `compression` (both with
 *   `Accept-Encoding: gzip, deflate, br`), broker / bare Express, paid (x402) / `@x402/express`,
 *   MCP tools/call / broker (the same gateway).
 * `--baseline <checkout>`: that build's gateway (`<checkout>/dist/bench/servers/gateway.js`, built
 * beforehand, node_modules beside it) runs every gateway round too, on a store of its own: the
 * before/after table comes from the same rounds.
 *   node dist/bench/yardsticks.js [seconds [rounds]] [--baseline <dir>]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { BENCH_ENDPOINT } from './lib/endpoint';
import { header, makeSigner, PAY_TO } from './lib/payments';
import { paidLoad } from './lib/paid-load';
import {
  createKeys,
  keyedGatewayEnv,
  load,
  startServer,
  table,
  type LoadResult,
  type Server,
} from './lib/harness';

const args = process.argv.slice(2);
const baselineAt = args.indexOf('--baseline');
const BASELINE = baselineAt >= 0 ? path.resolve(args[baselineAt + 1]) : undefined;
const [SECONDS, ROUNDS] = args.filter((_, i) => baselineAt < 0 || (i !== baselineAt && i !== baselineAt + 1));
const seconds = Number(SECONDS ?? 5);
const rounds = Number(ROUNDS ?? 2);

const KEYS = 1000;
const TRIAL = 100_000_000;
const PRICE = BENCH_ENDPOINT.priceMicroUsdc;
const PREVIEW = `/preview/v1/${BENCH_ENDPOINT.tail}${BENCH_ENDPOINT.queryString}`;
const PAID = `/v1/${BENCH_ENDPOINT.tail}${BENCH_ENDPOINT.queryString}`;
/** What fetch, browsers and Python send. */
const ACCEPT = { 'accept-encoding': 'gzip, deflate, br' };
const BROKER_BODY = JSON.stringify({ product_id: BENCH_ENDPOINT.brokerId, query: BENCH_ENDPOINT.query });
const MCP_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: BENCH_ENDPOINT.endpointId, arguments: BENCH_ENDPOINT.query },
});
const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
};

function rotating(keys: string[], p: string, body: string, headers: Record<string, string>) {
  let i = 0;
  return [
    {
      method: 'POST' as const,
      path: p,
      body,
      setupRequest: (req: autocannon.Request) => ({
        ...req,
        headers: { ...req.headers, ...headers, 'x-api-key': keys[i++ % keys.length] },
      }),
    },
  ];
}

/** A fresh x402 v2 PAYMENT-SIGNATURE per request, built from the server's own 402 challenge. */
async function paymentsFor(url: string, count: number, sign: ReturnType<typeof makeSigner>) {
  const r = await fetch(url);
  const h = r.headers.get('payment-required');
  if (r.status !== 402 || !h) throw new Error(`${url} answered ${r.status} without PAYMENT-REQUIRED`);
  const required = JSON.parse(Buffer.from(h, 'base64').toString('utf8')) as {
    accepts: Array<{ amount: string }>;
    resource?: unknown;
  };
  if (required.accepts[0].amount !== String(PRICE))
    throw new Error(`${url} asks ${required.accepts[0].amount}`);
  return Array.from({ length: count }, () =>
    Buffer.from(
      JSON.stringify({
        x402Version: 2,
        resource: required.resource,
        accepted: required.accepts[0],
        payload: sign(PRICE),
      }),
    ).toString('base64'),
  );
}

interface Side {
  name: 'gateway' | 'baseline';
  server: Server;
  dir: string;
  keys: string[];
}

async function main(): Promise<void> {
  const facilitator = await startServer('facilitator.js');
  const env = (dir: string) => ({
    ...keyedGatewayEnv(dir, KEYS, TRIAL, '300'),
    X402_PAY_TO: PAY_TO,
    X402_FACILITATOR_URL: facilitator.url,
    PAID_PAYMENTS_PER_MINUTE: '1000000',
  });
  const sides: Side[] = [];
  const servers: Server[] = [facilitator];
  const rows: LoadResult[] = [];
  try {
    const builds: Array<[Side['name'], string]> = [['gateway', 'gateway.js']];
    if (BASELINE) builds.push(['baseline', path.join(BASELINE, 'dist/bench/servers/gateway.js')]);
    for (const [name, script] of builds) {
      const dir = mkdtempSync(path.join(tmpdir(), `jpgw-bench-yardsticks-${name}-`));
      const server = await startServer(script, env(dir));
      servers.push(server);
      sides.push({ name, server, dir, keys: await createKeys(server.url, KEYS) });
    }
    const [gw] = sides;
    const previewBody = await (await fetch(gw.server.url + PREVIEW)).text();
    const brokerSample = await fetch(`${gw.server.url}/broker/call`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': gw.keys[0] },
      body: BROKER_BODY,
    });
    if (brokerSample.status !== 200) throw new Error(`broker answered ${brokerSample.status}`);
    const sign = makeSigner(200);
    const paidProbe = await fetch(gw.server.url + PAID, { headers: { 'x-payment': header(sign(PRICE)) } });
    if (paidProbe.status !== 200) throw new Error(`paid probe answered ${paidProbe.status}`);
    const bare = await startServer('bare-express.js', { BENCH_BODY: previewBody });
    const compressed = await startServer('compression-express.js', { BENCH_BODY: previewBody });
    const bareBroker = await startServer('bare-express.js', { BENCH_BODY: await brokerSample.text() });
    const official = await startServer('x402-express.js', {
      BENCH_BODY: await paidProbe.text(),
      BENCH_ROUTE: PAID.split('?')[0],
      BENCH_PRICE: `$${PRICE / 1e6}`,
      X402_PAY_TO: PAY_TO,
      X402_FACILITATOR_URL: facilitator.url,
    });
    servers.push(bare, compressed, bareBroker, official);

    // What each side answers with Accept-Encoding (the yardstick and the gateways must compress).
    const encodings: string[] = [];
    for (const [label, url] of [
      ['compression', compressed.url],
      ...sides.map((s) => [s.name, s.server.url] as const),
    ]) {
      const r = await fetch(url + PREVIEW, { headers: ACCEPT });
      const raw = Buffer.from(await r.arrayBuffer()).length; // fetch decodes; the size is the body's
      encodings.push(`${label}: ${r.headers.get('content-encoding') ?? 'identity'} (${raw} B decoded)`);
    }
    console.log(
      `preview body ${Buffer.byteLength(previewBody)} B; with ${ACCEPT['accept-encoding']}: ${encodings.join(', ')}`,
    );
    console.log(
      `${seconds} s rounds, ${rounds} rounds, 50 connections, ${KEYS} keys at 300/min${BASELINE ? `, baseline ${BASELINE}` : ''}`,
    );

    const poolSize = Math.max(5_000, seconds * 2_500);
    await load('warm-up', { url: bare.url + PREVIEW, duration: 2 });
    for (const s of sides) {
      await load('warm-up', { url: s.server.url + PREVIEW, duration: 2 });
      await load('warm-up', { url: s.server.url + PREVIEW, duration: 2, headers: ACCEPT });
      await autocannon({
        url: s.server.url,
        connections: 50,
        duration: 2,
        requests: rotating(s.keys, '/broker/call', BROKER_BODY, { 'content-type': 'application/json' }),
      });
      await autocannon({
        url: s.server.url,
        connections: 50,
        duration: 2,
        requests: rotating(s.keys, '/mcp', MCP_BODY, MCP_HEADERS),
      });
    }
    for (let round = 1; round <= rounds; round++) {
      const steps: Array<() => Promise<LoadResult>> = [
        () => load(`bare express #${round}`, { url: bare.url + PREVIEW, duration: seconds, cpuOf: bare }),
        () =>
          load(`bare express + compression, br #${round}`, {
            url: compressed.url + PREVIEW,
            duration: seconds,
            headers: ACCEPT,
            cpuOf: compressed,
          }),
        () =>
          load(`bare express broker body #${round}`, {
            url: `${bareBroker.url}/broker/call`,
            method: 'POST',
            body: BROKER_BODY,
            headers: { 'content-type': 'application/json' },
            duration: seconds,
            cpuOf: bareBroker,
          }),
        async () => {
          const pool = await paymentsFor(official.url + PAID, poolSize, sign);
          return paidLoad(`@x402/express #${round}`, official.url + PAID, seconds, pool, official);
        },
      ];
      for (const s of sides) {
        const cpuOf = s.server;
        steps.push(
          () =>
            load(`${s.name} preview #${round}`, { url: s.server.url + PREVIEW, duration: seconds, cpuOf }),
          () =>
            load(`${s.name} preview, br #${round}`, {
              url: s.server.url + PREVIEW,
              duration: seconds,
              headers: ACCEPT,
              cpuOf,
            }),
          () =>
            load(`${s.name} broker #${round}`, {
              url: s.server.url,
              duration: seconds,
              requests: rotating(s.keys, '/broker/call', BROKER_BODY, { 'content-type': 'application/json' }),
              cpuOf,
            }),
          () =>
            load(`${s.name} MCP tools/call #${round}`, {
              url: s.server.url,
              duration: seconds,
              requests: rotating(s.keys, '/mcp', MCP_BODY, MCP_HEADERS),
              cpuOf,
            }),
          async () => {
            const pool = await paymentsFor(s.server.url + PAID, poolSize, sign);
            return paidLoad(`${s.name} paid (x402) #${round}`, s.server.url + PAID, seconds, pool, cpuOf);
          },
        );
      }
      // The order alternates each round, so that a drift of the machine's load hits all.
      for (const step of round % 2 ? steps : steps.reverse()) rows.push(await step());
    }
  } finally {
    for (const s of servers.reverse()) await s.stop();
    for (const s of sides) rmSync(s.dir, { recursive: true, force: true });
  }

  console.log(table(rows));
  const of = (prefix: string) => rows.filter((r) => r.label.startsWith(`${prefix} #`));
  const rps = (prefix: string) => of(prefix).reduce((t, r) => t + r.requestsPerSec, 0) / of(prefix).length;
  const cpu = (prefix: string) =>
    of(prefix)
      .map((r) => r.cpuUsPerReq)
      .join('-');
  const ratio = (a: string, b: string) => (rps(a) / rps(b)).toFixed(2);
  const targets: Array<[string, string, string, number]> = [
    ['preview / bare Express', 'preview', 'bare express', 0.8],
    ['preview, br / bare Express + compression', 'preview, br', 'bare express + compression, br', 1.2],
    ['broker / bare Express', 'broker', 'bare express broker body', 0.6],
    ['paid / @x402/express', 'paid (x402)', '@x402/express', 2],
    ['MCP tools/call / broker', 'MCP tools/call', 'broker', 0.7],
  ];
  const own = (side: string, what: string) =>
    ['broker', 'MCP tools/call'].includes(what) ? `${side} ${what}` : what;
  console.log(
    `\n| ratio (${seconds} s x ${rounds} rounds, one run) | target |${sides.map((s) => ` ${s.name} |`).join('')}${sides
      .map((s) => ` ${s.name} CPU µs/req |`)
      .join('')}\n|---|---:|${sides.map(() => '---:|').join('')}${sides.map(() => '---:|').join('')}`,
  );
  for (const [label, mine, yardstick, target] of targets) {
    const cells = sides.map((s) => {
      const r = ratio(`${s.name} ${mine}`, own(s.name, yardstick));
      return ` ${r}${Number(r) >= target ? '' : ' (below)'} |`;
    });
    console.log(
      `| ${label} | ${target} |${cells.join('')}${sides.map((s) => ` ${cpu(`${s.name} ${mine}`)} |`).join('')}`,
    );
  }
  console.log(
    `yardsticks' CPU µs/req: bare ${cpu('bare express')}, + compression ${cpu('bare express + compression, br')}, ` +
      `broker body ${cpu('bare express broker body')}, @x402/express ${cpu('@x402/express')}`,
  );
}

void main();
