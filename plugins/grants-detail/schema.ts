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
    today: {
      type: 'string',
      description: 'The request date in Asia/Tokyo, against which status and days are computed.',
      format: 'date',
    },
    catch_phrase: { ...NULLABLE_STRING, description: "The grant's catch phrase." },
    institution_name: { ...NULLABLE_STRING, description: 'The grant office.' },
    project_end_date: { ...NULLABLE_STRING, description: 'The last day of the project period.' },
    industries: {
      ...LABELLED_LIST_SCHEMA,
      description:
        "The industries jGrants lists for a grant: labels, and this service's slugs of them; null when none.",
    },
    purposes: {
      ...LABELLED_LIST_SCHEMA,
      description: 'The use purposes jGrants lists for a grant: labels, slugs; null when none.',
    },
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
          description: 'Amounts found in the upstream texts.',
          items: {
            type: 'object',
            properties: {
              amount_jpy: { type: 'integer', description: 'An amount of yen found in a text.' },
              field: {
                enum: ['subsidy_rate', 'title', 'subsidy_catch_phrase', 'detail'],
                description: 'The upstream field a text came from.',
              },
              excerpt: { type: 'string', description: 'The words around it.' },
            },
          },
        },
        reason: {
          type: 'string',
          description:
            'Why, in one sentence: why confirmed is false, why a criterion was met or not, why a grant is listed, why an amount status was chosen.',
        },
      },
    },
    description: { ...NULLABLE_STRING, description: 'The upstream description as plain text.' },
    contact: {
      type: 'object',
      description:
        'How to reach the grant office: official_page_url, inquiry_url, inquiry_text, institution_name.',
      properties: {
        official_page_url: { ...NULLABLE_STRING, description: "The grant's official page." },
        inquiry_url: { ...NULLABLE_STRING, description: 'The inquiry page.' },
        inquiry_text: { ...NULLABLE_STRING, description: 'The inquiry contact as written.' },
        institution_name: { ...NULLABLE_STRING, description: 'The grant office.' },
      },
    },
    missing_fields: {
      type: 'array',
      description: 'Expected fields the upstream does not give.',
      items: { type: 'string' },
    },
    _attribution: {
      type: 'string',
      description: 'The public source of the answer, in words a buyer recognises.',
    },
    _provenance: PROVENANCE_SCHEMA,
  },
};
