/** How the MCP server names itself and which ways of paying a tool call it offers. */
import { paymentsConfigured, type GatewayConfig } from '../config';

/** The server's programmatic name (MCP serverInfo.name): the service name as a slug. */
export function mcpServerName(serviceName: string): string {
  return serviceName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** The ways a tool call on /mcp can be paid on this deployment. */
export function mcpAuthSchemes(config: GatewayConfig): Array<'api_key' | 'x402'> {
  return paymentsConfigured(config) ? ['api_key', 'x402'] : ['api_key'];
}
