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
};
