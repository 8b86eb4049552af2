/**
 * The wire rules of the Streamable HTTP transport (core/mcp/exchange-transport.ts), sent as raw
 * HTTP: what an MCP client that gets them wrong is told, in the JSON-RPC shape clients read.
 */
import { expect } from 'chai';
import { ECHO, fixtures } from '../../support/fx-endpoints';
import { startTestGateway, type TestGateway } from '../../support/gateway';

const ACCEPT = 'application/json, text/event-stream';

describe('MCP Streamable HTTP transport: wire rules', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway(fixtures(ECHO));
  });
  after(() => gw.close());

  const post = async (body: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${gw.url}/preview/mcp`, {
      method: 'POST',
      headers: { Accept: ACCEPT, 'Content-Type': 'application/json', ...headers },
      body,
    });
    const text = await res.text();
    return { status: res.status, text, json: text ? JSON.parse(text) : undefined };
  };
  const ping = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' });

  it('answers a request with its JSON-RPC result, under the request id', async () => {
    const res = await post(ping, { 'Mcp-Protocol-Version': '2025-06-18' });
    expect(res.status).to.equal(200);
    expect(res.json).to.deep.equal({ jsonrpc: '2.0', id: 7, result: {} });
  });

  it('406 when Accept does not list both application/json and text/event-stream', async () => {
    const res = await post(ping, { Accept: 'application/json' });
    expect(res.status).to.equal(406);
    expect(res.json).to.deep.include({ jsonrpc: '2.0', id: null });
    expect(res.json.error.code).to.equal(-32000);
  });

  it('400 -32700 for JSON that is not a JSON-RPC 2.0 message', async () => {
    for (const body of [
      '{"jsonrpc":"1.0","id":1,"method":"ping"}',
      '{"id":1,"method":"ping"}',
      '{"jsonrpc":"2.0","id":{},"method":"ping"}',
    ]) {
      const res = await post(body);
      expect(res.status, body).to.equal(400);
      expect(res.json.error.code, body).to.equal(-32700);
    }
  });

  it('400 for an unsupported Mcp-Protocol-Version after initialize, naming the supported ones', async () => {
    const res = await post(ping, { 'Mcp-Protocol-Version': '1999-01-01' });
    expect(res.status).to.equal(400);
    expect(res.json.error.message).to.match(
      /Unsupported protocol version: 1999-01-01 \(supported versions: .*2025-06-18/,
    );
  });

  it('202 with no body for a notification', async () => {
    const res = await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    expect(res.status).to.equal(202);
    expect(res.text).to.equal('');
  });

  it('an unknown method is a JSON-RPC "method not found" error for that id', async () => {
    const res = await post(JSON.stringify({ jsonrpc: '2.0', id: 'x', method: 'resources/list' }));
    expect(res.status).to.equal(200);
    expect(res.json.id).to.equal('x');
    expect(res.json.error.code).to.equal(-32601);
  });
});
