/**
 * Watches, their events and the relay's cursors in MongoDB, without transactions: a watch is one
 * document holding its subjects, and each (subject, watch) one document of `watch_subjects`
 * (indexed by subject; FerretDB over PostgreSQL cannot index an array of 1,000 numbers as one
 * multikey entry). The subject documents are written before the watch and removed after it, so a
 * process stopped in between leaves only subject documents of no watch, which are ignored. An event is
 * one document whose _id is its webhook-id, so the relay's insert of an event already recorded
 * is refused as a duplicate and changes nothing, and the cursor moves after the events with
 * `$max` (a relay that stops in between relays the batch again, to the same events). A claim is
 * one conditional update of one event.
 *
 * Each key with events has a document of `watch_keys`: its counts (dropped, expired), the feed
 * position through which its drops are counted (so a batch relayed again counts them once), and
 * `wake_at`, never later than the first moment one of its waiting events needs the worker. The
 * worker finds due keys by the equality `active: true` and reads one key's waiting events by the
 * equalities `key_id` and `status`: the only conditions FerretDB 1.x hands to PostgreSQL, so what
 * it filters and sorts itself is one key's waiting events, at most the key's cap
 * (docs/storage-mongodb.md). `wake_at` is lowered (`$min`) by whoever adds or reschedules an
 * event, with `rev` raised; the worker raises it after a look only if `rev` is unchanged, so an
 * event added meanwhile is never left asleep. The counts are raised after the events' own
 * update: a process stopped in between leaves one count short.
 */
import type { Collection, Filter, IndexDescription } from 'mongodb';
import { randomId } from '../../util/ids';
import type {
  ClaimedEvent,
  EventPosition,
  EventRecord,
  EventStatus,
  Expiry,
  KeyEventCounts,
  NewWatch,
  Outcome,
  RelayBatch,
  WatchRecord,
  WatchRepository,
} from '../../watches/watch-repository';
import type { MongoContext } from '../gateway-store';
import { duplicatesOf, isDuplicateKey } from './common';

interface WatchDoc {
  _id: string;
  key_id: string;
  url: string;
  secret: string;
  subjects: string[];
  created_at: Date;
}

/** first_attempt_at is absent until the first attempt, so `$min` sets it once. */
interface EventDoc {
  _id: string;
  watch_id: string;
  key_id: string;
  subject: string;
  change_id: string;
  body: string;
  created_at: Date;
  status: EventStatus;
  attempts: number;
  next_attempt_at: Date | null;
  first_attempt_at?: Date;
  last_error: string | null;
  last_status: number | null;
  delivered_at: Date | null;
  claim: string | null;
  lease_until: Date | null;
  hold_id: string | null;
}

interface SubjectDoc {
  _id: string;
  subject: string;
  watch_id: string;
}

interface CursorDoc {
  _id: string;
  seq: number;
}

interface KeyDoc {
  _id: string;
  rev: number;
  /** The key may have waiting events (false only after a look found none). */
  active: boolean;
  wake_at: Date;
  dropped: number;
  expired: number;
  last_dropped_at: Date | null;
  /** Per feed: the position through which this key's dropped events are counted. */
  relayed: Record<string, number>;
}

export const WATCHES_COLLECTION = 'watches';
export const WATCH_SUBJECTS_COLLECTION = 'watch_subjects';
export const WATCH_EVENTS_COLLECTION = 'watch_events';
export const RELAY_CURSORS_COLLECTION = 'relay_cursors';
export const WATCH_KEYS_COLLECTION = 'watch_keys';

export const WATCH_INDEXES: Record<string, IndexDescription[]> = {
  [WATCHES_COLLECTION]: [{ name: 'watches_key', key: { key_id: 1, created_at: 1 } }],
  [WATCH_SUBJECTS_COLLECTION]: [
    { name: 'watch_subjects_subject', key: { subject: 1 } },
    { name: 'watch_subjects_watch', key: { watch_id: 1 } },
  ],
  [WATCH_EVENTS_COLLECTION]: [
    { name: 'watch_events_key', key: { key_id: 1, created_at: -1, _id: -1 } },
    { name: 'watch_events_watch', key: { watch_id: 1, status: 1 } },
    { name: 'watch_events_waiting', key: { key_id: 1, status: 1, created_at: 1 } },
    { name: 'watch_events_ended', key: { status: 1, created_at: 1 } },
  ],
  [WATCH_KEYS_COLLECTION]: [{ name: 'watch_keys_active', key: { active: 1 } }],
};

/** Reads or writes by _id in flight at once. */
const POINT_OPS = 100;

/** The fields a look at a key's waiting events needs (FerretDB projects after filtering). */
const LOOK = { _id: 1, status: 1, created_at: 1, next_attempt_at: 1, lease_until: 1, last_error: 1 } as const;
type Look = Pick<EventDoc, keyof typeof LOOK>;

const byAge = (a: Look, b: Look) =>
  a.created_at.getTime() - b.created_at.getTime() || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0);

function toEvent(d: EventDoc): EventRecord {
  return {
    id: d._id,
    watchId: d.watch_id,
    keyId: d.key_id,
    subject: d.subject,
    changeId: d.change_id,
    body: d.body,
    createdAt: d.created_at,
    status: d.status,
    attempts: d.attempts,
    nextAttemptAt: d.next_attempt_at,
    firstAttemptAt: d.first_attempt_at ?? null,
    lastError: d.last_error,
    lastStatus: d.last_status,
    deliveredAt: d.delivered_at,
  };
}

/** The wake of a key with nothing waiting: a date, since `$min` would keep a null. */
const NEVER = new Date(8.64e15);

export class MongoWatches implements WatchRepository {
  private constructor(
    private readonly watches: Collection<WatchDoc>,
    private readonly subjects: Collection<SubjectDoc>,
    private readonly events: Collection<EventDoc>,
    private readonly cursors: Collection<CursorDoc>,
    private readonly keys: Collection<KeyDoc>,
    private readonly maxTimeMS: number,
  ) {}

  static async open(ctx: MongoContext): Promise<MongoWatches> {
    for (const [collection, indexes] of Object.entries(WATCH_INDEXES))
      await ctx.ensureIndexes(collection, indexes);
    const repo = new MongoWatches(
      ctx.db.collection<WatchDoc>(WATCHES_COLLECTION),
      ctx.db.collection<SubjectDoc>(WATCH_SUBJECTS_COLLECTION),
      ctx.db.collection<EventDoc>(WATCH_EVENTS_COLLECTION),
      ctx.db.collection<CursorDoc>(RELAY_CURSORS_COLLECTION),
      ctx.db.collection<KeyDoc>(WATCH_KEYS_COLLECTION),
      ctx.maxTimeMS,
    );
    await repo.wakeWaitingKeys();
    return repo;
  }

  /**
   * At boot, every key with waiting events is looked at once: events recorded before keys had
   * documents (an earlier version) are found, and nothing depends on a wake a stopped process
   * meant to lower. Unbounded, like the other maintenance: no buyer waits for it.
   */
  private async wakeWaitingKeys(): Promise<void> {
    const found = await Promise.all(
      (['pending', 'sending'] as const).map((status) =>
        this.events.find({ status }, { projection: { key_id: 1 } }).toArray(),
      ),
    );
    const keys = [...new Set(found.flat().map((d) => d.key_id))];
    await pointOps(keys, (key) => this.wake(key, new Date(0)));
  }

  /** Lowers the key's wake to `at` at most, marking it active (its document made if missing). */
  private async wake(key: string, at: Date): Promise<void> {
    await this.keys.updateOne(
      { _id: key },
      {
        $min: { wake_at: at },
        $set: { active: true },
        $inc: { rev: 1 },
        $setOnInsert: { dropped: 0, expired: 0, last_dropped_at: null, relayed: {} },
      },
      { upsert: true },
    );
  }

  private get opts() {
    return { maxTimeMS: this.maxTimeMS };
  }

  async createWatch(w: NewWatch): Promise<void> {
    const rows = [...new Set(w.subjects)].map((subject) => ({
      _id: `${w.id}\n${subject}`,
      subject,
      watch_id: w.id,
    }));
    try {
      await this.subjects.insertMany(rows, { ordered: false });
    } catch (err) {
      duplicatesOf(err, rows); // written by an earlier try of the same watch
    }
    await this.watches.insertOne({
      _id: w.id,
      key_id: w.keyId,
      url: w.url,
      secret: w.secret,
      subjects: [...new Set(w.subjects)],
      created_at: w.createdAt,
    });
  }

  countWatches(keyId: string): Promise<number> {
    return this.watches.countDocuments({ key_id: keyId }, this.opts);
  }

  async listWatches(keyId: string): Promise<WatchRecord[]> {
    const docs = await this.watches
      .find({ key_id: keyId }, this.opts)
      .sort({ created_at: 1, _id: 1 })
      .toArray();
    return docs.map((d) => ({
      id: d._id,
      keyId: d.key_id,
      url: d.url,
      secret: d.secret,
      createdAt: d.created_at,
      subjects: [...d.subjects].sort(),
    }));
  }

  async deleteWatch(keyId: string, watchId: string): Promise<boolean> {
    const r = await this.watches.deleteOne({ _id: watchId, key_id: keyId });
    if (r.deletedCount !== 1) return false;
    await this.subjects.deleteMany({ watch_id: watchId });
    // An event being sent right now finishes as its delivery does; a later claim cancels it.
    await this.events.updateMany(
      { watch_id: watchId, status: 'pending' },
      { $set: { status: 'cancelled', last_error: 'the watch was removed', next_attempt_at: null } },
    );
    return true;
  }

  async watchersOf(subjects: readonly string[]) {
    if (subjects.length === 0) return [];
    const rows = await this.subjects.find({ subject: { $in: [...subjects] } }).toArray();
    if (rows.length === 0) return [];
    const ids = [...new Set(rows.map((r) => r.watch_id))];
    const watches = new Map(
      (
        await this.watches.find({ _id: { $in: ids } }, { projection: { key_id: 1, created_at: 1 } }).toArray()
      ).map((d) => [d._id, d]),
    );
    return rows.flatMap((r) => {
      const w = watches.get(r.watch_id);
      return w ? [{ watchId: r.watch_id, keyId: w.key_id, subject: r.subject, createdAt: w.created_at }] : [];
    });
  }

  async cursor(source: string): Promise<number> {
    return (await this.cursors.findOne({ _id: source }))?.seq ?? 0;
  }

  async waitingCounts(keyIds: readonly string[]): Promise<Map<string, number>> {
    const counts = await pointOps(keyIds, (key) => this.waitingOf(key));
    return new Map(keyIds.map((k, i) => [k, counts[i]]));
  }

  /** By the equalities key_id and status (an $in of statuses would be filtered in Go over the key's history). */
  private async waitingOf(key: string): Promise<number> {
    const options = { projection: { _id: 1 }, maxTimeMS: this.maxTimeMS };
    const found = await Promise.all(
      (['pending', 'sending'] as const).map((status) =>
        this.events.find({ key_id: key, status }, options).toArray(),
      ),
    );
    return found[0].length + found[1].length;
  }

  async recordEvents(b: RelayBatch): Promise<boolean> {
    // Not a guarantee (no transaction), but a batch another relay already recorded is not redone.
    if ((await this.cursor(b.source)) !== b.afterSeq) return false;
    const docs: EventDoc[] = b.events.map((e) => ({
      _id: e.id,
      watch_id: e.watchId,
      key_id: e.keyId,
      subject: e.subject,
      change_id: e.changeId,
      body: e.body,
      created_at: e.createdAt,
      status: 'pending',
      attempts: 0,
      next_attempt_at: e.createdAt,
      last_error: null,
      last_status: null,
      delivered_at: null,
      claim: null,
      lease_until: null,
      hold_id: null,
    }));
    if (docs.length > 0) {
      try {
        await this.events.insertMany(docs, { ordered: false });
      } catch (err) {
        duplicatesOf(err, docs); // recorded before: the same events
      }
    }
    const keys = new Set([...b.events.map((e) => e.keyId), ...b.dropped.map((d) => d.keyId)]);
    await pointOps([...keys], (key) => this.noteRelayed(key, b));
    await this.cursors.updateOne({ _id: b.source }, { $max: { seq: b.seq } }, { upsert: true });
    return true;
  }

  /**
   * After the key's events of a batch are in: counts its drops of changes past the position its
   * document has counted through, moves that position, and wakes the key when it got events. On
   * condition of the document's revision, so two relays of one batch count each drop once.
   */
  private async noteRelayed(key: string, b: RelayBatch): Promise<void> {
    const got = b.events.some((e) => e.keyId === key);
    for (;;) {
      const doc = await this.keys.findOne({ _id: key });
      const through = doc?.relayed?.[b.source] ?? 0;
      const drops = b.dropped.filter((d) => d.keyId === key && d.seq > through).length;
      const relayed = { ...(doc?.relayed ?? {}), [b.source]: Math.max(through, b.seq) };
      if (!doc) {
        try {
          await this.keys.insertOne({
            _id: key,
            rev: 1,
            active: got,
            wake_at: got ? b.at : NEVER,
            dropped: drops,
            expired: 0,
            last_dropped_at: drops > 0 ? b.at : null,
            relayed,
          });
          return;
        } catch (err) {
          if (!isDuplicateKey(err)) throw err;
          continue; // made meanwhile: read it
        }
      }
      const r = await this.keys.updateOne(
        { _id: key, rev: doc.rev },
        {
          $set: {
            relayed,
            ...(got ? { active: true } : {}),
            ...(drops > 0 ? { last_dropped_at: b.at } : {}),
          },
          $inc: { rev: 1, dropped: drops },
          ...(got ? { $min: { wake_at: b.at } } : {}),
        },
      );
      if (r.matchedCount === 1) return;
    }
  }

  async dueKeys(now: Date): Promise<string[]> {
    const active = await this.keys.find({ active: true }, { projection: { _id: 1, wake_at: 1 } }).toArray();
    return active
      .filter((k) => k.wake_at <= now)
      .map((k) => k._id)
      .sort();
  }

  async claimDue(key: string, now: Date, leaseUntil: Date, limit: number, expiry: Expiry) {
    const state = await this.keys.findOne({ _id: key }, { projection: { rev: 1 } });
    const [pending, sending] = await Promise.all(
      (['pending', 'sending'] as const).map((status) =>
        this.events.find({ key_id: key, status }, { projection: LOOK }).toArray(),
      ),
    );
    const old = pending.filter((e) => e.created_at < expiry.recordedBefore);
    const expired = (
      await pointOps(old, async (e) => {
        const r = await this.events.updateOne(
          { _id: e._id, status: 'pending' },
          {
            $set: {
              status: 'failed',
              next_attempt_at: null,
              last_error: e.last_error ? `${e.last_error}; ${expiry.error}` : expiry.error,
            },
          },
        );
        return r.modifiedCount;
      })
    ).reduce((a, n) => a + n, 0);
    if (expired > 0) await this.keys.updateOne({ _id: key }, { $inc: { expired } });

    const live = pending.filter((e) => e.created_at >= expiry.recordedBefore);
    const leasedOut = sending.filter((e) => e.lease_until !== null && e.lease_until <= now);
    const candidates = [
      ...leasedOut.sort(byAge),
      ...live.filter((e) => e.next_attempt_at !== null && e.next_attempt_at <= now).sort(byAge),
    ];
    const claimed: ClaimedEvent[] = [];
    let missed = false;
    let i = 0;
    for (; i < candidates.length && claimed.length < limit; i++) {
      const c = candidates[i];
      const event = await this.claimOne(
        c.status === 'sending'
          ? { status: 'sending', lease_until: { $lte: now } }
          : { status: 'pending', next_attempt_at: { $lte: now } },
        c._id,
        leaseUntil,
      );
      if (event) claimed.push(event);
      else missed = true; // another process took it: its lease is not known here
    }
    if (state) {
      // Due events left (or taken by another process): the key stays due. Otherwise it wakes for
      // the next retry or lease end, or sleeps until an event is added.
      const later = [
        ...live.flatMap((e) => (e.next_attempt_at && e.next_attempt_at > now ? [e.next_attempt_at] : [])),
        ...sending.flatMap((e) => (e.lease_until && e.lease_until > now ? [e.lease_until] : [])),
        ...(claimed.length > 0 ? [leaseUntil] : []),
      ];
      const wake =
        missed || i < candidates.length
          ? now
          : new Date(Math.min(NEVER.getTime(), ...later.map((d) => d.getTime())));
      await this.keys.updateOne(
        { _id: key, rev: state.rev },
        { $set: { wake_at: wake, active: wake.getTime() < NEVER.getTime() } },
      );
    }
    return { claimed, expired };
  }

  private async claimOne(
    filter: Filter<EventDoc>,
    _id: string,
    leaseUntil: Date,
  ): Promise<ClaimedEvent | null> {
    const claim = randomId('claim');
    const holdId = randomId('whold');
    const before = await this.events.findOneAndUpdate(
      { ...filter, _id },
      { $set: { status: 'sending', claim, lease_until: leaseUntil, hold_id: holdId } },
      { returnDocument: 'before' },
    );
    if (!before) return null; // another process claimed it first
    const watch = await this.watches.findOne({ _id: before.watch_id }, { projection: { url: 1, secret: 1 } });
    return {
      ...toEvent(before),
      claim,
      holdId,
      previousHoldId: before.hold_id,
      watch: watch ? { url: watch.url, secret: watch.secret } : null,
    };
  }

  async finish(e: Pick<ClaimedEvent, 'id' | 'keyId' | 'claim'>, o: Outcome): Promise<boolean> {
    const attempted = o.status !== 'cancelled' && o.attempted;
    const set: Partial<EventDoc> = {
      status: o.status,
      next_attempt_at: o.status === 'pending' ? o.nextAttemptAt : null,
      delivered_at: o.status === 'delivered' ? o.at : null,
      claim: null,
      lease_until: null,
    };
    if (o.status !== 'delivered') set.last_error = o.error;
    if (o.status !== 'cancelled' && o.httpStatus !== null) set.last_status = o.httpStatus;
    const r = await this.events.updateOne(
      { _id: e.id, claim: e.claim, status: 'sending' },
      {
        $set: set,
        $inc: { attempts: attempted ? 1 : 0 },
        ...(attempted ? { $min: { first_attempt_at: o.at } } : {}),
      },
    );
    if (r.modifiedCount !== 1) return false;
    if (o.status === 'pending') await this.wake(e.keyId, o.nextAttemptAt);
    if (o.status === 'failed') await this.keys.updateOne({ _id: e.keyId }, { $inc: { expired: 1 } });
    return true;
  }

  async listEvents(keyId: string, limit: number, after?: EventPosition): Promise<EventRecord[]> {
    const filter: Filter<EventDoc> = after
      ? {
          key_id: keyId,
          $or: [
            { created_at: { $lt: after.createdAt } },
            { created_at: after.createdAt, _id: { $lt: after.id } },
          ],
        }
      : { key_id: keyId };
    const docs = await this.events
      .find(filter, this.opts)
      .sort({ created_at: -1, _id: -1 })
      .limit(limit)
      .toArray();
    return docs.map(toEvent);
  }

  async getEvent(eventId: string): Promise<EventRecord | null> {
    const d = await this.events.findOne({ _id: eventId }, this.opts);
    return d ? toEvent(d) : null;
  }

  async keyCounts(keyId: string): Promise<KeyEventCounts> {
    const [waiting, doc] = await Promise.all([
      this.waitingOf(keyId),
      this.keys.findOne({ _id: keyId }, this.opts),
    ]);
    return {
      waiting,
      expired: doc?.expired ?? 0,
      dropped: doc?.dropped ?? 0,
      lastDroppedAt: doc?.last_dropped_at ?? null,
    };
  }

  async pruneEnded(before: Date): Promise<number> {
    let removed = 0;
    for (const status of ['failed', 'cancelled'] as const)
      removed += (await this.events.deleteMany({ status, created_at: { $lt: before } })).deletedCount;
    return removed;
  }
}

/** `op` over every item, POINT_OPS at a time; the results in order. */
async function pointOps<T, R>(items: readonly T[], op: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += POINT_OPS)
    out.push(...(await Promise.all(items.slice(i, i + POINT_OPS).map(op))));
  return out;
}
