/**
 * One buyer cannot stall the others' webhooks (issue 34, items 6 and 7), end to end on the
 * kernel's fixture source: a real gateway on loopback with the default delivery settings (10 s
 * timeout, 1,000 waiting events per key), receivers on loopback. A receiver that never answers
 * holds only its own key's deliveries; a key that cannot take its events (no credit) holds at
 * most its cap of waiting events, the rest dropped and counted, refused new watches with 409, and
 * its waiting events expire after 72 hours, counted. On SQLite, and on MongoDB when MONGODB_URI
 * is set.
 */
import { expect } from 'chai';
import { FIXTURE_PRICE } from './fixture-source';
import {
  eventually,
  MovableClock,
  startReceiver,
  startWatchGateway,
  type Receiver,
  type WatchGateway,
} from './watch-gateway';

const LOOPBACK = { WEBHOOK_ALLOW_LOOPBACK: '1' };
/** The 1,000 subjects one watch may hold. */
const THOUSAND = Array.from({ length: 1_000 }, (_, i) => `abc-${String(i).padStart(3, '0')}`);

const legs: Array<[string, string | undefined]> = [['SQLite', undefined]];
if (process.env.MONGODB_URI) legs.push(['MongoDB', process.env.MONGODB_URI]);

for (const [storeName, mongodbUri] of legs) {
  describe(`webhooks one buyer cannot stall (${storeName})`, function () {
    this.timeout(180_000);
    let gw: WatchGateway | undefined;
    const receivers: Receiver[] = [];
    afterEach(async () => {
      // Receivers first: a delivery hanging on one ends at once instead of at its timeout.
      for (const r of receivers.splice(0)) await r.close();
      await gw?.close();
      gw = undefined;
    });

    const receiver = async () => {
      const r = await startReceiver();
      receivers.push(r);
      return r;
    };
    const watch = (key: string, things: string[], url: string) =>
      gw!.call('POST', '/keys/watches', { things, url }, { 'x-api-key': key });
    const eventsPage = (key: string, query = '') =>
      gw!.call('GET', `/keys/watches/events${query}`, undefined, { 'x-api-key': key });
    /** Every event the store holds for the key, counted page by page (at most `most` + 1 pages). */
    async function storedEvents(key: string, most = 100): Promise<Array<{ status: string }>> {
      const all: Array<{ status: string }> = [];
      let cursor = '';
      for (let page = 0; page <= most; page++) {
        const r = await eventsPage(key, `?limit=100${cursor}`);
        all.push(...r.body.events);
        if (!r.body.has_more) break;
        cursor = `&cursor=${r.body.next_cursor}`;
      }
      return all;
    }
    const appendAll = (things: string[]) => {
      for (const [i, t] of things.entries()) gw!.feed.append(t, { n: i });
    };
    /** Appends a change of another key's watch; ms until that key's receiver had it. */
    async function otherKeyDelivery(healthy: Receiver, timeoutMs = 30_000): Promise<number> {
      const t0 = Date.now();
      const n = healthy.received.length + 1;
      gw!.feed.append('zzz-001', { n });
      const got = await healthy.waitFor(n, timeoutMs);
      return got[n - 1].at - t0;
    }

    it("with one key's receiver never answering and 1,000 events due to it, another key's event is delivered within 5 s", async () => {
      gw = await startWatchGateway({
        env: { ...LOOPBACK, TRIAL_CREDIT_MICRO_USDC: String(2_000 * FIXTURE_PRICE) },
        mongodbUri,
      });
      const dead = await receiver();
      dead.answer = () => 'hang';
      const healthy = await receiver();
      const stalling = await gw.newKey();
      const other = await gw.newKey();
      expect((await watch(stalling, THOUSAND, dead.url)).status).to.equal(201);
      expect((await watch(other, ['zzz-001'], healthy.url)).status).to.equal(201);

      appendAll(THOUSAND);
      await eventually(
        async () => ((await storedEvents(stalling)).length === 1_000 ? true : undefined),
        60_000,
        '1,000 events recorded for the stalling key',
        500, // a look reads every event of the key: not too often
      );
      await dead.waitFor(1, 30_000); // its deliveries are under way, and hang

      const ms = await otherKeyDelivery(healthy);
      expect(ms, `the other key's event took ${ms} ms`).to.be.below(5_000);
      // The stalling key holds at most its own share: 4 deliveries under way, not the worker.
      expect(dead.mostOpen).to.be.within(1, 4);
      const stalled = await storedEvents(stalling);
      expect(stalled.filter((e) => e.status === 'delivered')).to.have.length(0);
      expect(stalled).to.have.length(1_000); // waiting, not lost
    });

    it('a key without credit holds at most 1,000 waiting events: the rest are dropped and counted, new watches get 409, others are not blocked, and the waiting expire after 72 hours, counted', async () => {
      const clock = new MovableClock();
      gw = await startWatchGateway({
        env: { ...LOOPBACK, TRIAL_CREDIT_MICRO_USDC: String(2 * FIXTURE_PRICE) },
        clock,
        mongodbUri,
      });
      const broke = await receiver();
      const healthy = await receiver();
      const key = await gw.newKey();
      const other = await gw.newKey();
      // Each key's credit pays for two deliveries; this key spends them.
      expect((await watch(key, ['abd-000'], broke.url)).status).to.equal(201);
      gw.feed.append('abd-000', { n: 'first' }, clock.now());
      gw.feed.append('abd-000', { n: 'second' }, clock.now());
      await broke.waitFor(2);
      for (let i = 0; i < 5; i++) expect((await watch(key, THOUSAND, broke.url)).status).to.equal(201);
      expect((await watch(other, ['zzz-001'], healthy.url)).status).to.equal(201);

      // One import of 1,000 changes (5,000 events for the key), then a change of the other
      // key's watch: once that is delivered, the import was relayed.
      appendAll(THOUSAND);
      await otherKeyDelivery(healthy, 120_000);
      const stored = await storedEvents(key);
      expect(stored).to.have.length(1_002); // the two delivered, and 1,000 waiting
      expect(stored.filter((e) => e.status === 'pending')).to.have.length(1_000);
      expect(broke.received).to.have.length(2);
      const counts = (await eventsPage(key, '?limit=1')).body.counts;
      expect(counts).to.include({ waiting: 1_000, waiting_cap: 1_000, dropped: 4_000, expired: 0 });
      expect(Date.parse(counts.last_dropped_at)).to.be.a('number');

      const refused = await watch(key, ['abe-000'], broke.url);
      expect(refused.status).to.equal(409);
      expect(refused.body.error).to.equal('watch_backlog_full');
      expect(refused.body.hint).to.be.a('string');
      expect(refused.body.counts).to.include({ waiting: 1_000, dropped: 4_000 });

      // The key's backlog holds nobody else back.
      const ms = await otherKeyDelivery(healthy);
      expect(ms, `the other key's event took ${ms} ms`).to.be.below(5_000);

      const metrics = await gw.gateway.metrics.text();
      expect(metrics).to.match(/gateway_watch_events_total\{outcome="dropped"\} 4000\b/);

      // 72 hours on, and the grace after them: the waiting events fail, counted.
      clock.advance(72 * 3600_000 + 6 * 60_000);
      const after = await eventually(
        async () => {
          const c = (await eventsPage(key, '?limit=1')).body.counts;
          return c.expired === 1_000 ? c : undefined;
        },
        60_000,
        'the waiting events expired',
        500,
      );
      expect(after).to.include({ waiting: 0, dropped: 4_000, expired: 1_000 });
      const ended = await storedEvents(key);
      expect(ended.filter((e) => e.status === 'failed')).to.have.length(1_000);
      expect(await gw.gateway.metrics.text()).to.match(
        /gateway_watch_events_total\{outcome="expired"\} 1000\b/,
      );
      expect(broke.received).to.have.length(2); // nothing delivered unpaid
      expect((await watch(key, ['abe-000'], broke.url)).status).to.equal(201);
    });
  });
}
