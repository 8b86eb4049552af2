/** Schema pieces every payload shares (see EndpointPayload in contract.ts). */
const SOURCE_REF = {
  type: 'object',
  required: ['name'],
  properties: {
    name: {
      type: 'string',
      description:
        'A name as given: of a document (sources[].name) or of a company in a request (query.name, results[].name). The name a corporation is registered under is legal_name.',
    },
    url: { type: 'string', description: 'The address of a document.' },
  },
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
        kind: {
          enum: ['live', 'snapshot'],
          description:
            'live: the live upstream was searched for this call; snapshot: a dated sample or list held by the service.',
        },
        as_of: {
          type: 'string',
          description:
            'The date of the data: YYYY-MM-DD of a snapshot or list, the date-time of a live answer.',
        },
        records: {
          type: ['integer', 'null'],
          description: 'How many records a search ran over; null for a live upstream.',
        },
        unit: { type: 'string', description: 'What a record is (corporations, grants, legal forms).' },
        complete: {
          type: 'boolean',
          description: "true only when the records searched are the publisher's complete data set.",
        },
        note: { type: 'string', description: 'One sentence a buyer reads about the object it is in.' },
      },
    },
    notes: {
      type: 'array',
      description: 'Sentences a careful reader should know (caveats, what was assumed).',
      items: { type: 'string' },
    },
  },
  description:
    "Where the answer's data came from: kind, as_of, sources, cross_checked_against, searched, notes.",
} as const;
