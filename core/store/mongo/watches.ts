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
 */
import type { Collection, Filter, IndexDescription } from 'mongodb';
import { randomId } from '../../util/ids';
import type {
  ClaimedEvent,
  EventPosition,
  EventRecord,
  EventStatus,
  NewEvent,
  NewWatch,
  Outcome,
  WatchRecord,
  WatchRepository,
} from '../../watches/watch-repository';
import type { MongoContext } from '../gateway-store';
import { duplicatesOf } from './common';

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

export const WATCHES_COLLECTION = 'watches';
export const WATCH_SUBJECTS_COLLECTION = 'watch_subjects';
export const WATCH_EVENTS_COLLECTION = 'watch_events';
export const RELAY_CURSORS_COLLECTION = 'relay_cursors';

export const WATCH_INDEXES: Record<string, IndexDescription[]> = {
  [WATCHES_COLLECTION]: [{ name: 'watches_key', key: { key_id: 1, created_at: 1 } }],
  [WATCH_SUBJECTS_COLLECTION]: [
    { name: 'watch_subjects_subject', key: { subject: 1 } },
    { name: 'watch_subjects_watch', key: { watch_id: 1 } },
  ],
  [WATCH_EVENTS_COLLECTION]: [
    { name: 'watch_events_due', key: { status: 1, next_attempt_at: 1 } },
    { name: 'watch_events_leased', key: { status: 1, lease_until: 1 } },
    { name: 'watch_events_key', key: { key_id: 1, created_at: -1, _id: -1 } },
    { name: 'watch_events_watch', key: { watch_id: 1, status: 1 } },
  ],
};

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

export class MongoWatches implements WatchRepository {
  private constructor(
    private readonly watches: Collection<WatchDoc>,
    private readonly subjects: Collection<SubjectDoc>,
    private readonly events: Collection<EventDoc>,
    private readonly cursors: Collection<CursorDoc>,
    private readonly maxTimeMS: number,
  ) {}

  static async open(ctx: MongoContext): Promise<MongoWatches> {
    for (const [collection, indexes] of Object.entries(WATCH_INDEXES))
      await ctx.ensureIndexes(collection, indexes);
    return new MongoWatches(
      ctx.db.collection<WatchDoc>(WATCHES_COLLECTION),
      ctx.db.collection<SubjectDoc>(WATCH_SUBJECTS_COLLECTION),
      ctx.db.collection<EventDoc>(WATCH_EVENTS_COLLECTION),
      ctx.db.collection<CursorDoc>(RELAY_CURSORS_COLLECTION),
      ctx.maxTimeMS,
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

  async recordEvents(source: string, events: readonly NewEvent[], seq: number): Promise<void> {
    const docs: EventDoc[] = events.map((e) => ({
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
    await this.cursors.updateOne({ _id: source }, { $max: { seq } }, { upsert: true });
  }

  async claimDue(now: Date, leaseUntil: Date, limit: number): Promise<ClaimedEvent[]> {
    const due: Array<Filter<EventDoc>> = [
      { status: 'pending', next_attempt_at: { $lte: now } },
      { status: 'sending', lease_until: { $lte: now } },
    ];
    const claimed: ClaimedEvent[] = [];
    // Candidates another process claimed first are passed over, and the search goes on past them.
    const tried: string[] = [];
    for (const filter of due) {
      for (;;) {
        const wanted = limit - claimed.length;
        if (wanted <= 0) return claimed;
        const found = await this.events
          .find(
            { ...filter, ...(tried.length > 0 ? { _id: { $nin: tried } } : {}) },
            { projection: { _id: 1 } },
          )
          .sort({ created_at: 1, _id: 1 })
          .limit(wanted)
          .toArray();
        if (found.length === 0) break;
        for (const { _id } of found) {
          tried.push(_id);
          const event = await this.claimOne(filter, _id, leaseUntil);
          if (event) claimed.push(event);
        }
      }
    }
    return claimed;
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

  async finish(eventId: string, claim: string, o: Outcome): Promise<boolean> {
    const attempted =
      o.status === 'failed' || ((o.status === 'delivered' || o.status === 'pending') && o.attempted);
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
      { _id: eventId, claim, status: 'sending' },
      {
        $set: set,
        $inc: { attempts: attempted ? 1 : 0 },
        ...(attempted ? { $min: { first_attempt_at: o.at } } : {}),
      },
    );
    return r.modifiedCount === 1;
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
}
