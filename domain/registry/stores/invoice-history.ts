/**
 * A registration's states as the register files publish them, and which one holds when. Each row
 * of a full or differential file is one state of one registration; the same state comes again in
 * later files with another sequence number, so a state is named by its date, its process, its
 * correction flag and its content (never by its place in a file). The newest state is the current
 * one: by date (update date, else registration date), then by process precedence on the same date,
 * then by the latest flag, the correction flag and the content, so every order of files agrees.
 */
import { createHash } from 'node:crypto';
import { INVOICE_COLUMNS, PROCESS_CODES, type InvoiceRow } from '../files/invoice-file';

/** A state as stored: a file row without its sequence number (a place in one file). */
export type InvoiceState = InvoiceRow;

/**
 * A process code's rank among the events of one day (PROCESS_CODES lists them in that order): a
 * registration is published (01), changed (02), then ends by expiry (03) or cancellation (04); a
 * deletion (99) withdraws it from publication, after anything else.
 */
function precedenceOf(process: string): number {
  return PROCESS_CODES.indexOf(process) + 1;
}

/** The day a state was published: its update date, or its registration date for a first one. */
export function dateOf(s: InvoiceRow): string {
  return s.updateDate || s.registrationDate;
}

const CONTENT_COLUMNS = INVOICE_COLUMNS.filter((c) => c !== 'sequenceNumber' && c !== 'latest');

function contentHash(s: InvoiceRow): string {
  return createHash('sha256')
    .update(JSON.stringify(CONTENT_COLUMNS.map((c) => s[c])))
    .digest('hex')
    .slice(0, 16);
}

/** The state a file row is: the row without its sequence number. */
export function stateOf(row: InvoiceRow): InvoiceState {
  return { ...row, sequenceNumber: '' };
}

/**
 * What names one state of a registration, whichever file it came in (`key`), and its order among
 * states and copies of one (`version`: greater is newer). The content is hashed once for both.
 */
export function identityOf(s: InvoiceRow): { key: string; version: string } {
  const hash = contentHash(s);
  const head = `${dateOf(s)}|${precedenceOf(s.process)}`;
  return {
    key: `${head}|${s.correct}|${hash}`,
    version: `${head}|${s.latest === '1' ? '1' : '0'}|${s.correct}|${hash}`,
  };
}

/** States oldest first, each once (of two copies, the newer). */
export function orderedStates(states: readonly InvoiceState[]): InvoiceState[] {
  const byKey = new Map<string, { state: InvoiceState; version: string }>();
  for (const state of states) {
    const { key, version } = identityOf(state);
    const held = byKey.get(key);
    if (!held || version > held.version) byKey.set(key, { state, version });
  }
  return [...byKey.values()].sort((a, b) => (a.version < b.version ? -1 : 1)).map((h) => h.state);
}

export interface StateOnDate {
  /** The state published on or before the date (the newest such), or null when none is held. */
  state: InvoiceState | null;
  /** The day of the oldest state held. */
  historyStarts: string;
  /** Whether the oldest state held is the registration's first publication (process 01). */
  historyComplete: boolean;
}

/**
 * The state of a registration on `date` among its states (oldest first, the current last). Before
 * the oldest state held, it is known only when that state is the first publication itself (the
 * registration then had no other state); otherwise the history held starts later.
 */
export function stateOn(states: readonly InvoiceState[], date: string): StateOnDate {
  const first = states[0];
  const historyComplete = first.process === '01';
  let state: InvoiceState | null = null;
  for (const s of states) if (dateOf(s) <= date) state = s;
  if (!state && historyComplete) state = first;
  return { state, historyStarts: dateOf(first), historyComplete };
}
