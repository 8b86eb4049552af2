/**
 * MCP over every tool of a plugin set: the tool list derived from the registry, each tool's first
 * example answered on /preview/mcp like /preview/v1, charged its price from key credit on /mcp,
 * and paid per call with x402 (issue 16). Run on the kernel's fixtures (test/core/mcp/) and on
 * plugins/ (test/products/mcp-every-tool.test.ts); nothing is counted or listed by hand.
 */
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { queryString } from '../../../core/discovery/describe';
import { randomAddress, TestPayer, usdcOnBase } from '../payments/payer';
import { startFacilitatorStandin, type FacilitatorStandin } from '../../support/facilitator-standin';
import { startTestGateway, type TestGateway } from '../../support/gateway';
import { callTool, connectMcp, structured } from '../../support/mcp-client';
import { OpenApiValidator } from '../../support/openapi-validator';
import type { PluginSet } from '../../support/plugin-sets';

/** A body without the per-request fields of `_gateway`. */
function comparable(body: Record<string, unknown>): Record<string, unknown> {
  const { request_id: _id, transport: _t, ...gateway } = body._gateway as Record<string, unknown>;
  return { ...body, _gateway: gateway };
}

export function describeMcpPreviewTools(set: PluginSet): void {
  describe(`MCP /preview/mcp tools of ${set.label}`, () => {
    let gw: TestGateway;
    let client: Client;
    before(async () => {
      gw = await startTestGateway({ pluginDirs: set.pluginDirs, clock: '2026-11-23T03:00:00Z' });
      client = await connectMcp(gw, '/preview/mcp');
    });
    after(async () => {
      await client.close();
      await gw.close();
    });

    it('lists one tool per sold endpoint, named by endpoint id, with the DTO schema and the payload schema', async () => {
      const { tools } = await client.listTools();
      const sold = gw.gateway.registry.sold();
      expect(sold.length, 'sold endpoints').to.be.above(0);
      expect(tools.map((t) => t.name)).to.deep.equal(sold.map((p) => p.endpointId));
      const openapi = (await gw.get('/openapi.json')).body;
      for (const p of sold) {
        const tool = tools.find((t) => t.name === p.endpointId)!;
        // inputSchema: the same JSON Schema openapi.json gives the query parameters.
        expect(tool.inputSchema, p.endpointId).to.deep.equal(p.query.objectSchema());
        const params = openapi.paths[`/preview/v1/${p.tail}`].get.parameters as Array<{
          name: string;
          required: boolean;
          schema: unknown;
        }>;
        expect(Object.keys(tool.inputSchema.properties ?? {})).to.deep.equal(params.map((q) => q.name));
        for (const q of params) expect(tool.inputSchema.properties![q.name], q.name).to.deep.equal(q.schema);
        expect(tool.inputSchema.required).to.deep.equal(params.filter((q) => q.required).map((q) => q.name));
        // outputSchema: the payload schema (plus the envelope) on success, an error object otherwise.
        const success = (tool.outputSchema!.anyOf as Array<Record<string, unknown>>)[0];
        const payload = p.manifest.payloadSchema as { properties: object; required: string[] };
        expect(success.properties).to.deep.include(payload.properties);
        expect(success.required).to.include.members([...payload.required, '_notice', '_gateway']);
        expect(tool.title).to.equal(p.manifest.summary);
        expect(tool.description).to.include(p.manifest.summary);
        expect(tool.description).to.include(p.manifest.description ?? p.manifest.summary);
        expect(tool.description).to.include(`${p.priceUsd} USD`);
        expect(tool.annotations).to.include({ readOnlyHint: true });
      }
    });

    it("answers each tool's first example like /preview/v1 (marked as a preview), as structured content and JSON text", async () => {
      for (const p of gw.gateway.registry.sold()) {
        const example = p.manifest.examples[0].query;
        const result = await callTool(client, p.endpointId, example);
        expect(result.isError, p.endpointId).to.not.equal(true);
        const body = structured(result);
        expect(body._gateway).to.include({
          surface: 'preview',
          preview: true,
          transport: 'mcp',
          endpoint_id: p.endpointId,
          price_micro_usdc: p.priceMicroUsdc,
        });
        expect(body._gateway.production.mcp).to.deep.equal({
          url: 'http://gateway.test/mcp',
          tool: p.endpointId,
        });
        const http = await gw.get(`/preview/v1/${p.tail}${queryString(example)}`);
        expect(http.status).to.equal(200);
        expect(comparable(body), p.endpointId).to.deep.equal(comparable(http.body));
      }
    });
  });
}

export function describeEveryToolOnKeyCredit(set: PluginSet): void {
  describe(`MCP /mcp key credit over the tools of ${set.label}`, () => {
    let gw: TestGateway;
    before(async () => {
      gw = await startTestGateway({
        pluginDirs: set.pluginDirs,
        clock: '2026-11-23T03:00:00Z',
        env: { TRIAL_CREDIT_MICRO_USDC: '10000000' },
      });
    });
    after(() => gw.close());

    it("charges each tool's price for its first example: the balance falls by the price, call after call", async () => {
      const key = (await gw.post('/keys/create', { owner_label: 'mcp test' })).body.api_key as string;
      const client = await connectMcp(gw, '/mcp', { 'X-API-Key': key });
      const status = async () => (await gw.get('/keys/status', { 'X-API-Key': key })).body;
      try {
        let expected = (await status()).balance.micro_usdc as number;
        const sold = gw.gateway.registry.sold();
        expect(sold.length, 'sold endpoints').to.be.above(0);
        for (const p of sold) {
          const result = await callTool(client, p.endpointId, p.manifest.examples[0].query);
          expect(result.isError, p.endpointId).to.not.equal(true);
          const body = structured(result);
          expected -= p.priceMicroUsdc;
          expect(body._gateway).to.include({
            surface: 'mcp',
            transport: 'mcp',
            paid_by: 'api_key',
            endpoint_id: p.endpointId,
          });
          expect(body._gateway.credit).to.include({
            charged_micro_usdc: p.priceMicroUsdc,
            balance_micro_usdc: expected,
          });
          expect((await status()).balance.micro_usdc, p.endpointId).to.equal(expected);
        }
        const after = await status();
        expect(after.spent.calls).to.equal(sold.length);
        expect(after.recent_usage[0]).to.include({ broker_id: sold.at(-1)!.brokerId });
      } finally {
        await client.close();
      }
    });
  });
}

export function describeEveryToolPaidWithX402(set: PluginSet): void {
  const NOW_ISO = '2026-11-23T03:00:00Z';
  const NOW = Date.parse(NOW_ISO) / 1000;

  describe(`MCP /mcp: every tool of ${set.label} paid per call with x402`, function () {
    this.timeout(120_000);
    let standin: FacilitatorStandin;
    let gw: TestGateway;
    let client: Client;
    const payTo = randomAddress();

    before(async () => {
      standin = await startFacilitatorStandin({ now: () => NOW });
      gw = await startTestGateway({
        pluginDirs: set.pluginDirs,
        clock: NOW_ISO,
        env: { X402_PAY_TO: payTo, X402_FACILITATOR_URL: standin.url },
      });
      client = await connectMcp(gw, '/mcp');
    });
    after(async () => {
      await client.close();
      await gw.close();
      await standin.close();
    });

    it('each tool: PaymentRequired at its price, one settle for the paid call, the replay refused', async () => {
      const sold = gw.gateway.registry.sold();
      expect(sold.length, 'sold endpoints').to.be.above(0);
      for (const plugin of sold) {
        const args = plugin.manifest.examples[0].query as Record<string, unknown>;
        const unpaid = structured(await callTool(client, plugin.endpointId, args));
        expect(unpaid.accepts[0], plugin.endpointId).to.include({
          amount: String(plugin.priceMicroUsdc),
          network: 'eip155:8453',
        });
        expect(unpaid.accepts[0].payTo.toLowerCase()).to.equal(payTo.toLowerCase());

        const payer = new TestPayer();
        const terms = usdcOnBase(payTo, plugin.priceMicroUsdc);
        const payment = payer.v2(await payer.sign(terms, NOW), terms, unpaid.resource.url);
        const paid = await callTool(client, plugin.endpointId, args, { 'x402/payment': payment });
        expect(
          paid.isError,
          `${plugin.endpointId}: ${JSON.stringify(paid.structuredContent).slice(0, 300)}`,
        ).to.not.equal(true);
        const body = structured(paid);
        expect(body._gateway).to.include({ endpoint_id: plugin.endpointId, paid_by: 'x402' });
        const transfers = standin.transfersFrom(payer.address);
        expect(transfers, plugin.endpointId).to.have.length(1);
        expect(transfers[0].value).to.equal(String(plugin.priceMicroUsdc));

        const replay = structured(
          await callTool(client, plugin.endpointId, args, { 'x402/payment': payment }),
        );
        expect(replay.error, plugin.endpointId).to.equal('payment_already_used');
        expect(standin.transfersFrom(payer.address)).to.have.length(1);
      }
    });
  });
}

/**
 * The MCP server in the discovery documents: every tool with its price and hints, named
 * everywhere; x402 offered where payments are configured, and said to be off where not.
 */
export function describeMcpDiscovery(set: PluginSet): void {
  for (const x402 of [false, true]) describeMcpDiscoveryWith(set, x402);
}

function describeMcpDiscoveryWith(set: PluginSet, x402: boolean): void {
  describe(`MCP in the discovery documents of ${set.label}, x402 ${x402 ? 'configured' : 'not configured'}`, () => {
    let gw: TestGateway;
    before(async () => {
      gw = await startTestGateway({
        pluginDirs: set.pluginDirs,
        env: {
          TRIAL_CREDIT_MICRO_USDC: '123000',
          ...(x402 ? { X402_PAY_TO: randomAddress(), X402_FACILITATOR_URL: 'http://127.0.0.1:9' } : {}),
        },
      });
    });
    after(() => gw.close());

    it('/.well-known/mcp.json is a server card: name, version, endpoint, transport, auth, every tool with its price', async () => {
      const res = await gw.get('/.well-known/mcp.json');
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^application\/json/);
      const card = res.body;
      const client = await connectMcp(gw, '/preview/mcp');
      const info = client.getServerVersion()!;
      const { tools } = await client.listTools();
      await client.close();
      expect(card.serverInfo).to.deep.equal({ name: info.name, title: info.title, version: info.version });
      expect(card.serverInfo.version).to.equal(gw.gateway.config.version);
      expect(card.transport).to.deep.equal({
        type: 'streamable-http',
        endpoint: 'http://gateway.test/mcp',
        stateless: true,
      });
      expect(card.authentication.schemes).to.deep.equal(x402 ? ['api_key', 'x402'] : ['api_key']);
      expect(card.authentication.api_key).to.include({ header: 'X-API-Key' });
      expect(card.authentication.api_key.trial_credit).to.deep.equal({ micro_usdc: 123000, usdc: '0.123' });
      expect(card.authentication.x402).to.include({
        status: x402 ? 'live' : 'not_configured',
        network: 'eip155:8453',
        scheme: 'exact',
      });
      expect(card.authentication.x402.payment_required).to.match(
        x402 ? /x402 PaymentRequired/ : /not configured.*payments_not_configured/,
      );
      expect(card.preview.endpoint).to.equal('http://gateway.test/preview/mcp');
      const sold = gw.gateway.registry.sold();
      expect(sold.length, 'sold endpoints').to.be.above(0);
      expect(card.tools).to.deep.equal(
        sold.map((p) => ({
          name: p.endpointId,
          title: p.manifest.summary,
          price: { micro_usdc: p.priceMicroUsdc, usdc: p.priceUsd },
          annotations: tools.find((t) => t.name === p.endpointId)!.annotations,
        })),
      );
      expect(card.documents.mcp_registry_server).to.equal('http://gateway.test/.well-known/mcp/server.json');
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
        auth: x402 ? ['api_key', 'x402'] : ['api_key'],
        tools: names,
      });
      expect(preview['x-mcp']).to.deep.include({ auth: ['none'], tools: names });
      // The key is a security scheme (optional: x402 in _meta pays without one), not a parameter.
      expect(mcp.security).to.deep.equal([{ ApiKey: [] }, {}]);
      expect(preview.security).to.deep.equal([]);
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
      if (x402) expect(llms).to.include('params._meta["x402/payment"]');
      else expect(llms).to.include('a tool call without an API key answers payments_not_configured');
      expect(llms).to.include('http://gateway.test/preview/mcp');
      expect(llms).to.include('http://gateway.test/.well-known/mcp.json');
      for (const p of gw.gateway.registry.sold())
        expect(llms).to.include(`broker id ${p.brokerId}  MCP tool ${p.endpointId}  params:`);

      const md = (await gw.get('/portal.md')).text;
      expect(md).to.include('### MCP server (AI agents)');
      expect(md).to.include('"url": "http://gateway.test/mcp"');
      expect(md).to.include('"X-API-Key": "<API_KEY>"');
      if (x402) expect(md).to.include('`params._meta["x402/payment"]`');
      else expect(md).to.include('answers `isError: true` with `payments_not_configured`');
      for (const p of gw.gateway.registry.sold())
        expect(md).to.include(`| MCP tool | \`${p.endpointId}\` on \`/mcp\``);
      const html = (await gw.get('/portal/mcp')).text;
      expect(html).to.include('<h1>MCP server (AI agents)</h1>');
      expect(html).to.include('http://gateway.test/.well-known/mcp.json');
      expect(html).to.include('&quot;url&quot;: &quot;http://gateway.test/mcp&quot;');
      for (const p of gw.gateway.registry.sold())
        expect(html).to.include(
          `<a href="/portal/endpoints/${p.endpointId}"><code>${p.endpointId}</code></a>`,
        );
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
  });
}
