/**
 * What a domain gives the watch kernel: the subjects a buyer may watch (validated by the
 * domain's own rule) and a feed of changes to them, read by a cursor. The kernel knows nothing of
 * what a subject is (a corporate number, a grant id): it folds duplicates, stores, matches and
 * delivers.
 */
import type { PluginStore } from './storage';

/** One change of one subject, as the domain's change feed holds it. */
export interface WatchChange {
  /** The subject that changed (as validateSubject returned it). */
  subject: string;
  /** Stable id of the change: a change relayed twice makes one event per watch. */
  id: string;
  /** The feed's cursor: strictly increasing. */
  seq: number;
  /** When the change was recorded: a watch gets events of changes recorded after it was made. */
  at: Date;
  /** The event's `data`, as delivered. */
  data: Record<string, unknown>;
}

export type SubjectCheck = { ok: true; subject: string } | { ok: false; problem: string; accepted: string };

export interface WatchSource {
  /** The feed's name: the relay keeps one cursor per name. */
  readonly name: string;
  /** The body field of POST /keys/watches holding the subjects, e.g. `ids`. */
  readonly subjectsField: string;
  /** What one subject is, for the API description (e.g. "a 13-digit corporate number"). */
  readonly subjectText: string;
  /** A valid subject, for examples and hints. */
  readonly exampleSubject: string;
  /** The `type` of every event, e.g. `thing.changed`. */
  readonly eventType: string;
  /** Price of one delivered event (micro-USDC), debited from the key's credit. */
  readonly priceMicroUsdc: number;
  /** The subject in its stored form, or why it is not one. */
  validateSubject(value: unknown): SubjectCheck;
  /** The changes with seq above `afterSeq`, oldest first, at most `limit`. */
  changesSince(afterSeq: number, limit: number): Promise<WatchChange[]>;
}

/**
 * The domain's source, registered in the container under this token as a function of the store
 * (the source reads the domain's own repository): unset, the gateway offers no watches.
 */
export const WATCH_SOURCE = Symbol.for('jp-gateway:watch-source');
export type WatchSourceFactory = (store: PluginStore) => Promise<WatchSource>;
