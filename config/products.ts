/**
 * The sales catalog: the three products of the spec (section 1). Price bands are the spec's
 * per-family ranges (4.3); a plugin priced outside its band refuses to boot. `tags` are what x402
 * catalogues file the product's endpoints under (`resource.tags` of their 402s; checked at boot).
 */
import type { ProductDefinition } from '../core/plugins/products';

export const PRODUCTS: readonly ProductDefinition[] = Object.freeze([
  {
    id: 'jp-local-pack',
    family: 'local',
    name: 'Japan Local Pack',
    description:
      'Payroll deductions, social-insurance grade, consumption-tax rate, national holidays, corporate-number and qualified-invoice-issuer lookups.',
    priceRangeMicroUsdc: { min: 1_000, max: 20_000 },
    tags: ['japan', 'payroll', 'tax', 'holidays', 'corporate-registry'],
    notice:
      'Reference data computed from public official sources, not a final legal, payroll, tax or corporate-verification decision: check anything you pay, file or rely on against the official publication named in _provenance.',
  },
  {
    id: 'jp-data-enrich',
    family: 'enrich',
    name: 'Japan Data Enrich',
    description:
      'Resolves a company name, domain or 13-digit corporate number into structured corporate data with ranked candidates and a numeric match-reliability score.',
    priceRangeMicroUsdc: { min: 10_000, max: 50_000 },
    tags: ['japan', 'company-data', 'corporate-registry', 'entity-resolution', 'enrichment'],
    notice:
      'Reference data matched from public official sources, not a final corporate-verification, legal or tax decision: a candidate and its match reliability are leads to confirm against the official register named in _provenance.',
  },
  {
    id: 'jp-grants',
    family: 'grants',
    name: 'Japan Grants',
    description: 'Grant discovery, deadlines, detail, and review-required eligibility candidates.',
    priceRangeMicroUsdc: { min: 20_000, max: 50_000 },
    tags: ['japan', 'grants', 'subsidies', 'public-funding', 'government-data'],
    notice:
      "Reference data from public official sources, not a grant-eligibility decision nor legal advice: confirm every condition, amount and deadline with the grant's official call before you apply.",
  },
]);
