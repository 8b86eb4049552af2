/**
 * Watches, their events (the outbox of deliveries) and the relay's cursor, as a repository with
 * one implementation per store (core/store/sqlite/watches.ts, core/store/mongo/watches.ts), held
 * to one contract (test/core/watches/watch-repository-contract.ts).
 */
export interface NewWatch {
  id: string;
  keyId: string;
  url: string;
  /** The signing secret (`whsec_...`), kept as issued: deliveries sign with it. */
  secret: string;
  subjects: readonly string[];
  createdAt: Date;
}

export type WatchRecord = NewWatch;

export type EventStatus = 'pending' | 'sending' | 'delivered' | 'failed' | 'cancelled';

export interface NewEvent {
  /** Stable per (watch, change): the webhook-id. */
  id: string;
  watchId: string;
  keyId: string;
  subject: string;
  changeId: string;
  /** The JSON body delivered, fixed once: every attempt sends the same bytes. */
  body: string;
  createdAt: Date;
}

export interface EventRecord extends NewEvent {
  status: EventStatus;
  /** Delivery attempts made (a wait for credit is not one). */
  attempts: number;
  nextAttemptAt: Date | null;
  firstAttemptAt: Date | null;
  lastError: string | null;
  /** HTTP status of the last attempt, when the receiver answered. */
  lastStatus: number | null;
  deliveredAt: Date | null;
}

/** An event claimed for delivery, with where and how to deliver it. */
export interface ClaimedEvent extends EventRecord {
  claim: string;
  /** The credit hold this claim takes (recorded before it is taken). */
  holdId: string;
  /** The hold of an earlier claim that did not finish (a stopped process), to settle first. */
  previousHoldId: string | null;
  /** null when the watch was removed meanwhile. */
  watch: Pick<WatchRecord, 'url' | 'secret'> | null;
}

/** How a claimed delivery ended. */
export type Outcome =
  | { status: 'delivered'; at: Date; attempted: boolean; httpStatus: number | null }
  | {
      status: 'pending';
      nextAttemptAt: Date;
      attempted: boolean;
      at: Date;
      error: string;
      httpStatus: number | null;
    }
  | { status: 'failed'; at: Date; error: string; httpStatus: number | null }
  | { status: 'cancelled'; at: Date; error: string };

/** A page position in a key's event list: events are listed newest first, by (createdAt, id). */
export interface EventPosition {
  createdAt: Date;
  id: string;
}

export interface WatchRepository {
  createWatch(watch: NewWatch): Promise<void>;
  countWatches(keyId: string): Promise<number>;
  /** The key's watches, oldest first. */
  listWatches(keyId: string): Promise<WatchRecord[]>;
  /** Removes the key's watch and cancels its undelivered events; false when the key has no such watch. */
  deleteWatch(keyId: string, watchId: string): Promise<boolean>;
  /** The watches of any of these subjects: which subject, and when the watch was made. */
  watchersOf(
    subjects: readonly string[],
  ): Promise<Array<{ watchId: string; keyId: string; subject: string; createdAt: Date }>>;
  /** Where the relay of a feed stands (0 before its first change). */
  cursor(source: string): Promise<number>;
  /**
   * Records events (one already recorded is left as it is) and moves the feed's cursor to `seq`
   * (never back). Events are pending, due at once.
   */
  recordEvents(source: string, events: readonly NewEvent[], seq: number): Promise<void>;
  /**
   * Claims up to `limit` events due at `now`: pending ones whose next attempt has come, and
   * sending ones whose lease ran out (a process stopped mid-delivery). Each claim leases the
   * event until `leaseUntil` and records the hold id it will take.
   */
  claimDue(now: Date, leaseUntil: Date, limit: number): Promise<ClaimedEvent[]>;
  /** Ends a claim; false when the claim was lost (the lease ran out and another took it). */
  finish(eventId: string, claim: string, outcome: Outcome): Promise<boolean>;
  /** The key's events, newest first, after `after` (a previous page's last). */
  listEvents(keyId: string, limit: number, after?: EventPosition): Promise<EventRecord[]>;
  getEvent(eventId: string): Promise<EventRecord | null>;
}
