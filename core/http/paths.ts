/** Surface path prefixes, shared by routes and discovery documents. */
export const PREVIEW_PATH_PREFIX = '/preview/v1';
export const PAID_PATH_PREFIX = '/v1';
export function marketplacePathPrefix(segment: string): string {
  return `/marketplace/${segment}/v1`;
}
/** The MCP surface (Streamable HTTP): paid tools, and the free preview of the same tools. */
export const MCP_PATH = '/mcp';
export const PREVIEW_MCP_PATH = '/preview/mcp';
