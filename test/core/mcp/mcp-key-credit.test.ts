/**
 * MCP /mcp paid from API-key credit, on the kernel's fixture plugins (every tool charged its price:
 * the suite runs over plugins/ too, in test/products/mcp-every-tool.test.ts).
 */
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ECHO, FAILING, fixtures } from '../../support/fx-endpoints';
import { startTestGateway, type TestGateway } from '../../support/gateway';
import { callTool, connectMcp, structured } from '../../support/mcp-client';
import { FIXTURE_PLUGINS } from '../../support/plugin-sets';
import { describeEveryToolOnKeyCredit } from './every-tool-suite';

const TOOL = ECHO.endpointId;
const ARGS = { n: 3 };

/** An answer without its `_gateway.credit` block (which differs between a call and its replay). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function withoutCredit(body: any): unknown {
  const { credit: _credit, ...gateway } = body._gateway;
  return { ...body, _gateway: gateway };
}

describeEveryToolOnKeyCredit(FIXTURE_PLUGINS);

describe('MCP /mcp paid from API-key credit (X-API-Key)', () => {
  let gw: TestGateway;
  const clients: Client[] = [];
  before(async () => {
    gw = await startTestGateway({
      ...fixtures(),
      clock: '2026-11-23T03:00:00Z',
      env: { TRIAL_CREDIT_MICRO_USDC: '10000000' },
    });
  });
  after(async () => {
    for (const c of clients) await c.close();
    await gw.close();
  });

  async function newKey(): Promise<{ key: string; client: Client }> {
    const key = (await gw.post('/keys/create', { owner_label: 'mcp test' })).body.api_key as string;
    const client = await connectMcp(gw, '/mcp', { 'X-API-Key': key });
    clients.push(client);
    return { key, client };
  }
  const status = async (key: string) => (await gw.get('/keys/status', { 'X-API-Key': key })).body;

  it('answers invalid arguments with the 422 correction_hints and charges nothing', async () => {
    const { key, client } = await newKey();
    const before = await status(key);
    const result = await callTool(client, TOOL, { n: 10 });
    expect(result.isError).to.equal(true);
    const body = structured(result);
    const http = await gw.post(
      '/broker/call',
      { product_id: ECHO.brokerId, query: { n: 10 } },
      { 'X-API-Key': key },
    );
    expect(http.status).to.equal(422);
    // The same problems; the hint writes the parameter where each client sends it.
    const asBroker = (h: { hint: string }) => ({
      ...h,
      hint: h.hint.replace(/"arguments"/g, '"query"'),
    });
    expect(body.correction_hints.map(asBroker)).to.deep.equal(http.body.correction_hints);
    expect(body.correction_hints[0]).to.include({ parameter: 'n', code: 'out_of_range' });
    expect(body.correction_hints[0].hint).to.include('"arguments": {"n": 3}');
    const after = await status(key);
    expect(after.balance).to.deep.equal(before.balance);
    expect(after.spent).to.deep.equal(before.spent);
    expect(after.recent_usage).to.deep.equal(before.recent_usage);
  });

  it('gives the hold back when the handler fails: the buyer pays nothing', async () => {
    const { key, client } = await newKey();
    const before = (await status(key)).balance.micro_usdc;
    const result = await callTool(client, FAILING.endpointId, { fail: 'unavailable' });
    expect(result.isError).to.equal(true);
    expect(structured(result)).to.include({ error: 'source_unavailable' });
    const after = await status(key);
    expect(after.balance.micro_usdc).to.equal(before);
    expect(after.reserved_in_flight.micro_usdc).to.equal(0);
    expect(after.recent_usage[0]).to.include({ status: 503, price_micro_usdc: 0 });
  });

  describe('idempotency key in params._meta', () => {
    it('replays the first result to a retry with the same key and arguments, charging once', async () => {
      const { key, client } = await newKey();
      const before = (await status(key)).balance.micro_usdc;
      const meta = { 'idempotency-key': 'mcp-call-1' };
      const first = await callTool(client, TOOL, ARGS, meta);
      const second = await callTool(client, TOOL, ARGS, meta);
      // The same answer; the replay charged nothing and names the original charge.
      expect(withoutCredit(structured(second))).to.deep.equal(withoutCredit(structured(first)));
      expect(structured(second)._gateway.credit).to.deep.include({ charged_micro_usdc: 0 });
      expect(structured(second)._gateway.credit.original_charge).to.include({ charged_micro_usdc: 1000 });
      expect(first._meta?.['idempotent-replayed']).to.equal(undefined);
      expect(second._meta?.['idempotent-replayed']).to.equal(true);
      expect((await status(key)).balance.micro_usdc).to.equal(before - 1000);
    });

    it('charges concurrent retries once and gives them all the same result', async () => {
      const { key, client } = await newKey();
      const before = (await status(key)).balance.micro_usdc;
      const meta = { 'idempotency-key': 'mcp-burst-1' };
      const all = await Promise.all(Array.from({ length: 8 }, () => callTool(client, TOOL, ARGS, meta)));
      for (const r of all)
        expect(withoutCredit(structured(r))).to.deep.equal(withoutCredit(structured(all[0])));
      const charged = all.map((r) => structured(r)._gateway.credit.charged_micro_usdc);
      expect(charged.filter((c) => c === 1000)).to.have.length(1);
      const after = await status(key);
      expect(after.balance.micro_usdc).to.equal(before - 1000);
      expect(after.spent.calls).to.equal(1);
    });

    it('refuses the same key with other arguments, and a malformed key; neither is charged', async () => {
      const { key, client } = await newKey();
      await callTool(client, TOOL, ARGS, { 'idempotency-key': 'mcp-call-2' });
      const before = (await status(key)).balance.micro_usdc;
      const other = await callTool(client, TOOL, { n: 4 }, { 'idempotency-key': 'mcp-call-2' });
      expect(other.isError).to.equal(true);
      expect(structured(other).error).to.equal('idempotency_key_reused');
      for (const bad of ['x'.repeat(300), 42, 'has space']) {
        const res = await callTool(client, TOOL, ARGS, { 'idempotency-key': bad });
        expect(structured(res).error, String(bad)).to.equal('invalid_idempotency_key');
      }
      expect((await status(key)).balance.micro_usdc).to.equal(before);
    });

    it("keeps MCP idempotency keys apart from the broker's", async () => {
      const { key, client } = await newKey();
      const before = (await status(key)).balance.micro_usdc;
      await gw.post(
        '/broker/call',
        { product_id: ECHO.brokerId, query: ARGS },
        { 'X-API-Key': key, 'Idempotency-Key': 'shared-1' },
      );
      const mcp = await callTool(client, TOOL, ARGS, { 'idempotency-key': 'shared-1' });
      expect(mcp._meta?.['idempotent-replayed']).to.equal(undefined);
      expect(structured(mcp)._gateway.surface).to.equal('mcp');
      expect((await status(key)).balance.micro_usdc).to.equal(before - 2000);
    });
  });

  it('refuses a connection with an X-API-Key that is not a key (HTTP 401, JSON)', async () => {
    let caught: unknown;
    try {
      await connectMcp(gw, '/mcp', { 'X-API-Key': 'jpgw_not-a-real-key' });
    } catch (err) {
      caught = err;
    }
    expect(caught).to.be.instanceOf(StreamableHTTPError);
    expect((caught as StreamableHTTPError).code).to.equal(401);
    expect((caught as Error).message).to.include('api_key_invalid');
  });

  it('without a key on a deployment that takes no x402 payments: a tool error saying how to get in', async () => {
    const client = await connectMcp(gw, '/mcp');
    clients.push(client);
    expect((await client.listTools()).tools).to.have.length(gw.gateway.registry.sold().length);
    const result = await callTool(client, TOOL, ARGS);
    expect(result.isError).to.equal(true);
    const body = structured(result);
    expect(body.error).to.equal('payments_not_configured');
    expect(body.hint)
      .to.match(/X-API-Key/)
      .and.match(/\/preview\/mcp/);
  });
});

describe('MCP /mcp key credit: exhausted credit and limits shared with the broker', () => {
  it('answers exhausted credit with a tool error carrying the balance and the price; nothing charged', async () => {
    const gw = await startTestGateway({
      ...fixtures(ECHO),
      env: { TRIAL_CREDIT_MICRO_USDC: '1500' },
    });
    try {
      const key = (await gw.post('/keys/create', { owner_label: 'low' })).body.api_key;
      const client = await connectMcp(gw, '/mcp', { 'X-API-Key': key });
      const ok = await callTool(client, TOOL, ARGS);
      expect(structured(ok)._gateway.credit.balance_micro_usdc).to.equal(500);
      const result = await callTool(client, TOOL, ARGS);
      expect(result.isError).to.equal(true);
      const body = structured(result);
      expect(body.error).to.equal('insufficient_credit');
      expect(body.balance).to.deep.equal({ micro_usdc: 500, usdc: '0.0005' });
      expect(body.price).to.deep.equal({ micro_usdc: 1000, usdc: '0.001' });
      // Payments are not configured on this gateway: no x402 offered, no payment request.
      expect(body.buy_more).to.deep.equal({});
      expect(body.preview_url).to.equal(`http://gateway.test/preview/v1/${ECHO.tail}`);
      expect(body).to.not.have.property('accepts');
      const status = (await gw.get('/keys/status', { 'X-API-Key': key })).body;
      expect(status.balance.micro_usdc).to.equal(500);
      expect(status.spent.calls).to.equal(1);
      await client.close();
    } finally {
      await gw.close();
    }
  });

  it('with credit for exactly K calls, 4K tool calls at once: K succeed, the rest are insufficient_credit, balance 0', async () => {
    const K = 12;
    const gw = await startTestGateway({
      ...fixtures(ECHO),
      env: { TRIAL_CREDIT_MICRO_USDC: String(K * 1000), BROKER_LIMIT_PER_MINUTE: '1000' },
    });
    try {
      const { api_key: key } = (await gw.post('/keys/create', { owner_label: 'race' })).body;
      const client = await connectMcp(gw, '/mcp', { 'X-API-Key': key });
      const results = await Promise.all(Array.from({ length: 4 * K }, () => callTool(client, TOOL, ARGS)));
      expect(results.filter((r) => !r.isError).length).to.equal(K);
      expect(results.filter((r) => structured(r).error === 'insufficient_credit').length).to.equal(3 * K);
      const status = (await gw.get('/keys/status', { 'X-API-Key': key })).body;
      expect(status.balance.micro_usdc).to.equal(0);
      expect(status.reserved_in_flight.micro_usdc).to.equal(0);
      expect(status.spent).to.include({ micro_usdc: K * 1000, calls: K });
      await client.close();
    } finally {
      await gw.close();
    }
  });

  it("counts a key's tool calls and broker calls against one per-minute limit", async () => {
    const gw = await startTestGateway({ ...fixtures(ECHO), env: { BROKER_LIMIT_PER_MINUTE: '3' } });
    try {
      const key = (await gw.post('/keys/create', { owner_label: 'rl' })).body.api_key;
      const client = await connectMcp(gw, '/mcp', { 'X-API-Key': key });
      for (let i = 0; i < 2; i++) {
        const res = await gw.post(
          '/broker/call',
          { product_id: ECHO.brokerId, query: ARGS },
          { 'X-API-Key': key },
        );
        expect(res.status).to.equal(200);
      }
      expect((await callTool(client, TOOL, ARGS)).isError).to.not.equal(true);
      const limited = await callTool(client, TOOL, ARGS);
      expect(limited.isError).to.equal(true);
      const body = structured(limited);
      expect(body).to.include({ error: 'rate_limited', limit: 3, window_seconds: 60 });
      expect(body.retry_after_seconds).to.be.within(1, 60);
      const balance = (await gw.get('/keys/status', { 'X-API-Key': key })).body.balance.micro_usdc;
      expect(balance).to.equal(250000 - 3000);
      await client.close();
    } finally {
      await gw.close();
    }
  });
});
