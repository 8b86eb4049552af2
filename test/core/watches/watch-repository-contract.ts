/**
 * The watch repository's behaviour, held against both stores: watches per key, the relay's
 * idempotent events and forward-only cursor, exclusive claims with leases (a claim whose lease
 * ran out is claimed again and says which hold the earlier claim took), finishing only by the
 * claim's holder, cancellation on removal, and newest-first paging.
 */
import { expect } from 'chai';
import { withRepo, type Opener } from '../store/contract-support';
import type { NewEvent, WatchRepository } from '../../../core/watches/watch-repository';

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
    await repo().recordEvents('feed', [eventOf('e1', 'w1', 'k1'), eventOf('e2', 'w1', 'k1')], 7);
    await repo().recordEvents('feed', [eventOf('e1', 'w1', 'k1'), eventOf('e3', 'w1', 'k1')], 5);
    expect(await repo().cursor('feed')).to.equal(7);
    expect(await repo().cursor('other')).to.equal(0);
    expect((await repo().listEvents('k1', 10)).map((e) => e.id).sort()).to.deep.equal(['e1', 'e2', 'e3']);
  });

  it('claims each due event once; a claim whose lease ran out is claimed again, naming the earlier hold', async () => {
    await repo().createWatch(watchOf('w1', 'k1', ['abc-123']));
    await repo().recordEvents(
      'feed',
      [1, 2, 3, 4].map((i) => eventOf(`e${i}`, 'w1', 'k1', i)),
      4,
    );
    const [a, b] = await Promise.all([
      repo().claimDue(at(10), at(1_000), 3),
      repo().claimDue(at(10), at(1_000), 3),
    ]);
    const claimed = [...a, ...b].map((e) => e.id).sort();
    expect(claimed).to.deep.equal(['e1', 'e2', 'e3', 'e4']);
    expect(a[0].watch).to.deep.equal({ url: 'https://hooks.example/w1', secret: 'whsec_w1' });
    expect(a[0].previousHoldId).to.equal(null);
    expect(await repo().claimDue(at(999), at(2_000), 10)).to.deep.equal([]);
    const again = await repo().claimDue(at(1_000), at(2_000), 10);
    expect(again.map((e) => e.id).sort()).to.deep.equal(claimed);
    const first = [...a, ...b].find((e) => e.id === again[0].id)!;
    expect(again[0].previousHoldId).to.equal(first.holdId);
    expect(again[0].holdId).not.to.equal(first.holdId);
    // The earlier claim is lost: it cannot finish the event any more.
    expect(
      await repo().finish(first.id, first.claim, {
        status: 'delivered',
        at: at(1_001),
        attempted: true,
        httpStatus: 200,
      }),
    ).to.equal(false);
    expect(
      await repo().finish(again[0].id, again[0].claim, {
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
    await repo().recordEvents('feed', [eventOf('e1', 'w1', 'k1')], 1);
    const [c1] = await repo().claimDue(at(0), at(100), 5);
    const retry = { status: 'pending' as const, attempted: true, error: 'HTTP 500', httpStatus: 500 };
    expect(await repo().finish('e1', c1.claim, { ...retry, at: at(10), nextAttemptAt: at(500) })).to.equal(
      true,
    );
    expect(await repo().claimDue(at(499), at(600), 5)).to.deep.equal([]);
    const [c2] = await repo().claimDue(at(500), at(600), 5);
    expect(c2).to.include({ attempts: 1, lastError: 'HTTP 500', lastStatus: 500 });
    // A wait for credit is no attempt.
    await repo().finish('e1', c2.claim, {
      status: 'pending',
      attempted: false,
      at: at(510),
      nextAttemptAt: at(700),
      error: 'insufficient_credit',
      httpStatus: null,
    });
    const [c3] = await repo().claimDue(at(700), at(800), 5);
    expect(c3).to.include({ attempts: 1, lastError: 'insufficient_credit', lastStatus: 500 });
    await repo().finish('e1', c3.claim, { status: 'failed', at: at(720), error: 'gave up', httpStatus: 503 });
    const e = (await repo().getEvent('e1'))!;
    expect(e).to.include({
      status: 'failed',
      attempts: 2,
      lastError: 'gave up',
      lastStatus: 503,
      nextAttemptAt: null,
    });
    expect(e.firstAttemptAt).to.deep.equal(at(10));
  });

  it("cancels a removed watch's undelivered events; a claim of an event of no watch says so", async () => {
    await repo().createWatch(watchOf('w1', 'k1', ['abc-123']));
    await repo().recordEvents('feed', [eventOf('e1', 'w1', 'k1'), eventOf('e2', 'w1', 'k1')], 2);
    const [sending] = await repo().claimDue(at(0), at(100), 1);
    await repo().deleteWatch('k1', 'w1');
    const other = sending.id === 'e1' ? 'e2' : 'e1';
    expect((await repo().getEvent(other))!.status).to.equal('cancelled');
    expect((await repo().getEvent(sending.id))!.status).to.equal('sending');
    const [again] = await repo().claimDue(at(100), at(200), 5);
    expect(again.id).to.equal(sending.id);
    expect(again.watch).to.equal(null);
  });

  it("lists a key's events newest first, page after page", async () => {
    await repo().recordEvents(
      'feed',
      [1, 2, 3, 4, 5].map((i) => eventOf(`e${i}`, 'w1', 'k1', i % 3)),
      5,
    );
    await repo().recordEvents('feed', [eventOf('x1', 'w9', 'k2', 9)], 6);
    const all = await repo().listEvents('k1', 10);
    expect(all.map((e) => e.id)).to.deep.equal(['e5', 'e2', 'e4', 'e1', 'e3']);
    const p1 = await repo().listEvents('k1', 2);
    const last = p1[p1.length - 1];
    const p2 = await repo().listEvents('k1', 2, { createdAt: last.createdAt, id: last.id });
    const p3 = await repo().listEvents('k1', 2, { createdAt: p2[1].createdAt, id: p2[1].id });
    expect([...p1, ...p2, ...p3].map((e) => e.id)).to.deep.equal(all.map((e) => e.id));
  });
}
