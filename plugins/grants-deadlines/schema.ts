import { GRANT_SUMMARY_SCHEMA, listingSchema } from '../../domain/grants/payloads';

export const grantsDeadlinesPayloadSchema = listingSchema({
  ...GRANT_SUMMARY_SCHEMA,
  required: [...GRANT_SUMMARY_SCHEMA.required, 'closes_in_days'],
  properties: {
    ...GRANT_SUMMARY_SCHEMA.properties,
    closes_in_days: {
      type: 'integer',
      description: 'Calendar days from today (Asia/Tokyo) to the last day of acceptance; 0 = closes today.',
    },
  },
});
