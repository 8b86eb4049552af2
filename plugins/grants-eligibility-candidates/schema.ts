import { CRITERION_NAMES } from './criteria';
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
        enum: [...CRITERION_NAMES],
        description:
          'A criterion: accepting_applications, target_area, area_detail, industry, employees, capital, purpose.',
      },
      reason: {
        type: 'string',
        description:
          'Why, in one sentence: why confirmed is false, why a criterion was met or not, why a grant is listed, why an amount status was chosen.',
      },
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
    today: {
      type: 'string',
      description: 'The request date in Asia/Tokyo, against which status and days are computed.',
      format: 'date',
    },
    review_required: {
      const: true,
      description: 'Always true: every candidate needs review against the call guidelines.',
    },
    query: {
      type: 'object',
      description: 'The company profile as read (prefecture, industry and purpose resolved).',
      properties: QUERY_ECHO_PROPERTIES,
    },
    count: { type: 'integer', description: "The number of items in the answer's list." },
    considered: { type: 'integer', description: 'Open grants examined.' },
    excluded: {
      type: 'object',
      description: 'Grants left out: count and by_condition.',
      properties: {
        count: { type: 'integer', description: "The number of items in the answer's list." },
        by_condition: {
          type: 'object',
          description: 'Grants left out, by the criterion that left them out.',
          additionalProperties: { type: 'integer' },
          propertyNames: { enum: [...CRITERION_NAMES] },
        },
      },
    },
    candidates: {
      type: 'array',
      description: 'Ranked candidates: corporations (or grants) that may be the one meant.',
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
          rank: { type: 'integer', description: 'The rank of a candidate, from 1.', minimum: 1 },
          review_required: {
            const: true,
            description: 'Always true: every candidate needs review against the call guidelines.',
          },
          fit_score: {
            type: 'number',
            minimum: 0,
            maximum: 1,
            description:
              'Weighted share of the criteria the profile is seen to meet (unchecked criteria count against it). Not a probability of award.',
          },
          grant: {
            ...GRANT_SUMMARY_SCHEMA,
            description: 'A grant summary.',
            properties: {
              ...GRANT_SUMMARY_SCHEMA.properties,
              industries: {
                ...LABELLED_LIST_SCHEMA,
                description:
                  "The industries jGrants lists for a grant: labels, and this service's slugs of them; null when none.",
              },
              purposes: {
                ...LABELLED_LIST_SCHEMA,
                description: 'The use purposes jGrants lists for a grant: labels, slugs; null when none.',
              },
            },
          },
          criteria_met: { ...REASONS, description: 'Criteria met, each with the reason.' },
          criteria_failed: {
            ...REASONS,
            description:
              'Preferences the grant does not match (purpose); a failed condition leaves the grant out.',
          },
          criteria_not_checked: {
            ...REASONS,
            description: 'Criteria that could not be checked, each with the reason.',
          },
          reason: { type: 'string', description: 'Why the grant is listed, in one sentence.' },
        },
      },
    },
    _attribution: {
      type: 'string',
      description: 'The public source of the answer, in words a buyer recognises.',
    },
    _provenance: PROVENANCE_SCHEMA,
  },
};
