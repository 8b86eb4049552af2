import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';
import { CANDIDATE_SCHEMA, EDINET_SCHEMA } from '../../domain/registry/answers/schemas';

export const companyByDomainPayloadSchema = {
  type: 'object',
  required: ['query', 'host', 'count', 'candidates', '_attribution', '_provenance'],
  properties: {
    query: {
      type: 'object',
      description: 'The parameters as understood.',
      required: ['domain'],
      properties: { domain: { type: 'string' } },
    },
    host: {
      type: 'object',
      required: ['ascii', 'unicode', 'registrable', 'label'],
      properties: {
        ascii: { type: 'string' },
        unicode: { type: 'string' },
        registrable: { type: 'string' },
        label: { type: 'string' },
      },
    },
    count: { type: 'integer' },
    candidates: {
      type: 'array',
      items: {
        ...CANDIDATE_SCHEMA,
        required: [...CANDIDATE_SCHEMA.required, 'edinet'],
        properties: {
          ...CANDIDATE_SCHEMA.properties,
          edinet: EDINET_SCHEMA,
          match_mode: { enum: ['domain_map', 'domain_label'] },
          matched_on: {
            enum: ['domain_map', 'legal_name', 'former_names', 'furigana', 'legal_name_en', 'alias'],
          },
          domain_sources: {
            type: 'array',
            items: { type: 'object', properties: { name: { type: 'string' }, url: { type: 'string' } } },
            description:
              "domain_map: official documents naming the operator (a go.jp body's own site); may be empty.",
          },
          domain_cross_checked_against: {
            type: 'array',
            items: { type: 'object', properties: { name: { type: 'string' }, url: { type: 'string' } } },
            description:
              'domain_map: other public pages naming the operator (no register of domains exists).',
          },
        },
      },
    },
    _attribution: { type: 'string' },
    _provenance: PROVENANCE_SCHEMA,
  },
};
