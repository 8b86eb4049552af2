/**
 * The registry's change feed: one record per state an import placed in a corporation's history
 * (corporation-history.ts), read in the order recorded by its sequence number. Webhook watches
 * read it (changesSince); it is written with the state, so a change is never lost nor invented.
 */
import type { CorporationAddress, CorporationStatus } from './corporation';

/**
 * A corporation as one NTA record states it, from its change date on: what the history keeps.
 * Keyed by corporate number, change_date and process (a later update of the same key is a
 * correction and replaces it).
 */
export interface CorporationState {
  /** 変更年月日 (YYYY-MM-DD): when this state came into force (the update date when the record has none). */
  change_date: string;
  /** 更新年月日: when the NTA published it. */
  update_date: string;
  /** 処理区分 of the record: what made this state. */
  process: string;
  /** 訂正区分: 1 when the record corrects an earlier one. */
  correct: string;
  name: string;
  furigana: string;
  en_name: string;
  kind: string;
  address: CorporationAddress;
  status: CorporationStatus;
  close_date: string;
  close_cause: string;
  successor_corporate_number: string;
  change_cause: string;
}

/** What a change can touch, as `changed` lists it ('created': the first state held). */
export const CHANGE_FIELDS = [
  'name',
  'furigana',
  'address',
  'kind',
  'closed',
  'successor',
  'english_name',
  'created',
] as const;
export type ChangeField = (typeof CHANGE_FIELDS)[number];

export interface CorporationChange {
  /** Stable: the same change imported twice keeps its id (a hash of the number and the state). */
  id: string;
  /** Strictly increasing in the order recorded: the reader's cursor. */
  seq: number;
  corporate_number: string;
  /** YYYY-MM-DD */
  change_date: string;
  /** NTA process code (処理区分) of the record. */
  process: string;
  changed: ChangeField[];
  /** The state in force just before it, as held when the change was recorded (null: none held). */
  before: CorporationState | null;
  after: CorporationState;
  /** The file the change was imported from. */
  source_file: string;
  /** When the store recorded it (ISO 8601). */
  recorded_at: string;
}

/** A change as the importer hands it to the store, which numbers and stamps it. */
export type NewCorporationChange = Omit<CorporationChange, 'seq' | 'recorded_at'>;
