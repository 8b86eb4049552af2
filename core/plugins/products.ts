/** What the kernel needs to know of a product: its id, family path segment and price band. */
export interface ProductDefinition {
  id: string;
  /** Path segment of the product's endpoints, e.g. `local` in `/v1/local/<path>`. */
  family: string;
  name: string;
  description: string;
  /**
   * What every answer of the product is and is not (e.g. reference data, not a decision); the
   * kernel stamps it on every payload as `_notice`, so no plugin can leave it out.
   */
  notice: string;
  /** Inclusive price band per call, in micro-USDC; a plugin priced outside it refuses to boot. */
  priceRangeMicroUsdc: { min: number; max: number };
  /**
   * Topical tags x402 catalogues file the product's endpoints under (`resource.tags` of their
   * 402s): at most 5, each printable ASCII of at most 32 characters, no two alike.
   */
  tags: string[];
}
