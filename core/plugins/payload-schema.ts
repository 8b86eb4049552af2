/** Schema pieces every payload shares (see EndpointPayload in contract.ts). */
export const PROVENANCE_SCHEMA = {
  type: 'object',
  required: ['kind', 'as_of', 'sources'],
  properties: {
    kind: {
      enum: ['live', 'snapshot'],
      description: 'live: fetched from the upstream for this call; snapshot: a dated table in data/.',
    },
    as_of: {
      type: 'string',
      description: 'YYYY-MM-DD of the snapshot, or the date-time of the live answer.',
    },
    sources: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name'],
        properties: { name: { type: 'string' }, url: { type: 'string' } },
      },
    },
    notes: { type: 'array', items: { type: 'string' } },
  },
} as const;
