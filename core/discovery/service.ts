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
  /** How x402 catalogues (the Bazaar) list the service: the seller metadata of every 402. */
  listing: SellerListing;
}

/** The seller's part of the `resource` of every x402 PaymentRequired (checked at boot). */
export interface SellerListing {
  /** `resource.serviceName`: printable ASCII, at most 32 characters. */
  serviceName: string;
  /** The service icon, an SVG document served at /icon.svg (`resource.iconUrl`). */
  iconSvg: string;
}
