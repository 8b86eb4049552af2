/**
 * A corporation's history: the states its NTA records stated, each from its change date on
 * (corporation-change.ts has the type). Built so that any order of the same files gives the same
 * history: a state is keyed by its change date and process code, a later update date of the same
 * key replaces it (a correction), an earlier or equal one changes nothing; states are ordered by
 * change date, then update date. The current state is the last. Reading collapses a state equal
 * in every field a buyer sees to the one before it (docs/decisions.md, "Corporate history").
 */
import { createHash } from 'node:crypto';
import { recordAddress, recordStatus, type Corporation } from './corporation';
import type { NtaRecord } from './files/nta-layout';
import type { ChangeField, CorporationState, NewCorporationChange } from './corporation-change';

/**
 * The state an NTA record states (a deletion, 99, carries only the number and dates). Whether the
 * NTA published it as the latest (最新履歴) is not kept: the same record is latest in one file and
 * history (latest = 0) in a later one, and its place among the states says which it is.
 */
export function stateOfRecord(r: NtaRecord): CorporationState {
  return {
    change_date: r.changeDate || r.updateDate,
    update_date: r.updateDate,
    process: r.process,
    correct: r.correct,
    name: r.name,
    furigana: r.furigana,
    en_name: r.enName,
    kind: r.kind,
    address: recordAddress(r),
    status: recordStatus(r),
    close_date: r.closeDate,
    close_cause: r.closeCause,
    successor_corporate_number: r.successorCorporateNumber,
    change_cause: r.changeCause,
  };
}

/**
 * The one state known of a corporation stored before histories were kept (or from a source
 * without them): its current record, in force from its change date.
 */
export function stateOfCorporation(c: Corporation): CorporationState {
  return {
    change_date: c.change_date || c.update_date,
    update_date: c.update_date,
    process: c.process,
    correct: c.correct,
    name: c.name,
    furigana: c.furigana,
    en_name: c.en_name,
    kind: c.kind,
    address: { ...c.address },
    status: c.status,
    close_date: c.close_date,
    close_cause: c.close_cause,
    successor_corporate_number: c.successor_corporate_number,
    change_cause: c.change_cause,
  };
}

const byTime = (a: CorporationState, b: CorporationState): number =>
  a.change_date.localeCompare(b.change_date) ||
  a.update_date.localeCompare(b.update_date) ||
  a.process.localeCompare(b.process);

const sameKey = (a: CorporationState, b: CorporationState): boolean =>
  a.change_date === b.change_date && a.process === b.process;

const sameAddress = (a: CorporationState, b: CorporationState): boolean =>
  JSON.stringify(a.address) === JSON.stringify(b.address);

/** The fields a buyer sees that differ between two states ('created' when there is no earlier one). */
export function changedFields(before: CorporationState | null, after: CorporationState): ChangeField[] {
  if (!before) return ['created'];
  const changed: ChangeField[] = [];
  if (before.name !== after.name) changed.push('name');
  if (before.furigana !== after.furigana) changed.push('furigana');
  if (!sameAddress(before, after)) changed.push('address');
  if (before.kind !== after.kind) changed.push('kind');
  if (
    before.status !== after.status ||
    before.close_date !== after.close_date ||
    before.close_cause !== after.close_cause
  )
    changed.push('closed');
  if (before.successor_corporate_number !== after.successor_corporate_number) changed.push('successor');
  if (before.en_name !== after.en_name) changed.push('english_name');
  return changed;
}

export interface Placed {
  /** The history with the state placed (the same array, unchanged, when it was not). */
  history: CorporationState[];
  /** The change it makes, or null when the state was held already (or is older than the one held). */
  change: NewCorporationChange | null;
  /** Whether the history changed (a state added or corrected), even when no field a buyer sees did. */
  placed: boolean;
}

/**
 * Places a record's state in a history (oldest first). A deletion (99), which carries no fields,
 * takes those of the state before it. The change names the fields that differ from the state
 * before it (or, for a correction, from the state it corrects); a state equal to it is held (so
 * that any order converges) but makes no change.
 */
export function placeState(
  corporateNumber: string,
  history: readonly CorporationState[],
  incoming: CorporationState,
  sourceFile: string,
): Placed {
  const held = history.find((s) => sameKey(s, incoming));
  if (held && held.update_date >= incoming.update_date) {
    return { history: [...history], change: null, placed: false };
  }
  const rest = history.filter((s) => !sameKey(s, incoming));
  // A correction is told against the state it corrects; a new state against the one before it.
  const before = held ?? rest.filter((s) => byTime(s, incoming) < 0).at(-1) ?? null;
  const state =
    incoming.process === '99' && before
      ? { ...before, ...pickDates(incoming), status: 'deleted' as const }
      : incoming;
  const next = [...rest, state].sort(byTime);
  const changed = changedFields(before, state);
  const change =
    changed.length === 0
      ? null
      : {
          id: changeIdOf(corporateNumber, state),
          corporate_number: corporateNumber,
          change_date: state.change_date,
          process: state.process,
          changed,
          before,
          after: state,
          source_file: sourceFile,
        };
  return { history: next, change, placed: true };
}

function pickDates(s: CorporationState): Partial<CorporationState> {
  const { change_date, update_date, process, correct } = s;
  return { change_date, update_date, process, correct };
}

/** A change's id: the same state of the same corporation always has the same one. */
export function changeIdOf(corporateNumber: string, state: CorporationState): string {
  return createHash('sha256')
    .update(`${corporateNumber}\n${JSON.stringify(state)}`)
    .digest('base64url')
    .slice(0, 22);
}

/** A state of the history as answered: what changed from the state before it. */
export interface HistoryEntry {
  state: CorporationState;
  changed: ChangeField[];
}

/**
 * The history as a buyer reads it, oldest first: a state equal in every field a buyer sees to the
 * one before it is folded into it (a correction, a record published again under another code).
 */
export function historyEntries(history: readonly CorporationState[]): HistoryEntry[] {
  const entries: HistoryEntry[] = [];
  for (const state of [...history].sort(byTime)) {
    const before = entries.at(-1)?.state ?? null;
    const changed = changedFields(before, state);
    if (changed.length > 0) entries.push({ state, changed });
  }
  return entries;
}

export type StateAsOf =
  | { held: true; entry: HistoryEntry }
  /** The date is before the first state held: nothing is known of it here. */
  | { held: false; history_starts: string };

/** The state in force on a date (YYYY-MM-DD): the last whose change date is on or before it. */
export function stateAsOf(history: readonly CorporationState[], date: string): StateAsOf {
  const entries = historyEntries(history);
  const entry = entries.filter((e) => e.state.change_date <= date).at(-1);
  return entry ? { held: true, entry } : { held: false, history_starts: entries[0]?.state.change_date ?? '' };
}

/**
 * Completes a corporation's former names from its history: the date each ended (the change date
 * of the state that replaced it), which a history record (latest = 0) applied after its successor
 * does not know, so that any order of the files gives the same former names. Names are not added
 * here: which names a corporation had is the records' (corporation.ts applyRecord). Returns the
 * corporation changed, or null when nothing was missing.
 */
export function withFormerNamesOf(
  corporation: Corporation,
  history: readonly CorporationState[],
): Corporation | null {
  const entries = historyEntries(history);
  let next: Corporation | null = null;
  entries.forEach(({ state }, i) => {
    const former = corporation.former_names.find((f) => f.name === state.name);
    if (!former || former.until) return;
    const replaced = entries.slice(i + 1).find((e) => e.state.name !== state.name);
    if (!replaced) return;
    next ??= structuredClone(corporation);
    next.former_names.find((f) => f.name === state.name)!.until = replaced.state.change_date;
  });
  return next;
}
