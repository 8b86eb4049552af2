/**
 * A corporation's history: the states its NTA records stated, each from its change date on
 * (corporation-change.ts has the type). Built so that any order of the same files gives the same
 * history: a state is keyed by its change date and process code, a later update date of the same
 * key replaces it (a correction; of two with the same update date, the one whose text sorts last
 * is kept, whichever came first), an earlier one changes nothing; states are ordered by change
 * date, then update date. The current state is the last. A deletion (99) is kept as published and
 * read with the fields of the state before it, whichever file brought that state. Reading
 * collapses a state equal in every field a buyer sees to the one before it (docs/decisions.md,
 * "Corporate history"). The corporation answered, its former names included, is computed from the
 * history (corporationOfHistory), so a name a correction withdrew is never a former name.
 */
import { createHash } from 'node:crypto';
import { recordAddress, recordStatus, type Corporation, type FormerName } from './corporation';
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
 * The states as read: a deletion (99), which carries no fields, takes those of the state before
 * it (when one is held).
 */
export function resolvedStates(history: readonly CorporationState[]): CorporationState[] {
  const out: CorporationState[] = [];
  for (const state of [...history].sort(byTime)) {
    const before = out.at(-1);
    out.push(
      state.process === '99' && before ? { ...before, ...pickDates(state), status: 'deleted' } : state,
    );
  }
  return out;
}

/** Whether `incoming` replaces `held` of the same key: a later update, or the same one sorting last. */
function replaces(held: CorporationState, incoming: CorporationState): boolean {
  if (incoming.update_date !== held.update_date) return incoming.update_date > held.update_date;
  return JSON.stringify(incoming) > JSON.stringify(held);
}

/**
 * Places a record's state in a history (oldest first). The change names the fields that differ
 * from the state before it (or, for a correction, from the state it corrects); a state equal to
 * it is held (so that any order converges) but makes no change.
 */
export function placeState(
  corporateNumber: string,
  history: readonly CorporationState[],
  incoming: CorporationState,
  sourceFile: string,
): Placed {
  const held = history.find((s) => sameKey(s, incoming));
  if (held && !replaces(held, incoming)) {
    return { history: [...history], change: null, placed: false };
  }
  const rest = history.filter((s) => !sameKey(s, incoming));
  const next = [...rest, incoming].sort(byTime);
  const resolved = resolvedStates(next);
  const at = next.indexOf(incoming);
  const state = resolved[at];
  // A correction is told against the state it corrects; a new state against the one before it.
  const before = held ? (resolvedStates(history)[history.indexOf(held)] ?? null) : (resolved[at - 1] ?? null);
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
  for (const state of resolvedStates(history)) {
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
 * The former names a history shows: every name of its states (folded as a buyer reads them) but
 * the current one, each with the change date of the state that last replaced it, in the order
 * they ended. Names held from before the history began (a corporation stored before histories
 * were kept: ended on or before its first state) are kept first, as stored.
 */
function formerNamesOf(
  entries: readonly HistoryEntry[],
  current: string,
  stored: readonly FormerName[],
): FormerName[] {
  const ended = new Map<string, FormerName>();
  entries.forEach(({ state }, i) => {
    if (!state.name || state.name === current) return;
    const replaced = entries.slice(i + 1).find((e) => e.state.name !== state.name);
    ended.delete(state.name);
    ended.set(state.name, {
      name: state.name,
      furigana: state.furigana,
      until: replaced?.state.change_date ?? '',
    });
  });
  const starts = entries[0]?.state.change_date ?? '';
  const earlier = stored.filter(
    (f) => f.name !== current && !ended.has(f.name) && (f.until === '' || f.until <= starts),
  );
  return [
    ...earlier.map((f) => ({ ...f })),
    ...[...ended.values()].sort((a, b) => a.until.localeCompare(b.until)),
  ];
}

/**
 * The corporation a history makes: the fields of its current (last) state, its former names from
 * its states; what no state carries (the number, the designation date, the search exclusion) from
 * `base`, the corporation its newest record made. Any order of the same records gives the same
 * history, so the same corporation.
 */
export function corporationOfHistory(
  base: Corporation,
  history: readonly CorporationState[],
  storedFormerNames: readonly FormerName[],
): Corporation {
  const states = resolvedStates(history);
  const s = states.at(-1);
  if (!s) return base;
  return {
    ...withStateFields(base, s),
    former_names: formerNamesOf(historyEntries(states), s.name, storedFormerNames),
  };
}

/** The corporation with the fields one state carries; the rest (number, dates, names) as given. */
export function withStateFields(c: Corporation, s: CorporationState): Corporation {
  return {
    ...c,
    name: s.name,
    furigana: s.furigana,
    en_name: s.en_name,
    kind: s.kind,
    address: { ...s.address },
    status: s.status,
    close_date: s.close_date,
    close_cause: s.close_cause,
    successor_corporate_number: s.successor_corporate_number,
    process: s.process,
    correct: s.correct,
    change_date: s.change_date,
    change_cause: s.change_cause,
    update_date: s.update_date,
  };
}
