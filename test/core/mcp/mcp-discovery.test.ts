/**
 * MCP in the discovery documents (the suite runs over plugins/ too, in
 * test/products/mcp-every-tool.test.ts), and MCP calls in /metrics, the logs and the limits of
 * the paid paths, on the kernel's fixture plugins.
 */
import { expect } from 'chai';
import { startFacilitatorStandin, type FacilitatorStandin } from '../../support/facilitator-standin';
import { ECHO, fixtures, SLOW } from '../../support/fx-endpoints';
import { startTestGateway, type TestGateway } from '../../support/gateway';
import { callTool, connectMcp, structured } from '../../support/mcp-client';
import { FIXTURE_PLUGINS } from '../../support/plugin-sets';
import { describeMcpDiscovery } from './every-tool-suite';
import { randomAddress, TestPayer, toBase64, usdcOnBase, type Terms } from '../payments/payer';

const ARGS = { n: 3 };
const TOOL = ECHO.endpointId;
const now = () => Math.floor(Date.now() / 1000);

describeMcpDiscovery(FIXTURE_PLUGINS);

describe('MCP initialize', () => {
  it('tells an agent how to pay in the initialize instructions: x402 only where payments are configured', async () => {
    for (const x402 of [false, true]) {
      const gw = await startTestGateway({
        ...fixtures(ECHO),
        env: x402 ? { X402_PAY_TO: randomAddress(), X402_FACILITATOR_URL: 'http://127.0.0.1:9' } : {},
      });
      const paid = await connectMcp(gw, '/mcp');
      const preview = await connectMcp(gw, '/preview/mcp');
      try {
        expect(paid.getInstructions()).to.include('X-API-Key');
        if (x402) expect(paid.getInstructions()).to.include('params._meta["x402/payment"]');
        else
          expect(paid.getInstructions())
            .to.include('x402 per call is not configured on this deployment')
            .and.not.include('PaymentRequired');
        expect(preview.getInstructions()).to.include('Free preview');
      } finally {
        await paid.close();
        await preview.close();
        await gw.close();
      }
    }
  });
});

describe('MCP calls in /metrics and the logs, and the limits of the paid paths', () => {
  let standin: FacilitatorStandin;
  let gw: TestGateway;
  let terms: Terms;
  const logs: string[] = [];
  const payTo = randomAddress();

  before(async () => {
    standin = await startFacilitatorStandin();
    gw = await startTestGateway({
      ...fixtures(ECHO, SLOW),
      logs,
      env: {
        X402_PAY_TO: payTo,
        X402_FACILITATOR_URL: standin.url,
        CONCURRENT_REQUESTS_PER_CLIENT: '2',
        PAID_PAYMENTS_PER_MINUTE: '3',
      },
    });
    terms = usdcOnBase(payTo);
  });
  after(async () => {
    await gw.close();
    await standin.close();
  });

  it('counts tool calls by surface, tool and outcome, the HTTP requests by tool, debits and payments; logs each call without secrets', async () => {
    const key = (await gw.post('/keys/create', { owner_label: 'metrics' })).body.api_key as string;
    const preview = await connectMcp(gw, '/preview/mcp');
    const keyed = await connectMcp(gw, '/mcp', { 'X-API-Key': key });
    const anonymous = await connectMcp(gw, '/mcp');
    const payer = new TestPayer();
    const payment = payer.v2(await payer.sign(terms, now()), terms, `mcp://tool/${TOOL}`);
    try {
      await callTool(preview, TOOL, ARGS);
      await callTool(preview, TOOL, { n: 10 });
      await callTool(keyed, TOOL, ARGS);
      expect(structured(await callTool(anonymous, TOOL, ARGS)).error).to.equal('payment_required');
      const paid = await callTool(anonymous, TOOL, ARGS, { 'x402/payment': payment });
      expect(paid.isError).to.not.equal(true);
    } finally {
      await preview.close();
      await keyed.close();
      await anonymous.close();
    }
    const t = (await gw.get('/metrics')).text;
    expect(t).to.include(`gateway_mcp_tool_calls_total{surface="mcp_preview",tool="${TOOL}",outcome="ok"} 1`);
    expect(t).to.include(
      `gateway_mcp_tool_calls_total{surface="mcp_preview",tool="${TOOL}",outcome="invalid_query"} 1`,
    );
    expect(t).to.include(`gateway_mcp_tool_calls_total{surface="mcp",tool="${TOOL}",outcome="ok"} 2`);
    expect(t).to.include(
      `gateway_mcp_tool_calls_total{surface="mcp",tool="${TOOL}",outcome="payment_required"} 1`,
    );
    expect(t).to.include(`gateway_http_requests_total{surface="mcp",endpoint="${TOOL}",status="200"} 3`);
    expect(t).to.include(
      `gateway_http_requests_total{surface="mcp_preview",endpoint="${TOOL}",status="200"} 2`,
    );
    expect(t).to.match(
      /gateway_http_requests_total\{surface="mcp",endpoint="mcp:initialize",status="200"\} \d/,
    );
    expect(t).to.include(`gateway_broker_debits_total{endpoint="${TOOL}"} 1`);
    expect(t).to.include('gateway_payments_total{outcome="challenged"} 1');
    expect(t).to.include('gateway_payments_total{outcome="settled"} 1');

    const calls = logs.map((l) => JSON.parse(l)).filter((l) => l.mcp);
    expect(calls.map((l) => [l.mcp.surface, l.mcp.outcome, l.mcp.paid_by ?? null])).to.deep.equal([
      ['mcp_preview', 'ok', null],
      ['mcp_preview', 'invalid_query', null],
      ['mcp', 'ok', 'api_key'],
      ['mcp', 'payment_required', 'none'],
      ['mcp', 'ok', 'x402'],
    ]);
    expect(calls.every((l) => typeof l.req_id === 'string' && l.mcp.tool === TOOL)).to.equal(true);
    const settled = logs.map((l) => JSON.parse(l)).find((l) => l.x402?.outcome === 'settled');
    expect(settled.x402.payer).to.equal(payer.address.toLowerCase());
    const all = logs.join('\n');
    expect(all).to.not.include(key);
    expect(all).to.not.include((payment.payload as { signature: string }).signature.slice(2, 40));
    const requestLines = logs.map((l) => JSON.parse(l)).filter((l) => l.req?.url === '/mcp');
    expect(requestLines.some((l) => l.req.headers['x-api-key'] === '[redacted]')).to.equal(true);
  });

  it('holds a concurrency slot per client on /mcp, like the paid and broker paths', async () => {
    const key = (await gw.post('/keys/create', { owner_label: 'cap' })).body.api_key as string;
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: SLOW.endpointId, arguments: { ms: 400 } },
    });
    const post = () =>
      fetch(`${gw.url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'x-api-key': key,
        },
        body,
      });
    const statuses = (await Promise.all([post(), post(), post()])).map((r) => r.status).sort();
    expect(statuses).to.deep.equal([200, 200, 429]);
    const balance = (await gw.get('/keys/status', { 'X-API-Key': key })).body;
    expect(balance.spent.calls).to.equal(2);
  });

  it('counts payments sent over MCP and over HTTP against one per-client rate', async () => {
    // Three per minute in this gateway; the first test above used one.
    const payer = new TestPayer();
    const client = await connectMcp(gw, '/mcp');
    try {
      const http = await gw.get(`/v1/${ECHO.tail}?n=3`, {
        'X-PAYMENT': toBase64(payer.v1(await payer.sign(terms, now()))),
      });
      expect(http.status).to.equal(200);
      const p = () => payer.sign(terms, now()).then((s) => payer.v2(s, terms, `mcp://tool/${TOOL}`));
      const ok = await callTool(client, TOOL, ARGS, { 'x402/payment': await p() });
      expect(ok.isError).to.not.equal(true);
      const limited = await callTool(client, TOOL, ARGS, { 'x402/payment': await p() });
      expect(structured(limited)).to.include({ error: 'rate_limited', limit: 3 });
      expect(standin.transfersFrom(payer.address)).to.have.length(2);
    } finally {
      await client.close();
    }
  });
});
