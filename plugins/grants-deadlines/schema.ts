import { GRANT_SUMMARY_SCHEMA, listingSchema } from '../../domain/grants/payloads';

export const grantsDeadlinesPayloadSchema = listingSchema({
  ...GRANT_SUMMARY_SCHEMA,
  required: [...GRANT_SUMMARY_SCHEMA.required, 'days_until_deadline'],
  properties: {
    ...GRANT_SUMMARY_SCHEMA.properties,
    days_until_deadline: {
      type: 'integer',
      description: 'Calendar days from today (Asia/Tokyo) to the last day of acceptance; 0 = closes today.',
    },
  },
});
