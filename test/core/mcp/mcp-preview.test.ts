import { expect } from 'chai';
import { rmSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { PLUGINS_DIR } from '../../../config/paths';
import { queryString } from '../../../core/discovery/describe';
import { startTestGateway, type TestGateway } from '../../support/gateway';
import { makePluginsDir, writeJsPlugin } from '../../support/js-plugin';
import { callTool, connectMcp, structured } from '../../support/mcp-client';

/** A body without the per-request fields of `_gateway`. */
function comparable(body: Record<string, unknown>): Record<string, unknown> {
  const { request_id: _id, transport: _t, ...gateway } = body._gateway as Record<string, unknown>;
  return { ...body, _gateway: gateway };
}

describe('MCP preview surface /preview/mcp (SDK client, Streamable HTTP)', () => {
  let gw: TestGateway;
  let client: Client;
  before(async () => {
    gw = await startTestGateway({ clock: '2026-11-23T03:00:00Z' });
    client = await connectMcp(gw, '/preview/mcp');
  });
  after(async () => {
    await client.close();
    await gw.close();
  });

  it('lists one tool per sold endpoint, named by endpoint id, with the DTO schema and the payload schema', async () => {
    const { tools } = await client.listTools();
    const sold = gw.gateway.registry.sold();
    expect(sold).to.have.length(21);
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

  it('answers invalid arguments with a tool error carrying the same correction_hints as the broker 422', async () => {
    // Arguments are a JSON object, as the broker's `query`: the same problems, and hints that
    // write the parameter where each client sends it.
    const key = (await gw.post('/keys/create', { owner_label: 'mcp preview hints' })).body.api_key;
    for (const args of [
      { year: 1999 },
      { year: 'soon' },
      { year: 2026, colour: 'red' },
      { year: [2026, 2026] },
    ]) {
      const result = await callTool(client, 'local-holiday', args);
      expect(result.isError).to.equal(true);
      const body = structured(result);
      const http = await gw.post(
        '/broker/call',
        { product_id: 'jp-local-pack-v1-holiday', query: args },
        { 'X-API-Key': key },
      );
      expect(http.status).to.equal(422);
      expect(body.error).to.equal('invalid_query');
      const asBroker = (h: { hint: string }) => ({
        ...h,
        hint: h.hint.replace(/"arguments"/g, '"query"'),
      });
      expect(body.correction_hints.map(asBroker), JSON.stringify(args)).to.deep.equal(
        http.body.correction_hints,
      );
    }
  });

  it('refuses an unknown tool with a JSON-RPC error naming the closest tools', async () => {
    let caught: unknown;
    try {
      await callTool(client, 'local-holidays', { year: 2026 });
    } catch (err) {
      caught = err;
    }
    expect(caught).to.be.instanceOf(McpError);
    expect((caught as McpError).code).to.equal(-32602);
    expect((caught as McpError).message).to.match(
      /Unknown tool: local-holidays\. Did you mean local-holiday/,
    );
  });

  it('answers GET with 405 (no server stream) and refuses JSON-RPC batches', async () => {
    const get = await gw.get('/preview/mcp');
    expect(get.status).to.equal(405);
    expect(get.headers.get('allow')).to.equal('POST');
    const batch = await gw.post(
      '/preview/mcp',
      [
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      ],
      { accept: 'application/json, text/event-stream' },
    );
    expect(batch.status).to.equal(400);
    expect(batch.body.error.message).to.match(/batches are not accepted/);
  });
});

describe('MCP tools follow the plugin folders', () => {
  it('a plugin folder added is a tool, with no other edit; a handler failure is a tool error', async () => {
    const dir = makePluginsDir();
    writeJsPlugin(dir, { folder: 'local-zz-extra', fields: { summary: "'Extra endpoint for MCP'" } });
    writeJsPlugin(dir, {
      folder: 'local-zz-flaky',
      handleBody: "throw new errors.SourceUnavailableError('upstream down', 'retry later');",
    });
    const gw = await startTestGateway({
      pluginDirs: [PLUGINS_DIR, dir],
      plugins: ['local-holiday', 'local-zz-extra', 'local-zz-flaky'],
    });
    const only = await startTestGateway({ plugins: ['local-holiday'] });
    try {
      const client = await connectMcp(gw, '/preview/mcp');
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).to.have.members(['local-holiday', 'local-zz-extra', 'local-zz-flaky']);
      const echo = structured(await callTool(client, 'local-zz-extra', { n: 4 }));
      expect(echo).to.include({ n: 4 });
      const flaky = await callTool(client, 'local-zz-flaky', {});
      expect(flaky.isError).to.equal(true);
      expect(structured(flaky)).to.include({ error: 'source_unavailable' });
      await client.close();
      const other = await connectMcp(only, '/preview/mcp');
      expect((await other.listTools()).tools.map((t) => t.name)).to.deep.equal(['local-holiday']);
      await other.close();
    } finally {
      await gw.close();
      await only.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
