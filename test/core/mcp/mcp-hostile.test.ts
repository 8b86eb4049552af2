/**
 * The MCP endpoints under hostile input (issue 25): every message gets a JSON-RPC answer at once,
 * also the ones the SDK's stricter schema drops; a stranger's cancellations reach nobody's calls;
 * a client that goes away before its call is charged or settled pays nothing; and the slots and
 * memory of every exchange are given back. Kernel test: fixture plugins only (a slow echo), real
 * gateway on loopback, the official SDK client, real signatures against the facilitator stand-in.
 */
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startFacilitatorStandin, type FacilitatorStandin } from '../../support/facilitator-standin';
import { startTestGateway, type TestGateway } from '../../support/gateway';
import { makePluginsDir, writeSlowPlugin } from '../../support/js-plugin';
import { callTool, connectMcp, structured } from '../../support/mcp-client';
import { randomAddress, TestPayer, usdcOnBase } from '../payments/payer';

const SLOW = 'local-zz-slow';
const SLOW_MS = 400;
const PRICE = 1000;
const ACCEPT = 'application/json, text/event-stream';
const now = () => Math.floor(Date.now() / 1000);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Messages that pass the JSON-RPC shape but not the MCP SDK's request schema. */
const REFUSED_BY_SDK: Array<[string, Record<string, unknown>, string]> = [
  ['an extra top-level member', { jsonrpc: '2.0', id: 41, method: 'tools/list', extra: 1 }, 'extra'],
  [
    'params._meta not an object',
    { jsonrpc: '2.0', id: 'm-2', method: 'tools/list', params: { _meta: 5 } },
    'params._meta',
  ],
  [
    '_meta.progressToken an object',
    { jsonrpc: '2.0', id: 43, method: 'ping', params: { _meta: { progressToken: { a: 1 } } } },
    'progressToken',
  ],
];

describe('MCP under hostile input', () => {
  let standin: FacilitatorStandin;
  let gw: TestGateway;
  let fixtures: string;
  const clients: Client[] = [];
  const payTo = randomAddress();

  before(async () => {
    fixtures = makePluginsDir();
    writeSlowPlugin(fixtures, SLOW, SLOW_MS);
    standin = await startFacilitatorStandin();
    gw = await startTestGateway(gatewayOptions());
  });
  const gatewayOptions = () => ({
    pluginDirs: [fixtures],
    env: {
      X402_PAY_TO: payTo,
      X402_FACILITATOR_URL: standin.url,
      TRIAL_CREDIT_MICRO_USDC: '1000000',
      // The default cap (32 per client): slots that are never given back show within 32 requests.
      CONCURRENT_REQUESTS_PER_CLIENT: '32',
      // The stranger is another client (X-Forwarded-For through the loopback "proxy").
      TRUST_PROXY: 'loopback',
    },
  });
  after(async () => {
    for (const c of clients) await c.close();
    await gw.close();
    await standin.close();
    rmSync(fixtures, { recursive: true, force: true });
  });

  /** One raw POST; a request left unanswered fails the test after 3 s instead of hanging it. */
  async function post(
    path: string,
    body: unknown,
    headers: Record<string, string> = {},
    signal?: AbortSignal,
  ) {
    const res = await fetch(gw.url + path, {
      method: 'POST',
      headers: { Accept: ACCEPT, 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: signal ?? AbortSignal.timeout(3_000),
    });
    const text = await res.text();
    return { status: res.status, text, json: text ? JSON.parse(text) : undefined };
  }
  const newKey = async () =>
    (await gw.post('/keys/create', { owner_label: 'hostile test' })).body.api_key as string;
  const status = async (key: string) => (await gw.get('/keys/status', { 'X-API-Key': key })).body;
  const toolCall = (id: number | string, args: Record<string, unknown> = { n: 2 }, meta?: object) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: SLOW, arguments: args, ...(meta ? { _meta: meta } : {}) },
  });

  describe('messages the SDK would drop', () => {
    for (const path of ['/preview/mcp', '/mcp']) {
      for (const [what, message, member] of REFUSED_BY_SDK) {
        it(`${path}: ${what} is answered at once with -32600 under its own id, naming the member`, async () => {
          const res = await post(path, message);
          expect(res.status).to.equal(400);
          expect(res.json).to.include({ jsonrpc: '2.0', id: message.id });
          expect(res.json.error.code).to.equal(-32600);
          expect(res.json.error.message).to.match(/Invalid Request/);
          expect(res.json.error.data.problems, JSON.stringify(res.json)).to.have.length.greaterThan(0);
          expect(res.json.error.message).to.include(member);
        });
      }
    }

    it('/mcp: 40 of them from one client (more than its 32 slots) leave every slot free for its next calls', async () => {
      const key = await newKey();
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          post('/mcp', { ...REFUSED_BY_SDK[i % 3][1], id: i + 1 }, { 'X-API-Key': key }),
        ),
      );
      expect(answers.map((a) => a.status)).to.deep.equal(new Array(40).fill(400));
      const ok = await post('/mcp', toolCall(99), { 'X-API-Key': key });
      expect(ok.status).to.equal(200);
      expect(ok.json.result.isError, ok.text).to.not.equal(true);
      const broker = await gw.post(
        '/broker/call',
        { product_id: 'jp-local-pack-v1-zz-slow', query: { n: 1 } },
        { 'X-API-Key': key },
      );
      expect(broker.status, broker.text).to.equal(200);
    });

    it('/preview/mcp: 2,000 of them are all answered (none left waiting in the process)', async () => {
      let answered = 0;
      for (let round = 0; round < 20; round++) {
        const batch = await Promise.all(
          Array.from({ length: 100 }, (_, i) =>
            post('/preview/mcp', { ...REFUSED_BY_SDK[i % 3][1], id: round * 100 + i }),
          ),
        );
        answered += batch.filter((a) => a.status === 400 && a.json.error.code === -32600).length;
      }
      expect(answered).to.equal(2000);
    });

    it('a notification the SDK would drop is refused with 400; a valid one is accepted with 202', async () => {
      const bad = await post('/preview/mcp', { jsonrpc: '2.0', method: 'notifications/progress', params: 7 });
      expect(bad.status).to.equal(400);
      const extra = await post('/preview/mcp', { jsonrpc: '2.0', method: 'notifications/initialized', x: 1 });
      expect(extra.status).to.equal(400);
      expect(extra.json.error.code).to.equal(-32600);
      const good = await post('/preview/mcp', { jsonrpc: '2.0', method: 'notifications/initialized' });
      expect(good.status).to.equal(202);
    });
  });

  describe("cancellations address no other client's call", () => {
    // A fresh gateway: its servers number requests from 1, inside the stranger's window.
    before(async () => {
      await gw.close();
      gw = await startTestGateway(gatewayOptions());
    });
    /**
     * A keyless stranger (another address) cancelling, round after round, every request id a
     * fresh server has given so far (the victims' among them), as numbers and as strings, on both
     * endpoints, until told to stop.
     */
    async function cancelEverything(stop: () => boolean): Promise<number> {
      let sent = 0;
      const stranger = { 'X-Forwarded-For': '203.0.113.66' };
      while (!stop()) {
        const batch = [];
        for (let id = 1; id <= 40; id++) {
          for (const requestId of [id, String(id)]) {
            for (const path of ['/mcp', '/preview/mcp']) {
              const message = {
                jsonrpc: '2.0',
                method: 'notifications/cancelled',
                params: { requestId, reason: 'x' },
              };
              batch.push(post(path, message, stranger));
              sent++;
            }
          }
        }
        const answers = await Promise.all(batch);
        expect(answers.every((a) => a.status === 202)).to.equal(true);
      }
      return sent;
    }

    it('key credit: every call of the key is answered with its data and charged once', async () => {
      const key = await newKey();
      const client = await connectMcp(gw, '/mcp', { 'X-API-Key': key });
      clients.push(client);
      const before = await status(key);
      let done = false;
      const calls = Promise.all(
        Array.from({ length: 8 }, (_, i) => callTool(client, SLOW, { n: (i % 9) + 1 })),
      );
      const stranger = cancelEverything(() => done);
      const results = await calls.finally(() => (done = true));
      expect(await stranger).to.be.greaterThan(0);
      for (const r of results) expect(structured(r)._gateway.credit.charged_micro_usdc).to.equal(PRICE);
      const after = await status(key);
      expect(before.balance.micro_usdc - after.balance.micro_usdc).to.equal(8 * PRICE);
      expect(after.spent.calls - before.spent.calls).to.equal(8);
    });

    it('x402: a paid call is answered with its data and settled once', async () => {
      const client = await connectMcp(gw, '/mcp');
      clients.push(client);
      const payer = new TestPayer();
      const terms = usdcOnBase(payTo, PRICE);
      const settles = standin.calls.settle;
      let done = false;
      const paid = Promise.all(
        [1, 2, 3].map(async (n) => {
          const p = payer.v2(await payer.sign(terms, now()), terms, `mcp://tool/${SLOW}`);
          return callTool(client, SLOW, { n }, { 'x402/payment': p });
        }),
      );
      const stranger = cancelEverything(() => done);
      const results = await paid.finally(() => (done = true));
      await stranger;
      for (const r of results) {
        expect(r.isError, JSON.stringify(r.structuredContent)).to.not.equal(true);
        expect(r._meta?.['x402/payment-response']).to.include({ success: true });
      }
      expect(standin.calls.settle - settles).to.equal(3);
      expect(standin.transfersFrom(payer.address)).to.have.length(3);
    });
  });

  describe('a client that goes away before its call is paid for', () => {
    it('key credit: the call is not charged, and its slot is given back when the tool ends', async () => {
      const key = await newKey();
      const before = await status(key);
      const gone = new AbortController();
      const call = post('/mcp', toolCall(1), { 'X-API-Key': key }, gone.signal).catch((e: Error) => e);
      await sleep(SLOW_MS / 4);
      gone.abort();
      expect(await call).to.be.instanceOf(Error);
      await sleep(SLOW_MS * 2);
      const after = await status(key);
      expect(after.balance.micro_usdc).to.equal(before.balance.micro_usdc);
      expect(after.spent.calls).to.equal(before.spent.calls);
      const next = await post('/mcp', toolCall(2), { 'X-API-Key': key });
      expect(next.json.result.structuredContent._gateway.credit.charged_micro_usdc).to.equal(PRICE);
    });

    it('x402: the payment is not settled, and the same signed payment buys the call afterwards', async () => {
      const payer = new TestPayer();
      const terms = usdcOnBase(payTo, PRICE);
      const p = payer.v2(await payer.sign(terms, now()), terms, `mcp://tool/${SLOW}`);
      const settles = standin.calls.settle;
      const gone = new AbortController();
      const call = post('/mcp', toolCall(1, { n: 4 }, { 'x402/payment': p }), {}, gone.signal).catch(
        (e: Error) => e,
      );
      await sleep(SLOW_MS / 4);
      gone.abort();
      expect(await call).to.be.instanceOf(Error);
      await sleep(SLOW_MS * 2);
      expect(standin.calls.settle).to.equal(settles);
      expect(standin.transfersFrom(payer.address)).to.have.length(0);
      const retry = await post('/mcp', toolCall(2, { n: 4 }, { 'x402/payment': p }));
      expect(retry.json.result.isError, retry.text).to.not.equal(true);
      expect(standin.transfersFrom(payer.address)).to.have.length(1);
    });
  });
});
