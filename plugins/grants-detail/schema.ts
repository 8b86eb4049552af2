import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';
import { GRANT_SUMMARY_SCHEMA, LABELLED_LIST_SCHEMA } from '../../domain/grants/payloads';

const NULLABLE_STRING = { type: ['string', 'null'] };

export const grantsDetailPayloadSchema = {
  type: 'object',
  required: [
    ...GRANT_SUMMARY_SCHEMA.required,
    'amount_evidence',
    'contact',
    'today',
    '_attribution',
    '_provenance',
  ],
  properties: {
    ...GRANT_SUMMARY_SCHEMA.properties,
    today: { type: 'string', format: 'date' },
    catch_phrase: NULLABLE_STRING,
    institution_name: NULLABLE_STRING,
    project_end_date: NULLABLE_STRING,
    industries: LABELLED_LIST_SCHEMA,
    purposes: LABELLED_LIST_SCHEMA,
    amount_evidence: {
      type: 'object',
      description: 'What the upstream states about the cap, and why the status was chosen.',
      properties: {
        upstream_max_limit_jpy: {
          type: ['integer', 'null'],
          description: 'subsidy_max_limit as given; 0 = no single cap.',
        },
        text_amounts: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              amount_jpy: { type: 'integer' },
              field: { enum: ['subsidy_rate', 'title', 'subsidy_catch_phrase', 'detail'] },
              excerpt: { type: 'string' },
            },
          },
        },
        reason: { type: 'string' },
      },
    },
    description: { ...NULLABLE_STRING, description: 'The upstream description as plain text.' },
    contact: {
      type: 'object',
      properties: {
        official_page_url: NULLABLE_STRING,
        inquiry_url: NULLABLE_STRING,
        inquiry_text: NULLABLE_STRING,
        institution_name: NULLABLE_STRING,
      },
    },
    missing_fields: { type: 'array', items: { type: 'string' } },
    _attribution: { type: 'string' },
    _provenance: PROVENANCE_SCHEMA,
  },
};
