/**
 * How a corporation's history appears in answers: its states oldest first with what changed
 * (the company-history endpoint), and the state in force on a date (`as_of` on the number look-ups).
 * A source that holds no history (the snapshot, the live Web-API, a corporation imported before
 * histories were kept) answers its current record as the one state held, and says so.
 */
import { processLabel, type CodeLabel, type Corporation } from '../corporation';
import type { ChangeField, CorporationState } from '../corporation-change';
import { historyEntries, stateAsOf, stateOfCorporation, withStateFields } from '../corporation-history';
import { corporationView, type CorporationView } from './views';
import { NotFoundError } from '../../../core/plugins/errors';

/** The states held of one corporation, and whether they were recorded from the files. */
export interface HeldHistory {
  states: CorporationState[];
  /** False: no state was recorded here; the current record stands for the only one known. */
  recorded: boolean;
  /**
   * The date up to which the register answering is known (YYYY-MM-DD): the newest update date of
   * the files imported, or the snapshot's date; null for the live register (known to the moment).
   */
  known_until: string | null;
}

export function heldHistory(
  corporation: Corporation,
  states: CorporationState[] | undefined,
  knownUntil: string | null,
): HeldHistory {
  return states && states.length > 0
    ? { states, recorded: true, known_until: knownUntil }
    : { states: [stateOfCorporation(corporation)], recorded: false, known_until: knownUntil };
}

/** The corporation as a state shows it: the current record with the state's fields. */
export function corporationInState(c: Corporation, s: CorporationState): Corporation {
  return {
    ...withStateFields(c, s),
    // The names it had given up by then.
    former_names: c.former_names.filter((f) => f.until !== '' && f.until <= s.change_date),
  };
}

/** The date the history held starts: the change date of its first state. */
export function historyStart(held: HeldHistory): string {
  return historyEntries(held.states)[0]?.state.change_date ?? '';
}

/** The sentence an answer carries about how much history is held. */
export function historyNote(held: HeldHistory): string {
  const start = historyStart(held);
  return held.recorded
    ? `History held here starts at ${start}: the states the imported NTA files recorded, each from its change date; earlier states are not held.`
    : `Earlier history is not held here: only the current record (in force since ${start}) is, as the source answering holds no states over time.`;
}

export interface StateAsOfView {
  /** The date asked for (the as_of parameter). */
  date: string;
  /** The change date of the state answered: in force from that day to the date asked for. */
  in_force_since: string;
  history_starts: string;
  history_recorded: boolean;
  /** Up to which date the register answering is known (HeldHistory.known_until). */
  register_known_until: string | null;
  /** The date asked for is after register_known_until: the state answered is the last known. */
  beyond_register: boolean;
  /** Said when beyond_register: what the answer can and cannot tell. */
  note: string | null;
}

/**
 * The corporation as of a date, or a 404 history_not_held (nothing charged) when the history held
 * starts after it: the fields history_starts and history_recorded say how much is held.
 */
export function corporationAsOf(
  corporation: Corporation,
  held: HeldHistory,
  date: string,
  source: string,
): { corporation: Corporation; state_as_of: StateAsOfView } {
  const found = stateAsOf(held.states, date);
  const history_starts = historyStart(held);
  if (!found.held) {
    throw new NotFoundError(
      'history_not_held',
      `The history of ${corporation.corporate_number} held here starts at ${history_starts}, after ${date}: no state as of that date is held.`,
      `Ask for a date on or after ${history_starts}, or without as_of for the current record.`,
      {
        corporate_number: corporation.corporate_number,
        as_of: date,
        history_starts,
        history_recorded: held.recorded,
        _source: source,
      },
    );
  }
  const knownUntil = held.known_until;
  const beyond = knownUntil !== null && date > knownUntil;
  return {
    corporation: corporationInState(corporation, found.entry.state),
    state_as_of: {
      date,
      in_force_since: found.entry.state.change_date,
      history_starts,
      history_recorded: held.recorded,
      register_known_until: knownUntil,
      beyond_register: beyond,
      // Flagged, not refused (docs/decisions.md, "as_of after the register's last file").
      note: beyond
        ? `The register held here is known up to ${knownUntil} (the newest file imported): this is the state in force then. A change on or before ${date} published in a later file is not known here.`
        : null,
    },
  };
}

/** One state of the history as answered: the corporation then, what made it and what changed. */
export interface StateView {
  change_date: string;
  update_date: string | null;
  process: CodeLabel | null;
  correction: boolean;
  changed: ChangeField[];
  corporation: CorporationView;
}

export function statesView(corporation: Corporation, held: HeldHistory, source: string): StateView[] {
  return historyEntries(held.states).map(({ state, changed }) => ({
    change_date: state.change_date,
    update_date: state.update_date || null,
    process: processLabel(state.process),
    correction: state.correct === '1',
    changed,
    corporation: corporationView(corporationInState(corporation, state), source),
  }));
}
