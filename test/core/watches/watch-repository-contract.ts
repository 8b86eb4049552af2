/**
 * The watch repository's behaviour, held against both stores: watches per key, the relay's
 * idempotent events and forward-only cursor, exclusive claims with leases (a claim whose lease
 * ran out is claimed again and says which hold the earlier claim took), finishing only by the
 * claim's holder, cancellation on removal, newest-first paging; claims per key (due keys, a
 * bounded number of one key's events), each key's waiting, dropped and expired counts, and the
 * removal of ended events.
 */
import { expect } from 'chai';
import { withRepo, type Opener } from '../store/contract-support';
import type { DroppedEvent, Expiry, NewEvent, WatchRepository } from '../../../core/watches/watch-repository';

const t0 = Date.parse('2026-11-27T00:00:00Z');
const at = (ms: number) => new Date(t0 + ms);

function watchOf(id: string, keyId: string, subjects: string[], ms = 0) {
  return {
    id,
    keyId,
    url: `https://hooks.example/${id}`,
    secret: `whsec_${id}`,
    subjects,
    createdAt: at(ms),
  };
}

function eventOf(id: string, watchId: string, keyId: string, ms = 0): NewEvent {
  return {
    id,
    watchId,
    keyId,
    subject: 'abc-123',
    changeId: `c-${id}`,
    body: `{"id":"${id}"}`,
    createdAt: at(ms),
  };
}

/** A batch recorded after the feed's current cursor (as the relay does). */
async function record(
  r: WatchRepository,
  events: NewEvent[],
  seq: number,
  dropped: DroppedEvent[] = [],
  source = 'feed',
): Promise<boolean> {
  return r.recordEvents({ source, afterSeq: await r.cursor(source), seq, events, dropped, at: at(0) });
}

const NO_EXPIRY: Expiry = { recordedBefore: at(-1e12), error: 'expired' };

/** Claims of one key, or of every due key in turn. */
async function claim(r: WatchRepository, now: number, leaseUntil: number, limit: number, key?: string) {
  const keys = key ? [key] : await r.dueKeys(at(now));
  const out = [];
  for (const k of keys) out.push(...(await r.claimDue(k, at(now), at(leaseUntil), limit, NO_EXPIRY)).claimed);
  return out;
}

export function watchRepositoryContract(open: Opener<WatchRepository>): void {
  const repo = withRepo(open);

  it("keeps each key's watches apart, with their subjects", async () => {
    await repo().createWatch(watchOf('w1', 'k1', ['abc-123', 'abd-456'], 0));
    await repo().createWatch(watchOf('w2', 'k1', ['abc-123'], 10));
    await repo().createWatch(watchOf('w3', 'k2', ['abd-456'], 20));
    expect((await repo().listWatches('k1')).map((w) => [w.id, w.subjects, w.secret])).to.deep.equal([
      ['w1', ['abc-123', 'abd-456'], 'whsec_w1'],
      ['w2', ['abc-123'], 'whsec_w2'],
    ]);
    expect(await repo().countWatches('k2')).to.equal(1);
    const watchers = await repo().watchersOf(['abc-123', 'zzz-000']);
    expect(watchers.map((w) => `${w.subject}:${w.watchId}:${w.keyId}`).sort()).to.deep.equal([
      'abc-123:w1:k1',
      'abc-123:w2:k1',
    ]);
    expect(await repo().deleteWatch('k2', 'w1')).to.equal(false); // another key's
    expect(await repo().deleteWatch('k1', 'w1')).to.equal(true);
    expect((await repo().watchersOf(['abc-123', 'abd-456'])).map((w) => w.watchId).sort()).to.deep.equal([
      'w2',
      'w3',
    ]);
  });

  it('records each event once however often a batch is relayed, and never moves the cursor back', async () => {
    expect(await repo().cursor('feed')).to.equal(0);
    expect(await record(repo(), [eventOf('e1', 'w1', 'k1'), eventOf('e2', 'w1', 'k1')], 7)).to.equal(true);
    // A batch read after an older cursor (another relay moved it first) is not recorded again;
    // Mongo may record its events (the same ids) but never moves the cursor back.
    const stale = { source: 'feed', afterSeq: 0, seq: 5, dropped: [], at: at(0) };
    await repo().recordEvents({ ...stale, events: [eventOf('e1', 'w1', 'k1')] });
    await record(repo(), [eventOf('e1', 'w1', 'k1'), eventOf('e3', 'w1', 'k1')], 9);
    expect(await repo().cursor('feed')).to.equal(9);
    expect(await repo().cursor('other')).to.equal(0);
    expect((await repo().listEvents('k1', 10)).map((e) => e.id).sort()).to.deep.equal(['e1', 'e2', 'e3']);
  });

  it('claims each due event once; a claim whose lease ran out is claimed again, naming the earlier hold', async () => {
    await repo().createWatch(watchOf('w1', 'k1', ['abc-123']));
    await record(
      repo(),
      [1, 2, 3, 4].map((i) => eventOf(`e${i}`, 'w1', 'k1', i)),
      4,
    );
    expect(await repo().dueKeys(at(10))).to.deep.equal(['k1']);
    const [a, b] = await Promise.all([claim(repo(), 10, 1_000, 3, 'k1'), claim(repo(), 10, 1_000, 3, 'k1')]);
    const claimed = [...a, ...b].map((e) => e.id).sort();
    expect(claimed).to.deep.equal(['e1', 'e2', 'e3', 'e4']);
    expect(a[0].watch).to.deep.equal({ url: 'https://hooks.example/w1', secret: 'whsec_w1' });
    expect(a[0].previousHoldId).to.equal(null);
    expect(await claim(repo(), 999, 2_000, 10)).to.deep.equal([]);
    const again = await claim(repo(), 1_000, 2_000, 10);
    expect(again.map((e) => e.id).sort()).to.deep.equal(claimed);
    const first = [...a, ...b].find((e) => e.id === again[0].id)!;
    expect(again[0].previousHoldId).to.equal(first.holdId);
    expect(again[0].holdId).not.to.equal(first.holdId);
    // The earlier claim is lost: it cannot finish the event any more.
    expect(
      await repo().finish(first, {
        status: 'delivered',
        at: at(1_001),
        attempted: true,
        httpStatus: 200,
      }),
    ).to.equal(false);
    expect(
      await repo().finish(again[0], {
        status: 'delivered',
        at: at(1_001),
        attempted: true,
        httpStatus: 200,
      }),
    ).to.equal(true);
    const done = (await repo().getEvent(again[0].id))!;
    expect(done).to.include({ status: 'delivered', attempts: 1, lastStatus: 200 });
    expect(done.deliveredAt).to.deep.equal(at(1_001));
    expect(done.firstAttemptAt).to.deep.equal(at(1_001));
  });

  it('keeps a retried event until its next attempt, counting attempts and keeping the first', async () => {
    await repo().createWatch(watchOf('w1', 'k1', ['abc-123']));
    await record(repo(), [eventOf('e1', 'w1', 'k1')], 1);
    const [c1] = await claim(repo(), 0, 100, 5);
    const retry = { status: 'pending' as const, attempted: true, error: 'HTTP 500', httpStatus: 500 };
    expect(await repo().finish(c1, { ...retry, at: at(10), nextAttemptAt: at(500) })).to.equal(true);
    // A key may be named early (MongoDB's wake is a bound); a look that claims nothing sets it right.
    expect(await claim(repo(), 499, 600, 5, 'k1')).to.deep.equal([]);
    expect(await repo().dueKeys(at(499))).to.deep.equal([]);
    const [c2] = await claim(repo(), 500, 600, 5);
    expect(c2).to.include({ attempts: 1, lastError: 'HTTP 500', lastStatus: 500 });
    // A wait for credit is no attempt.
    await repo().finish(c2, {
      status: 'pending',
      attempted: false,
      at: at(510),
      nextAttemptAt: at(700),
      error: 'insufficient_credit',
      httpStatus: null,
    });
    const [c3] = await claim(repo(), 700, 800, 5);
    expect(c3).to.include({ attempts: 1, lastError: 'insufficient_credit', lastStatus: 500 });
    await repo().finish(c3, {
      status: 'failed',
      at: at(720),
      attempted: true,
      error: 'gave up',
      httpStatus: 503,
    });
    const e = (await repo().getEvent('e1'))!;
    expect(e).to.include({
      status: 'failed',
      attempts: 2,
      lastError: 'gave up',
      lastStatus: 503,
      nextAttemptAt: null,
    });
    expect(e.firstAttemptAt).to.deep.equal(at(10));
    expect(await repo().keyCounts('k1')).to.deep.include({ waiting: 0, expired: 1, dropped: 0 });
  });

  it("cancels a removed watch's undelivered events; a claim of an event of no watch says so", async () => {
    await repo().createWatch(watchOf('w1', 'k1', ['abc-123']));
    await record(repo(), [eventOf('e1', 'w1', 'k1'), eventOf('e2', 'w1', 'k1')], 2);
    const [sending] = await claim(repo(), 0, 100, 1);
    await repo().deleteWatch('k1', 'w1');
    const other = sending.id === 'e1' ? 'e2' : 'e1';
    expect((await repo().getEvent(other))!.status).to.equal('cancelled');
    expect((await repo().getEvent(sending.id))!.status).to.equal('sending');
    const [again] = await claim(repo(), 100, 200, 5);
    expect(again.id).to.equal(sending.id);
    expect(again.watch).to.equal(null);
  });

  it("lists a key's events newest first, page after page", async () => {
    await record(
      repo(),
      [1, 2, 3, 4, 5].map((i) => eventOf(`e${i}`, 'w1', 'k1', i % 3)),
      5,
    );
    await record(repo(), [eventOf('x1', 'w9', 'k2', 9)], 6);
    const all = await repo().listEvents('k1', 10);
    expect(all.map((e) => e.id)).to.deep.equal(['e5', 'e2', 'e4', 'e1', 'e3']);
    const p1 = await repo().listEvents('k1', 2);
    const last = p1[p1.length - 1];
    const p2 = await repo().listEvents('k1', 2, { createdAt: last.createdAt, id: last.id });
    const p3 = await repo().listEvents('k1', 2, { createdAt: p2[1].createdAt, id: p2[1].id });
    expect([...p1, ...p2, ...p3].map((e) => e.id)).to.deep.equal(all.map((e) => e.id));
  });

  it("claims one key's events at most `limit` at a time, oldest first, and names every key with due events", async () => {
    await repo().createWatch(watchOf('w1', 'k1', ['abc-123']));
    await repo().createWatch(watchOf('w2', 'k2', ['abc-123']));
    await record(
      repo(),
      [...[1, 2, 3, 4, 5, 6].map((i) => eventOf(`a${i}`, 'w1', 'k1', i)), eventOf('b1', 'w2', 'k2', 50)],
      1,
    );
    expect(await repo().dueKeys(at(100))).to.deep.equal(['k1', 'k2']);
    const first = await claim(repo(), 100, 10_000, 2, 'k1');
    expect(first.map((e) => e.id)).to.deep.equal(['a1', 'a2']);
    // The other key is not behind the first key's six: it has its own claim.
    expect((await claim(repo(), 100, 10_000, 2, 'k2')).map((e) => e.id)).to.deep.equal(['b1']);
    expect(await repo().dueKeys(at(100))).to.deep.equal(['k1']);
    expect((await claim(repo(), 100, 10_000, 10, 'k1')).map((e) => e.id)).to.deep.equal([
      'a3',
      'a4',
      'a5',
      'a6',
    ]);
    expect(await repo().dueKeys(at(100))).to.deep.equal([]);
    // Six of k1 wait (being sent), one of k2.
    expect(Object.fromEntries(await repo().waitingCounts(['k1', 'k2', 'k3']))).to.deep.equal({
      k1: 6,
      k2: 1,
      k3: 0,
    });
    // Leases run out: the key is due again, and the leased-out events come first.
    await record(repo(), [eventOf('a0', 'w1', 'k1', 0)], 2);
    expect(await repo().dueKeys(at(10_000))).to.deep.equal(['k1', 'k2']);
    expect((await claim(repo(), 10_000, 20_000, 2, 'k1')).map((e) => e.id)).to.deep.equal(['a1', 'a2']);
  });

  it('counts dropped events per key once per change, however often a batch is relayed', async () => {
    const dropped = [
      { keyId: 'k1', seq: 3 },
      { keyId: 'k1', seq: 4 },
      { keyId: 'k2', seq: 4 },
    ];
    const batch = {
      source: 'feed',
      afterSeq: 0,
      seq: 4,
      events: [eventOf('e1', 'w1', 'k1')],
      dropped,
      at: at(5),
    };
    expect(await repo().recordEvents(batch)).to.equal(true);
    // The same batch again (a relay that read the same cursor): nothing counted twice.
    await repo().recordEvents(batch);
    expect(await repo().keyCounts('k1')).to.deep.equal({
      waiting: 1,
      expired: 0,
      dropped: 2,
      lastDroppedAt: at(5),
    });
    expect((await repo().keyCounts('k2')).dropped).to.equal(1);
    expect(await repo().keyCounts('k9')).to.deep.equal({
      waiting: 0,
      expired: 0,
      dropped: 0,
      lastDroppedAt: null,
    });
    await record(repo(), [], 6, [{ keyId: 'k1', seq: 6 }]);
    expect((await repo().keyCounts('k1')).dropped).to.equal(3);
  });

  it("fails a key's waiting events recorded before the expiry, counted, and claims the rest", async () => {
    await repo().createWatch(watchOf('w1', 'k1', ['abc-123']));
    await record(
      repo(),
      [1, 2, 3].map((i) => eventOf(`e${i}`, 'w1', 'k1', i * 100)),
      1,
    );
    const [c1] = await claim(repo(), 100, 150, 1, 'k1');
    await repo().finish(c1, {
      status: 'pending',
      attempted: false,
      at: at(110),
      nextAttemptAt: at(120),
      error: 'insufficient_credit',
      httpStatus: null,
    });
    const got = await repo().claimDue('k1', at(1_000), at(2_000), 5, {
      recordedBefore: at(250),
      error: 'not delivered in time',
    });
    expect(got.expired).to.equal(2);
    expect(got.claimed.map((e) => e.id)).to.deep.equal(['e3']);
    expect(await repo().getEvent('e1')).to.include({
      status: 'failed',
      lastError: 'insufficient_credit; not delivered in time',
      nextAttemptAt: null,
    });
    expect((await repo().getEvent('e2'))!.status).to.equal('failed');
    expect(await repo().keyCounts('k1')).to.deep.include({ waiting: 1, expired: 2 });
  });

  it('removes failed and cancelled events recorded before a time, and nothing else', async () => {
    await repo().createWatch(watchOf('w1', 'k1', ['abc-123']));
    await record(
      repo(),
      [1, 2, 3, 4].map((i) => eventOf(`e${i}`, 'w1', 'k1', i * 100)),
      1,
    );
    const claimed = await claim(repo(), 1_000, 2_000, 4, 'k1');
    const byId = new Map(claimed.map((e) => [e.id, e]));
    await repo().finish(byId.get('e1')!, {
      status: 'failed',
      at: at(1_000),
      attempted: true,
      error: 'x',
      httpStatus: 500,
    });
    await repo().finish(byId.get('e2')!, {
      status: 'delivered',
      at: at(1_000),
      attempted: true,
      httpStatus: 200,
    });
    await repo().finish(byId.get('e3')!, { status: 'cancelled', at: at(1_000), error: 'removed' });
    await repo().finish(byId.get('e4')!, {
      status: 'failed',
      at: at(1_000),
      attempted: true,
      error: 'x',
      httpStatus: 500,
    });
    expect(await repo().pruneEnded(at(350))).to.equal(2);
    expect((await repo().listEvents('k1', 10)).map((e) => e.id)).to.deep.equal(['e4', 'e2']);
    // The counts stay.
    expect((await repo().keyCounts('k1')).expired).to.equal(2);
  });
}
