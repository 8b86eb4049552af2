/** How the deployment describes itself in discovery documents (supplied by config/service.ts). */
export interface ServiceDescription {
  name: string;
  /** One line of at most 100 characters: the description of server.json (the MCP registry's limit). */
  tagline: string;
  /** One paragraph: what the service sells. */
  summary: string;
  /** What the service is not (shown at the top of every human-facing document). */
  disclaimer: string;
  /** Statements on data honesty, shown in the portal and llms.txt. */
  dataHonesty: string[];
}
