import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';
import { CORPORATION_SCHEMA, EDINET_SCHEMA } from '../../domain/registry/schemas';

export const houjinNumberPayloadSchema = {
  type: 'object',
  required: ['corporate_number', 'corporation', 'edinet', 'source', '_attribution', '_provenance'],
  properties: {
    corporate_number: { type: 'string', pattern: '^[0-9]{13}$' },
    corporation: CORPORATION_SCHEMA,
    edinet: EDINET_SCHEMA,
    source: {
      enum: ['snapshot', 'store', 'live'],
      description:
        'snapshot: a curated, dated sample of real corporations (not the register; see _provenance.searched); store: imported NTA bulk download; live: NTA Web-API.',
    },
    diagnostics: {
      type: 'object',
      description: 'With verbose: check digit, source, number of former names.',
    },
    _attribution: { type: 'string' },
    _provenance: PROVENANCE_SCHEMA,
  },
};
