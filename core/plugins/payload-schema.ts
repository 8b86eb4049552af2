/** Schema pieces every payload shares (see EndpointPayload in contract.ts). */
const SOURCE_REF = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string' }, url: { type: 'string' } },
} as const;

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
      description: "The official publishers' documents the figures come from.",
      items: SOURCE_REF,
    },
    cross_checked_against: {
      type: 'array',
      description:
        'Independent transcriptions the figures were checked against; never the source of the figures.',
      items: SOURCE_REF,
    },
    searched: {
      type: 'object',
      description: 'What this answer searched: snapshot or live, as-of date and size.',
      required: ['kind', 'as_of', 'records', 'unit', 'complete', 'note'],
      properties: {
        kind: { enum: ['live', 'snapshot'] },
        as_of: { type: 'string' },
        records: { type: ['integer', 'null'] },
        unit: { type: 'string' },
        complete: { type: 'boolean' },
        note: { type: 'string' },
      },
    },
    notes: { type: 'array', items: { type: 'string' } },
  },
} as const;
