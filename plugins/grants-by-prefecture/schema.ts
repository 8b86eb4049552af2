import { GRANT_SUMMARY_SCHEMA, listingSchema } from '../../domain/grants/payloads';

export const grantsByPrefecturePayloadSchema = listingSchema({
  ...GRANT_SUMMARY_SCHEMA,
  required: [...GRANT_SUMMARY_SCHEMA.required, 'scope'],
  properties: {
    ...GRANT_SUMMARY_SCHEMA.properties,
    scope: {
      enum: ['national', 'prefecture'],
      description:
        'national: open nationwide (全国); prefecture: the grant names this prefecture (alone or with others).',
    },
  },
});
