import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';
import {
  CANDIDATE_SCHEMA,
  EDINET_SCHEMA,
  MODE_COUNTS,
  NORMALIZED_NAME_SCHEMA,
} from '../../domain/registry/answers/schemas';
import { PREFECTURE_SCHEMA } from '../../domain/shared/prefectures';

export const houjinLookupPayloadSchema = {
  type: 'object',
  required: ['query', 'count', 'candidates', '_attribution', '_provenance'],
  properties: {
    query: {
      type: 'object',
      description: 'The parameters as understood, with the prefecture resolved.',
      required: ['name', 'pref', 'limit'],
      properties: {
        name: { type: 'string' },
        pref: { oneOf: [PREFECTURE_SCHEMA, { type: 'null' }] },
        limit: { type: 'integer' },
      },
    },
    count: { type: 'integer' },
    candidates: {
      type: 'array',
      items: {
        ...CANDIDATE_SCHEMA,
        required: [...CANDIDATE_SCHEMA.required, 'edinet'],
        properties: { ...CANDIDATE_SCHEMA.properties, edinet: EDINET_SCHEMA },
      },
    },
    diagnostics: {
      type: 'object',
      description:
        'With verbose: how the name was read, corporations found by each mode, the reliability scale.',
      properties: {
        normalized: NORMALIZED_NAME_SCHEMA,
        found_by_mode: { type: 'object', properties: MODE_COUNTS },
        reliability_scale: {
          type: 'object',
          properties: {
            formula: { type: 'string' },
            base_by_mode: {
              type: 'object',
              properties: { ...MODE_COUNTS, reading_prefix: { type: 'number' } },
            },
            coverage_factor: { type: 'string' },
            label_thresholds: {
              type: 'object',
              properties: { high: { type: 'string' }, medium: { type: 'string' }, low: { type: 'string' } },
            },
          },
        },
      },
    },
    _attribution: { type: 'string' },
    _provenance: PROVENANCE_SCHEMA,
  },
};
