/**
 * A corporation's history as the stores keep it (corporation-history.ts has the states). Most
 * corporations have one state, the one their current record states: it is stored as '' and read
 * back from the corporation, never copied (a copy of every corporation made the Tottori store
 * 3.3 times larger). Other histories are JSON arrays of each state's values in a fixed order,
 * without field names, like the corporation (corporation-row.ts). Histories stored as arrays of
 * objects before this format are still read.
 */
import type { Corporation } from '../corporation';
import type { CorporationState } from '../corporation-change';
import { stateOfCorporation } from '../corporation-history';
import { packAddress, unpackAddress, type PackedAddress } from './address-row';

/** The first element of a packed history: the layout below. */
const LAYOUT = 1;

type PackedState = [
  string, // change_date
  string, // update_date
  string, // process
  string, // correct
  string, // name
  string, // furigana
  string, // en_name
  string, // kind
  PackedAddress,
  CorporationState['status'],
  string, // close_date
  string, // close_cause
  string, // successor_corporate_number
  string, // change_cause
];

function packState(s: CorporationState): PackedState {
  return [
    s.change_date,
    s.update_date,
    s.process,
    s.correct,
    s.name,
    s.furigana,
    s.en_name,
    s.kind,
    packAddress(s.address),
    s.status,
    s.close_date,
    s.close_cause,
    s.successor_corporate_number,
    s.change_cause,
  ];
}

function unpackState(p: PackedState): CorporationState {
  const [change_date, update_date, process, correct, name, furigana, en_name, kind, a, status] = p;
  const [, , , , , , , , , , close_date, close_cause, successor_corporate_number, change_cause] = p;
  return {
    change_date,
    update_date,
    process,
    correct,
    name,
    furigana,
    en_name,
    kind,
    address: unpackAddress(a),
    status,
    close_date,
    close_cause,
    successor_corporate_number,
    change_cause,
  };
}

const sameState = (a: CorporationState, b: CorporationState): boolean =>
  JSON.stringify(packState(a)) === JSON.stringify(packState(b));

/** The history of `current` as stored: '' when it is the one state its current record states. */
export function packHistory(current: Corporation, states: readonly CorporationState[]): string {
  if (states.length === 1 && sameState(states[0], stateOfCorporation(current))) return '';
  return JSON.stringify([LAYOUT, ...states.map(packState)]);
}

/** The states of a stored history (oldest first), `current` being the corporation stored with it. */
export function unpackHistory(current: Corporation, stored: string | CorporationState[]): CorporationState[] {
  if (Array.isArray(stored)) return stored;
  if (stored === '') return [stateOfCorporation(current)];
  const value = JSON.parse(stored) as [typeof LAYOUT, ...PackedState[]] | CorporationState[];
  if (value.length === 0 || typeof value[0] === 'object') return value as CorporationState[];
  if (value[0] !== LAYOUT) throw new Error(`unknown history row layout ${String(value[0])}`);
  return (value.slice(1) as PackedState[]).map(unpackState);
}
