/**
 * The MCP preview surface on the kernel's fixture plugins: the tools derived from the registry
 * (the suite runs over plugins/ too, in test/products/mcp-every-tool.test.ts), argument errors,
 * unknown tools, the transport's refusals, and tools that follow the plugin folders.
 */
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { ECHO, fixtures } from '../../support/fx-endpoints';
import { FIXTURE_PLUGINS_DIR, startTestGateway, type TestGateway } from '../../support/gateway';
import { makePluginsDir, writeJsPlugin } from '../../support/js-plugin';
import { callTool, connectMcp, structured } from '../../support/mcp-client';
import { FIXTURE_PLUGINS } from '../../support/plugin-sets';
import { describeMcpPreviewTools } from './every-tool-suite';

describeMcpPreviewTools(FIXTURE_PLUGINS);

describe('MCP preview surface /preview/mcp (SDK client, Streamable HTTP)', () => {
  let gw: TestGateway;
  let client: Client;
  before(async () => {
    gw = await startTestGateway({ ...fixtures(), clock: '2026-11-23T03:00:00Z' });
    client = await connectMcp(gw, '/preview/mcp');
  });
  after(async () => {
    await client.close();
    await gw.close();
  });

  it('answers invalid arguments with a tool error carrying the same correction_hints as the broker 422', async () => {
    // Arguments are a JSON object, as the broker's `query`: the same problems, and hints that
    // write the parameter where each client sends it.
    const key = (await gw.post('/keys/create', { owner_label: 'mcp preview hints' })).body.api_key;
    for (const args of [{ n: 10 }, { n: 'soon' }, { n: 3, colour: 'red' }, { n: [3, 3] }]) {
      const result = await callTool(client, ECHO.endpointId, args);
      expect(result.isError).to.equal(true);
      const body = structured(result);
      const http = await gw.post(
        '/broker/call',
        { product_id: ECHO.brokerId, query: args },
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
      await callTool(client, `${ECHO.endpointId}s`, { n: 3 });
    } catch (err) {
      caught = err;
    }
    expect(caught).to.be.instanceOf(McpError);
    expect((caught as McpError).code).to.equal(-32602);
    expect((caught as McpError).message).to.include(
      `Unknown tool: ${ECHO.endpointId}s. Did you mean ${ECHO.endpointId}`,
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
      pluginDirs: [FIXTURE_PLUGINS_DIR, dir],
      plugins: [ECHO.endpointId, 'local-zz-extra', 'local-zz-flaky'],
    });
    const only = await startTestGateway(fixtures(ECHO));
    try {
      const client = await connectMcp(gw, '/preview/mcp');
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).to.have.members([ECHO.endpointId, 'local-zz-extra', 'local-zz-flaky']);
      const echo = structured(await callTool(client, 'local-zz-extra', { n: 4 }));
      expect(echo).to.include({ n: 4 });
      const flaky = await callTool(client, 'local-zz-flaky', {});
      expect(flaky.isError).to.equal(true);
      expect(structured(flaky)).to.include({ error: 'source_unavailable' });
      await client.close();
      const other = await connectMcp(only, '/preview/mcp');
      expect((await other.listTools()).tools.map((t) => t.name)).to.deep.equal([ECHO.endpointId]);
      await other.close();
    } finally {
      await gw.close();
      await only.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
