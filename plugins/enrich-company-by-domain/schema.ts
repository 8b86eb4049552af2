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
      properties: {
        domain: { type: 'string', description: 'The domain parameter of company-by-domain, as given.' },
      },
    },
    host: {
      type: 'object',
      description: 'The domain as read: ascii, unicode, registrable, label.',
      required: ['ascii', 'unicode', 'registrable', 'label'],
      properties: {
        ascii: { type: 'string', description: 'The host in ASCII (punycode) form.' },
        unicode: { type: 'string', description: 'The host in Unicode form.' },
        registrable: { type: 'string', description: 'The registrable domain (public suffix + one label).' },
        label: {
          type: 'string',
          description: "The registrable domain's own label (toyota of toyota.co.jp).",
        },
      },
    },
    count: { type: 'integer', description: "The number of items in the answer's list." },
    candidates: {
      type: 'array',
      description: 'Ranked candidates: corporations (or grants) that may be the one meant.',
      items: {
        ...CANDIDATE_SCHEMA,
        required: [...CANDIDATE_SCHEMA.required, 'edinet'],
        properties: {
          ...CANDIDATE_SCHEMA.properties,
          edinet: EDINET_SCHEMA,
          match_mode: {
            enum: ['domain_map', 'domain_label'],
            description:
              'How a candidate was found: exact, alias, reading, prefix, partial (domain_map, domain_label by domain; corporate_number, registration_number by number).',
          },
          matched_on: {
            enum: ['domain_map', 'legal_name', 'former_names', 'furigana', 'legal_name_en', 'alias'],
            description:
              'The answer field that matched: legal_name, former_names, furigana, legal_name_en, alias (domain_map for the domain map).',
          },
          domain_sources: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                name: {
                  type: 'string',
                  description:
                    'A name as given: of a document (sources[].name) or of a company in a request (query.name, results[].name). The name a corporation is registered under is legal_name.',
                },
                url: { type: 'string', description: 'The address of a document.' },
              },
            },
            description:
              "domain_map: official documents naming the operator (a go.jp body's own site); may be empty.",
          },
          domain_cross_checked_against: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                name: {
                  type: 'string',
                  description:
                    'A name as given: of a document (sources[].name) or of a company in a request (query.name, results[].name). The name a corporation is registered under is legal_name.',
                },
                url: { type: 'string', description: 'The address of a document.' },
              },
            },
            description:
              'domain_map: other public pages naming the operator (no register of domains exists).',
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
