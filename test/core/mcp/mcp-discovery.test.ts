import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { PLUGINS_DIR } from '../../../config/paths';
import { startFacilitatorStandin, type FacilitatorStandin } from '../../support/facilitator-standin';
import { startTestGateway, type TestGateway } from '../../support/gateway';
import { makePluginsDir, writeJsPlugin } from '../../support/js-plugin';
import { callTool, connectMcp, structured } from '../../support/mcp-client';
import { OpenApiValidator } from '../../support/openapi-validator';
import { randomAddress, TestPayer, toBase64, usdcOnBase, type Terms } from '../payments/payer';

const HOLIDAY = { year: 2026 };
const now = () => Math.floor(Date.now() / 1000);

describe('MCP in the discovery documents', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ env: { TRIAL_CREDIT_MICRO_USDC: '123000' } });
  });
  after(() => gw.close());

  it('/.well-known/mcp.json is a server card: name, version, endpoint, transport, auth, every tool with its price', async () => {
    const res = await gw.get('/.well-known/mcp.json');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/json/);
    const card = res.body;
    const client = await connectMcp(gw, '/preview/mcp');
    const info = client.getServerVersion()!;
    await client.close();
    expect(card.serverInfo).to.deep.equal({ name: info.name, title: info.title, version: info.version });
    expect(card.serverInfo.version).to.equal(gw.gateway.services.config.version);
    expect(card.transport).to.deep.equal({
      type: 'streamable-http',
      endpoint: 'http://gateway.test/mcp',
      stateless: true,
    });
    expect(card.authentication.schemes).to.deep.equal(['api_key', 'x402']);
    expect(card.authentication.api_key).to.include({ header: 'X-API-Key' });
    expect(card.authentication.api_key.trial_credit).to.deep.equal({ micro_usdc: 123000, usdc: '0.123' });
    expect(card.authentication.x402).to.include({
      status: 'not_configured',
      network: 'eip155:8453',
      scheme: 'exact',
    });
    expect(card.preview.endpoint).to.equal('http://gateway.test/preview/mcp');
    const sold = gw.gateway.registry.sold();
    expect(card.tools).to.deep.equal(
      sold.map((p) => ({
        name: p.endpointId,
        title: p.manifest.summary,
        price: { micro_usdc: p.priceMicroUsdc, usdc: p.priceUsd },
      })),
    );
    expect(card.client_config.mcpServers[info.name]).to.deep.equal({
      type: 'http',
      url: 'http://gateway.test/mcp',
      headers: { 'X-API-Key': '<API_KEY>' },
    });
    const v = new OpenApiValidator((await gw.get('/openapi.json')).body);
    expect(v.responseErrors('/.well-known/mcp.json', 'get', '200', card)).to.deep.equal([]);
  });

  it('openapi.json documents POST /mcp and POST /preview/mcp with their auth, and the tool list', async () => {
    const doc = (await gw.get('/openapi.json')).body;
    const mcp = doc.paths['/mcp'].post;
    const preview = doc.paths['/preview/mcp'].post;
    const names = gw.gateway.registry.sold().map((p) => p.endpointId);
    expect(mcp['x-mcp']).to.deep.include({
      transport: 'streamable-http',
      auth: ['api_key', 'x402'],
      tools: names,
    });
    expect(preview['x-mcp']).to.deep.include({ auth: ['none'], tools: names });
    expect(mcp.parameters.map((p: { name: string }) => p.name)).to.include('X-API-Key');
    expect(mcp.responses).to.include.keys('200', '401', '429');
    expect(doc.paths['/mcp'].get.responses).to.have.property('405');
    expect(doc.info.description).to.include('/mcp');
  });

  it('llms.txt, the portal and the broker manifest name the endpoint, its auth options and every tool', async () => {
    const llms = (await gw.get('/llms.txt')).text;
    expect(llms).to.include(
      'MCP server (Model Context Protocol, Streamable HTTP, stateless): http://gateway.test/mcp',
    );
    expect(llms).to.include('"headers": {"X-API-Key": "jpgw_..."}');
    expect(llms).to.include('params._meta["x402/payment"]');
    expect(llms).to.include('http://gateway.test/preview/mcp');
    expect(llms).to.include('http://gateway.test/.well-known/mcp.json');
    for (const p of gw.gateway.registry.sold())
      expect(llms).to.include(`broker id ${p.brokerId}  MCP tool ${p.endpointId}  params:`);

    const md = (await gw.get('/portal.md')).text;
    expect(md).to.include('### MCP server (AI agents)');
    expect(md).to.include('"url": "http://gateway.test/mcp"');
    expect(md).to.include('"X-API-Key": "<API_KEY>"');
    expect(md).to.include('`params._meta["x402/payment"]`');
    for (const p of gw.gateway.registry.sold())
      expect(md).to.include(`| MCP tool | \`${p.endpointId}\` on \`/mcp\``);
    const html = (await gw.get('/portal/mcp')).text;
    expect(html).to.include('<h1>MCP server (AI agents)</h1>');
    expect(html).to.include('http://gateway.test/.well-known/mcp.json');
    expect(html).to.include('&quot;url&quot;: &quot;http://gateway.test/mcp&quot;');
    for (const p of gw.gateway.registry.sold())
      expect(html).to.include(`<a href="/portal/endpoints/${p.endpointId}"><code>${p.endpointId}</code></a>`);
    expect((await gw.get('/portal')).text).to.include('href="/portal/mcp"');

    const manifest = (await gw.get('/.well-known/broker-manifest.json')).body;
    expect(manifest.mcp).to.include({
      url: 'http://gateway.test/mcp',
      preview_url: 'http://gateway.test/preview/mcp',
      transport: 'streamable-http',
      server_card: 'http://gateway.test/.well-known/mcp.json',
    });
    expect(manifest.mcp.auth.api_key.header).to.equal('X-API-Key');
    expect(manifest.mcp.auth.x402.payment).to.include('x402/payment');
    expect(manifest.endpoints.map((e: { mcp_tool: string }) => e.mcp_tool)).to.deep.equal(
      gw.gateway.registry.sold().map((p) => p.endpointId),
    );
    const v = new OpenApiValidator((await gw.get('/openapi.json')).body);
    expect(v.responseErrors('/.well-known/broker-manifest.json', 'get', '200', manifest)).to.deep.equal([]);
  });

  it('tells an agent how to pay in the initialize instructions', async () => {
    const paid = await connectMcp(gw, '/mcp');
    const preview = await connectMcp(gw, '/preview/mcp');
    try {
      expect(paid.getInstructions()).to.include('X-API-Key').and.include('params._meta["x402/payment"]');
      expect(preview.getInstructions()).to.include('Free preview');
    } finally {
      await paid.close();
      await preview.close();
    }
  });
});

describe('MCP calls in /metrics and the logs, and the limits of the paid paths', () => {
  let standin: FacilitatorStandin;
  let gw: TestGateway;
  let terms: Terms;
  let fixtures: string;
  const logs: string[] = [];
  const payTo = randomAddress();

  before(async () => {
    standin = await startFacilitatorStandin();
    fixtures = makePluginsDir();
    writeJsPlugin(fixtures, {
      folder: 'local-zz-slow',
      handleBody:
        "return new Promise((r) => setTimeout(() => r({ n: 1, _attribution: 'test fixture', _provenance: { kind: 'snapshot', as_of: '2026-01-01', sources: [{ name: 'test' }] } }), 400));",
    });
    gw = await startTestGateway({
      pluginDirs: [PLUGINS_DIR, fixtures],
      plugins: ['local-holiday', 'local-zz-slow'],
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
    rmSync(fixtures, { recursive: true, force: true });
  });

  it('counts tool calls by surface, tool and outcome, the HTTP requests by tool, debits and payments; logs each call without secrets', async () => {
    const key = (await gw.post('/keys/create', { owner_label: 'metrics' })).body.api_key as string;
    const preview = await connectMcp(gw, '/preview/mcp');
    const keyed = await connectMcp(gw, '/mcp', { 'X-API-Key': key });
    const anonymous = await connectMcp(gw, '/mcp');
    const payer = new TestPayer();
    const payment = payer.v2(await payer.sign(terms, now()), terms, 'mcp://tool/local-holiday');
    try {
      await callTool(preview, 'local-holiday', HOLIDAY);
      await callTool(preview, 'local-holiday', { year: 1999 });
      await callTool(keyed, 'local-holiday', HOLIDAY);
      expect(structured(await callTool(anonymous, 'local-holiday', HOLIDAY)).error).to.equal(
        'payment_required',
      );
      const paid = await callTool(anonymous, 'local-holiday', HOLIDAY, { 'x402/payment': payment });
      expect(paid.isError).to.not.equal(true);
    } finally {
      await preview.close();
      await keyed.close();
      await anonymous.close();
    }
    const t = (await gw.get('/metrics')).text;
    expect(t).to.include(
      'gateway_mcp_tool_calls_total{surface="mcp_preview",tool="local-holiday",outcome="ok"} 1',
    );
    expect(t).to.include(
      'gateway_mcp_tool_calls_total{surface="mcp_preview",tool="local-holiday",outcome="invalid_query"} 1',
    );
    expect(t).to.include('gateway_mcp_tool_calls_total{surface="mcp",tool="local-holiday",outcome="ok"} 2');
    expect(t).to.include(
      'gateway_mcp_tool_calls_total{surface="mcp",tool="local-holiday",outcome="payment_required"} 1',
    );
    expect(t).to.include(
      'gateway_http_requests_total{surface="mcp",endpoint="local-holiday",status="200"} 3',
    );
    expect(t).to.include(
      'gateway_http_requests_total{surface="mcp_preview",endpoint="local-holiday",status="200"} 2',
    );
    expect(t).to.match(
      /gateway_http_requests_total\{surface="mcp",endpoint="mcp:initialize",status="200"\} \d/,
    );
    expect(t).to.include('gateway_broker_debits_total{endpoint="local-holiday"} 1');
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
    expect(calls.every((l) => typeof l.req_id === 'string' && l.mcp.tool === 'local-holiday')).to.equal(true);
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
      params: { name: 'local-zz-slow', arguments: {} },
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
      const http = await gw.get('/v1/local/holiday/jp?year=2026', {
        'X-PAYMENT': toBase64(payer.v1(await payer.sign(terms, now()))),
      });
      expect(http.status).to.equal(200);
      const p = () => payer.sign(terms, now()).then((s) => payer.v2(s, terms, 'mcp://tool/local-holiday'));
      const ok = await callTool(client, 'local-holiday', HOLIDAY, { 'x402/payment': await p() });
      expect(ok.isError).to.not.equal(true);
      const limited = await callTool(client, 'local-holiday', HOLIDAY, { 'x402/payment': await p() });
      expect(structured(limited)).to.include({ error: 'rate_limited', limit: 3 });
      expect(standin.transfersFrom(payer.address)).to.have.length(2);
    } finally {
      await client.close();
    }
  });
});
