/**
 * A change of the feed as the stores keep it: which states it is between, by their keys (change
 * date and process code), not copies of them (two copies of a whole state per change made the
 * Tottori store 3.3 times larger). The states are read from the corporation's history when the
 * feed is read, as the history holds them then (a state corrected since reads corrected). A
 * correction's `before` is the state it replaced, which the history no longer holds: that one
 * state is kept with the change.
 */
import type { Corporation } from '../corporation';
import type {
  ChangeField,
  CorporationChange,
  CorporationState,
  NewCorporationChange,
} from '../corporation-change';
import { resolvedStates, stateOfCorporation } from '../corporation-history';

export interface ChangeRow {
  id: string;
  corporate_number: string;
  change_date: string;
  process: string;
  changed: ChangeField[];
  /** The key of the state before ("change date/process"), null for a corporation's first. */
  before_key: string | null;
  /** The state before, only when the history no longer holds it (a correction). */
  before_state: CorporationState | null;
  source_file: string;
}

const keyOf = (s: Pick<CorporationState, 'change_date' | 'process'>): string =>
  `${s.change_date}/${s.process}`;

export function changeRowOf(change: NewCorporationChange): ChangeRow {
  const { before, after, ...rest } = change;
  const replaced = before !== null && keyOf(before) === keyOf(after);
  return {
    ...rest,
    before_key: before ? keyOf(before) : null,
    before_state: replaced ? before : null,
  };
}

/**
 * The change with its states, read from the history held of its corporation (`history` as stored,
 * `current` the corporation: null when neither is held any more, then the states are null too).
 */
export function changeOfRow(
  row: ChangeRow & { seq: number; recorded_at: string },
  current: Corporation | null,
  history: readonly CorporationState[] | null,
): CorporationChange {
  const { before_key, before_state, ...rest } = row;
  const states = resolvedStates(history ?? (current ? [stateOfCorporation(current)] : []));
  const find = (key: string) => states.find((s) => keyOf(s) === key) ?? null;
  // A state no longer held (a store built again from other files) reads as the current one.
  const after = find(keyOf(row)) ?? states.at(-1) ?? null;
  return {
    ...rest,
    before: before_state ?? (before_key ? find(before_key) : null),
    after: after as CorporationState,
  };
}
