import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';
import { CANDIDATE_SCHEMA } from '../../domain/registry/schemas';

export const companyByDomainPayloadSchema = {
  type: 'object',
  required: ['input', 'host', 'count', 'candidates', 'source', '_attribution', '_provenance'],
  properties: {
    input: { type: 'string' },
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
        properties: {
          ...CANDIDATE_SCHEMA.properties,
          match_mode: { enum: ['domain_map', 'domain_label'] },
          matched_on: { type: 'string' },
          domain_sources: { type: 'array' },
        },
      },
    },
    source: { enum: ['snapshot', 'store', 'live'] },
    _attribution: { type: 'string' },
    _provenance: PROVENANCE_SCHEMA,
  },
};
