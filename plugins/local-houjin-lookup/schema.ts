import { PAGE_LINK_PROPERTIES } from '../../core/plugins/page-cursor';
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
  required: ['query', 'count', 'has_more', 'next_cursor', 'candidates', '_attribution', '_provenance'],
  properties: {
    query: {
      type: 'object',
      description: 'The parameters as understood, with the prefecture resolved.',
      required: ['name', 'pref', 'limit'],
      properties: {
        name: {
          type: 'string',
          description:
            'A name as given: of a document (sources[].name) or of a company in a request (query.name, results[].name). The name a corporation is registered under is legal_name.',
        },
        pref: {
          oneOf: [PREFECTURE_SCHEMA, { type: 'null' }],
          description:
            'The pref parameter as understood: a prefecture {code, name_ja, name_en}; null when not given.',
        },
        limit: { type: 'integer', description: 'The limit parameter applied: the most items answered.' },
      },
    },
    count: { type: 'integer', description: "The number of items in the answer's list." },
    ...PAGE_LINK_PROPERTIES,
    candidates: {
      type: 'array',
      description: 'Ranked candidates: corporations (or grants) that may be the one meant.',
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
        found_by_mode: {
          type: 'object',
          description: 'Corporations each matching mode found, before ranking and the limit.',
          properties: MODE_COUNTS,
          propertyNames: { enum: Object.keys(MODE_COUNTS) },
        },
        reliability_scale: {
          type: 'object',
          description:
            'How match_reliability is computed: formula, base_by_mode, coverage_factor, label_thresholds.',
          properties: {
            formula: { type: 'string', description: 'The formula of match_reliability, in words.' },
            base_by_mode: {
              type: 'object',
              description: 'The base reliability of each matching mode.',
              properties: { ...MODE_COUNTS, reading_prefix: { type: 'number' } },
              propertyNames: { enum: [...Object.keys(MODE_COUNTS), 'reading_prefix'] },
            },
            coverage_factor: {
              type: 'string',
              description: 'The factor for prefix and partial matches, in words.',
            },
            label_thresholds: {
              type: 'object',
              description: 'The match_reliability each label starts at.',
              properties: { high: { type: 'string' }, medium: { type: 'string' }, low: { type: 'string' } },
              propertyNames: { enum: ['high', 'medium', 'low'] },
            },
          },
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
