import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';
import { CHANGE_FIELDS } from '../../domain/registry/corporation-change';
import { CORPORATION_SCHEMA, STATE_AS_OF_SCHEMA } from '../../domain/registry/answers/schemas';

const { process, update_date, correction } = CORPORATION_SCHEMA.properties.last_change.properties;

export const companyHistoryPayloadSchema = {
  type: 'object',
  required: [
    'corporate_number',
    'corporation',
    'states',
    'history_starts',
    'history_recorded',
    'note',
    'files',
    '_attribution',
    '_provenance',
  ],
  properties: {
    corporate_number: {
      type: 'string',
      description:
        'The 13-digit corporate number (法人番号) of the corporation an answer or record is about.',
      pattern: '^[0-9]{13}$',
    },
    corporation: CORPORATION_SCHEMA,
    states: {
      type: 'array',
      description:
        'Every state of the corporation held here, oldest first: the corporation as each NTA record stated it, from its change date on, with what changed from the state before.',
      items: {
        type: 'object',
        required: ['change_date', 'update_date', 'process', 'correction', 'changed', 'corporation'],
        properties: {
          change_date: {
            type: 'string',
            description:
              'The day the state took effect (変更年月日; the update date when the record gives none).',
          },
          update_date,
          process: { ...process, description: "The register's process code (処理区分) that made the state." },
          correction,
          changed: {
            type: 'array',
            items: { enum: [...CHANGE_FIELDS] },
            description:
              'What changed from the state before: name, furigana, address, kind, closed, successor, english_name; created for the first state held.',
          },
          corporation: CORPORATION_SCHEMA,
        },
      },
    },
    history_starts: STATE_AS_OF_SCHEMA.properties.history_starts,
    history_recorded: STATE_AS_OF_SCHEMA.properties.history_recorded,
    note: { type: 'string', description: 'One sentence a buyer reads about the object it is in.' },
    files: {
      type: 'array',
      description:
        'The NTA files imported into the store answering, the last finished first (empty for other sources).',
      items: {
        type: 'object',
        required: ['name', 'differential', 'as_of', 'imported_at'],
        properties: {
          name: {
            type: 'string',
            description:
              'A name as given: of a document (sources[].name) or of a company in a request (query.name, results[].name). The name a corporation is registered under is legal_name.',
          },
          differential: {
            type: 'boolean',
            description:
              'Whether the file was a differential file (差分データ) rather than a full file (全件データ).',
          },
          as_of: {
            type: ['string', 'null'],
            description: "YYYY-MM-DD: the newest update date among the file's records.",
          },
          imported_at: { type: ['string', 'null'], description: 'When the import finished (ISO 8601).' },
        },
      },
    },
    _attribution: {
      type: 'string',
      description: 'The public source of the answer, in words a buyer recognises.',
    },
    _provenance: PROVENANCE_SCHEMA,
  },
};
