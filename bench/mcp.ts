/**
 * A key-metered MCP tool call (POST /mcp, tools/call, X-API-Key) against the same call through
 * POST /broker/call, on the same endpoint, the same keys and the same gateway process, rounds
 * interleaved. Each MCP request is what an SDK client sends after initialize (one JSON-RPC
 * message, Accept: application/json + text/event-stream, Mcp-Protocol-Version). At the end every
 * MCP tool call must have been answered with data (gateway_mcp_tool_calls_total has no outcome but
 * "ok"; a tool error is an HTTP 200 too), and the keys' balances must equal the trial credit minus
 * the price of every debit the gateway counted. (autocannon abandons the requests in flight when a
 * timed round ends; the gateway still answers and charges them, so its own counts are the truth.)
 *   node dist/bench/mcp.js [seconds] [rounds]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { BENCH_ENDPOINT } from './lib/endpoint';
import { createKeys, keyedGatewayEnv, startServer, summarize, table, type LoadResult } from './lib/harness';

// 1,000 keys, each under the default limit of 300 a minute, as buyers would be (a sliding-window
// take reads the key's hits in the window: 10 keys at 100,000 a minute made that grow each round).
// BENCH_KEYS and BENCH_BROKER_LIMIT_PER_MINUTE override them.
const KEYS = Number(process.env.BENCH_KEYS ?? 1000);
const LIMIT_PER_MINUTE = process.env.BENCH_BROKER_LIMIT_PER_MINUTE ?? '300';
const TRIAL = 100_000_000; // 100,000 calls per key
const { endpointId: TOOL, priceMicroUsdc: PRICE } = BENCH_ENDPOINT;
const BROKER_BODY = JSON.stringify({ product_id: BENCH_ENDPOINT.brokerId, query: BENCH_ENDPOINT.query });
const MCP_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: TOOL, arguments: BENCH_ENDPOINT.query },
});
const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
};

/** autocannon requests that rotate over the keys (one key per request, round robin). */
function rotating(
  keys: string[],
  p: string,
  body: string,
  headers: Record<string, string>,
): autocannon.Request[] {
  let i = 0;
  return [
    {
      method: 'POST',
      path: p,
      body,
      setupRequest: (req) => ({
        ...req,
        headers: { ...req.headers, ...headers, 'x-api-key': keys[i++ % keys.length] },
      }),
    },
  ];
}

async function balances(url: string, keys: string[]): Promise<number> {
  let sum = 0;
  for (const k of keys) {
    const res = await fetch(`${url}/keys/status`, { headers: { 'x-api-key': k } });
    sum += ((await res.json()) as { balance: { micro_usdc: number } }).balance.micro_usdc;
  }
  return sum;
}

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 10);
  const rounds = Number(process.argv[3] ?? 3);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'jpgw-bench-mcp-'));
  const gateway = await startServer('gateway.js', keyedGatewayEnv(dataDir, KEYS, TRIAL, LIMIT_PER_MINUTE));
  try {
    const keys = await createKeys(gateway.url, KEYS);
    const broker = rotating(keys, '/broker/call', BROKER_BODY, { 'content-type': 'application/json' });
    const mcp = rotating(keys, '/mcp', MCP_BODY, MCP_HEADERS);

    // One call each, checked by hand: the same data, charged the same.
    const sample = await fetch(`${gateway.url}/mcp`, {
      method: 'POST',
      headers: { ...MCP_HEADERS, 'x-api-key': keys[0] },
      body: MCP_BODY,
    });
    const answer = (await sample.json()) as {
      result?: { isError?: boolean; structuredContent?: { n?: number; _gateway?: { credit?: unknown } } };
    };
    if (
      sample.status !== 200 ||
      answer.result?.isError ||
      answer.result?.structuredContent?.n !== BENCH_ENDPOINT.query.n
    ) {
      throw new Error(`unexpected MCP answer: ${sample.status} ${JSON.stringify(answer).slice(0, 300)}`);
    }
    const run = async (label: string, requests: autocannon.Request[], duration = seconds) =>
      summarize(label, await autocannon({ url: gateway.url, connections: 50, duration, requests }));
    await run('warm-up broker', broker, 3);
    await run('warm-up mcp', mcp, 3);
    const rows: LoadResult[] = [];
    for (let round = 1; round <= rounds; round++) {
      // Alternate which goes first, so that a drift in the machine's load hits both.
      const order = round % 2 ? ['broker', 'mcp'] : ['mcp', 'broker'];
      for (const which of order) {
        rows.push(
          await run(
            `${which === 'broker' ? 'POST /broker/call' : 'MCP tools/call'} #${round}`,
            which === 'broker' ? broker : mcp,
          ),
        );
      }
    }
    await new Promise((r) => setTimeout(r, 1000)); // the abandoned requests finish
    const metrics = await (await fetch(`${gateway.url}/metrics`)).text();
    const debits = Number(
      new RegExp(`^gateway_broker_debits_total\\{endpoint="${TOOL}"\\} (\\d+)$`, 'm').exec(metrics)?.[1],
    );
    const outcomes = [
      ...metrics.matchAll(
        new RegExp(
          `^gateway_mcp_tool_calls_total\\{surface="mcp",tool="${TOOL}",outcome="([^"]+)"\\} (\\d+)$`,
          'gm',
        ),
      ),
    ];
    const notOk = outcomes.filter(([, outcome]) => outcome !== 'ok');
    const expected = KEYS * TRIAL - PRICE * debits;
    const actual = await balances(gateway.url, keys);
    const avg = (prefix: string) => {
      const xs = rows.filter((x) => x.label.startsWith(prefix));
      return xs.reduce((s, x) => s + x.requestsPerSec, 0) / xs.length;
    };
    console.log(table(rows));
    console.log(
      `\nMCP tools/call / broker throughput ratio: ${(avg('MCP') / avg('POST')).toFixed(2)} ` +
        `(mean of ${rounds} rounds of ${seconds} s, 50 connections, ${KEYS} keys, ${TOOL})`,
    );
    console.log(
      `MCP tool calls: ${outcomes.map(([, o, n]) => `${n} ${o}`).join(', ')}; debits counted: ${debits}; ` +
        `balance: expected ${expected} micro-USDC, actual ${actual}: ${expected === actual ? 'EXACT' : 'MISMATCH'}`,
    );
    if (expected !== actual || notOk.length > 0) process.exitCode = 1;
  } finally {
    await gateway.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

void main();
