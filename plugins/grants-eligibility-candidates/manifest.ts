import { definePlugin } from '../../core/plugins/contract';
import { GrantsEligibilityCandidatesHandler } from './handler';
import { GrantsEligibilityCandidatesQuery } from './query';
import { grantsEligibilityCandidatesPayloadSchema } from './schema';

export default definePlugin({
  endpointId: 'grants-eligibility-candidates',
  product: 'jp-grants',
  tail: 'grants/eligibility-candidates',
  // Top of the band: compares a profile with every open grant examined (up to 50 detail reads
  // live) and explains each criterion; the most work and the most value per call.
  priceMicroUsdc: 50_000,
  lifecycle: 'paid_open',
  summary:
    'Grants a company profile may fit, ranked, each with the criteria met, failed and not checked (review required)',
  description:
    'From a company profile (prefecture, industry, employees, capital, purpose), the open grants whose conditions published on jGrants do not exclude it, ranked by a fit score, each with review_required: true and the reasons for every criterion. Capital and the wording of area conditions cannot be checked from jGrants data and are always listed as not checked. Reference data for review, not a grant-eligibility decision.',
  source: {
    name: 'Jグランツ（jGrants）public API, Digital Agency',
    freshness:
      'live from the jGrants API where the deployment connects it (answers cached up to 10/60 minutes), else a dated snapshot',
    url: 'https://developers.digital.go.jp/documents/jgrants/api/',
  },
  query: GrantsEligibilityCandidatesQuery,
  handler: GrantsEligibilityCandidatesHandler,
  payloadSchema: grantsEligibilityCandidatesPayloadSchema,
  examples: [
    {
      title: 'A 45-person manufacturer in Kumamoto investing in equipment',
      query: {
        pref: '43',
        industry: 'manufacturing',
        employees: 45,
        capital_jpy: 30_000_000,
        purpose: 'equipment_it',
      },
    },
    { title: 'Only a prefecture', query: { pref: 'tokyo' } },
  ],
  errors: [
    {
      status: 503,
      code: 'source_unavailable',
      description: 'The live jGrants API could not be reached and no cached answer covers the request.',
    },
  ],
});
