import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';
import { GRANT_SUMMARY_SCHEMA } from '../../domain/grants/payloads';

const REASONS = {
  type: 'array',
  items: {
    type: 'object',
    required: ['criterion', 'reason'],
    properties: {
      criterion: {
        enum: [
          'accepting_applications',
          'target_area',
          'area_detail',
          'industry',
          'employees',
          'capital',
          'purpose',
        ],
      },
      reason: { type: 'string' },
    },
  },
};

export const grantsEligibilityCandidatesPayloadSchema = {
  type: 'object',
  required: [
    'today',
    'review_required',
    'notice',
    'profile',
    'count',
    'considered',
    'excluded',
    'candidates',
    '_attribution',
    '_provenance',
  ],
  properties: {
    today: { type: 'string', format: 'date' },
    review_required: { const: true },
    notice: { type: 'string', description: 'What this answer is and is not (not an eligibility decision).' },
    profile: {
      type: 'object',
      description: 'The profile as read (prefecture, industry and purpose resolved).',
    },
    count: { type: 'integer' },
    considered: { type: 'integer', description: 'Open grants examined.' },
    excluded: {
      type: 'object',
      properties: {
        count: { type: 'integer' },
        by_condition: { type: 'object', additionalProperties: { type: 'integer' } },
      },
    },
    candidates: {
      type: 'array',
      items: {
        type: 'object',
        required: [
          'rank',
          'review_required',
          'fit_score',
          'grant',
          'criteria_met',
          'criteria_failed',
          'criteria_not_checked',
          'why',
        ],
        properties: {
          rank: { type: 'integer', minimum: 1 },
          review_required: { const: true },
          fit_score: {
            type: 'number',
            minimum: 0,
            maximum: 1,
            description:
              'Weighted share of the criteria the profile is seen to meet (unchecked criteria count against it). Not a probability of award.',
          },
          grant: {
            ...GRANT_SUMMARY_SCHEMA,
            properties: {
              ...GRANT_SUMMARY_SCHEMA.properties,
              industries: { type: ['array', 'null'], items: { type: 'string' } },
              purposes: { type: ['array', 'null'], items: { type: 'string' } },
            },
          },
          criteria_met: REASONS,
          criteria_failed: {
            ...REASONS,
            description:
              'Preferences the grant does not match (purpose); a failed condition leaves the grant out.',
          },
          criteria_not_checked: REASONS,
          why: { type: 'string' },
        },
      },
    },
    _attribution: { type: 'string' },
    _provenance: PROVENANCE_SCHEMA,
  },
};
