import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';
import {
  GRANT_SUMMARY_SCHEMA,
  LABELLED_LIST_SCHEMA,
  QUERY_ECHO_PROPERTIES,
} from '../../domain/grants/payloads';

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
    'query',
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
    query: {
      type: 'object',
      description: 'The company profile as read (prefecture, industry and purpose resolved).',
      properties: QUERY_ECHO_PROPERTIES,
    },
    count: { type: 'integer' },
    considered: { type: 'integer', description: 'Open grants examined.' },
    excluded: {
      type: 'object',
      properties: {
        count: { type: 'integer' },
        by_condition: {
          type: 'object',
          description: 'Grants left out, by the criterion that left them out.',
          additionalProperties: { type: 'integer' },
        },
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
          'reason',
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
              industries: LABELLED_LIST_SCHEMA,
              purposes: LABELLED_LIST_SCHEMA,
            },
          },
          criteria_met: REASONS,
          criteria_failed: {
            ...REASONS,
            description:
              'Preferences the grant does not match (purpose); a failed condition leaves the grant out.',
          },
          criteria_not_checked: REASONS,
          reason: { type: 'string', description: 'Why the grant is listed, in one sentence.' },
        },
      },
    },
    _attribution: { type: 'string' },
    _provenance: PROVENANCE_SCHEMA,
  },
};
