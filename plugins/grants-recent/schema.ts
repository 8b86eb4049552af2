import { GRANT_SUMMARY_SCHEMA, listingSchema } from '../../domain/grants/payloads';

export const grantsRecentPayloadSchema = listingSchema({
  ...GRANT_SUMMARY_SCHEMA,
  required: [...GRANT_SUMMARY_SCHEMA.required, 'opened_days_ago'],
  properties: {
    ...GRANT_SUMMARY_SCHEMA.properties,
    opened_days_ago: {
      type: 'integer',
      description: 'Days since acceptance opened (Asia/Tokyo); 0 = today.',
    },
  },
});
