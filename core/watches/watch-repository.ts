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
  | { status: 'failed'; at: Date; attempted: boolean; error: string; httpStatus: number | null }
  | { status: 'cancelled'; at: Date; error: string };

/** A page position in a key's event list: events are listed newest first, by (createdAt, id). */
export interface EventPosition {
  createdAt: Date;
  id: string;
}

/** An event the relay did not record: its key held as many waiting events as it may. */
export interface DroppedEvent {
  keyId: string;
  /** The feed position of the change it was for (a batch relayed again counts it once). */
  seq: number;
}

/** One batch of the change feed, as the relay decided it. */
export interface RelayBatch {
  source: string;
  /** The cursor the batch was read after. */
  afterSeq: number;
  /** The cursor after the batch. */
  seq: number;
  /** The events to record, each key within its room. */
  events: readonly NewEvent[];
  dropped: readonly DroppedEvent[];
  at: Date;
}

/** What a key is told of its events beyond the list: how many wait, and how many were lost. */
export interface KeyEventCounts {
  /** Events pending or being sent. */
  waiting: number;
  /** Events that reached `failed`: not delivered within their 72 hours. */
  expired: number;
  /** Events never recorded because the key's waiting events were at the cap. */
  dropped: number;
  lastDroppedAt: Date | null;
}

/** How the worker ends events whose time ran out before they could be claimed. */
export interface Expiry {
  /** Pending events recorded before this are failed, not claimed. */
  recordedBefore: Date;
  /** Added to their last_error. */
  error: string;
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
  /** Each key's waiting events (pending or sending). */
  waitingCounts(keyIds: readonly string[]): Promise<Map<string, number>>;
  /**
   * Records a batch: its events (one already recorded is left as it is; new ones are pending,
   * due at once), each key's dropped events (counted once per change however often the batch is
   * relayed), and moves the feed's cursor to `seq` (never back). False when another relay moved
   * the cursor past `afterSeq` first and nothing was recorded (the caller reads the feed again).
   */
  recordEvents(batch: RelayBatch): Promise<boolean>;
  /**
   * Keys with events to claim at `now` (pending ones due, sending ones whose lease ran out), by
   * key id. Every such key is named; one may be named early (a claim then takes nothing).
   */
  dueKeys(now: Date): Promise<string[]>;
  /**
   * For one key: fails its pending events recorded before `expiry.recordedBefore` (counted as
   * expired), then claims up to `limit` of its events due at `now`, sending ones whose lease ran
   * out (a process stopped mid-delivery) first, then the oldest. Each claim leases the event
   * until `leaseUntil` and records the hold id it will take.
   */
  claimDue(
    keyId: string,
    now: Date,
    leaseUntil: Date,
    limit: number,
    expiry: Expiry,
  ): Promise<{ claimed: ClaimedEvent[]; expired: number }>;
  /**
   * Ends a claim (a `failed` outcome counts as expired); false when the claim was lost (the
   * lease ran out and another took it).
   */
  finish(event: Pick<ClaimedEvent, 'id' | 'keyId' | 'claim'>, outcome: Outcome): Promise<boolean>;
  /** The key's events, newest first, after `after` (a previous page's last). */
  listEvents(keyId: string, limit: number, after?: EventPosition): Promise<EventRecord[]>;
  getEvent(eventId: string): Promise<EventRecord | null>;
  keyCounts(keyId: string): Promise<KeyEventCounts>;
  /** Removes failed and cancelled events recorded before `before`; how many. */
  pruneEnded(before: Date): Promise<number>;
}
