/**
 * An MCP client for tests: the SDK's own Client over its StreamableHTTPClientTransport, against a
 * real gateway on a loopback port.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { TestGateway } from './gateway';

export async function connectMcp(
  gw: TestGateway,
  path: '/mcp' | '/preview/mcp',
  headers: Record<string, string> = {},
): Promise<Client> {
  const client = new Client({ name: 'gateway-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(gw.url + path), { requestInit: { headers } }),
  );
  return client;
}

/** Calls a tool and returns its result (the SDK types callTool's answer loosely). */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  meta?: Record<string, unknown>,
): Promise<CallToolResult> {
  return (await client.callTool({
    name,
    arguments: args,
    ...(meta ? { _meta: meta } : {}),
  })) as CallToolResult;
}

/** The structured content of a result, checked to be the same object as its first text block. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function structured(result: CallToolResult): any {
  const first = result.content[0];
  if (first?.type !== 'text') throw new Error('the first content block is not text');
  const fromText: unknown = JSON.parse(first.text);
  if (JSON.stringify(fromText) !== JSON.stringify(result.structuredContent)) {
    throw new Error('structuredContent and the first text block differ');
  }
  return result.structuredContent;
}
