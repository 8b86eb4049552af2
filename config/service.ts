import type { ServiceDescription } from '../core/discovery/service';

export const SERVICE: ServiceDescription = {
  name: 'Japan Public-Data Gateway',
  tagline:
    'Japan public data for agents: payroll, tax, holidays, corporate registry, invoice issuers, grants.',
  summary:
    'Read-only lookups and calculators over public Japanese official data: payroll deductions, social-insurance grades, ' +
    'consumption-tax rates, national holidays, corporate-number and qualified-invoice-issuer lookups, company enrichment ' +
    'and grant discovery.',
  disclaimer:
    'Reference data: answers are not final legal, payroll, corporate-verification, tax or grant-eligibility decisions. ' +
    'Check anything you act on against the official source named in each answer.',
  dataHonesty: [
    'Every answer carries `_attribution` (the public source) and `_provenance` (`kind`: `live` or `snapshot`, `as_of`, sources and notes).',
    'Snapshots and master tables are dated; facts that could not be confirmed against an official original are flagged in `_provenance.notes`.',
    'Where a live source cannot be reached and no snapshot covers the request, the answer is 503 `source_unavailable`, never a guess.',
    'Nothing is invented: a rate, a corporate number or a grant in an answer has a public source.',
  ],
  listing: {
    serviceName: 'Japan Public-Data Gateway',
    // Presentation attributes only: the gateway's content security policy forbids inline styles.
    iconSvg:
      '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64" role="img" aria-label="Japan Public-Data Gateway">' +
      '<rect x="2" y="2" width="60" height="60" rx="12" fill="#ffffff" stroke="#b3261e" stroke-width="4"/>' +
      '<circle cx="32" cy="25" r="11" fill="#b3261e"/>' +
      '<path d="M16 44h32M16 52h20" stroke="#2b2b2b" stroke-width="4" stroke-linecap="round"/>' +
      '</svg>\n',
  },
};
