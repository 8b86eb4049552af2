/**
 * Watches end to end on the kernel's fixture source: a real gateway on loopback, a webhook
 * receiver on loopback (WEBHOOK_ALLOW_LOOPBACK=1) checking every signature with the Standard
 * Webhooks reference library, retries, the 72-hour window (a clock moved forward), credit, and
 * the SSRF guard; on SQLite, and on MongoDB when MONGODB_URI is set.
 */
import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { createHmac } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import type { Lookup } from '../../../core/watches/address-guard';
import { FIXTURE_EVENT_TYPE, FIXTURE_PRICE } from './fixture-source';
import {
  eventually,
  MovableClock,
  startReceiver,
  startWatchGateway,
  type Receiver,
  type WatchGateway,
} from './watch-gateway';

const LOOPBACK = { WEBHOOK_ALLOW_LOOPBACK: '1' };

/** A resolver answering from a table the test changes (a name can point anywhere). */
function tableLookup(table: Map<string, string>): Lookup {
  return (host, _options, callback) => {
    const address = table.get(host);
    if (!address) return callback(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }), []);
    callback(null, [{ address, family: address.includes(':') ? 6 : 4 } as LookupAddress]);
  };
}

const legs: Array<[string, string | undefined]> = [['SQLite', undefined]];
if (process.env.MONGODB_URI) legs.push(['MongoDB', process.env.MONGODB_URI]);

for (const [storeName, mongodbUri] of legs) {
  describe(`watches with signed webhooks (${storeName})`, function () {
    this.timeout(60_000);
    let gw: WatchGateway | undefined;
    let receiver: Receiver | undefined;
    afterEach(async () => {
      await gw?.close();
      await receiver?.close();
      gw = undefined;
      receiver = undefined;
    });

    const watch = async (key: string, body: unknown) =>
      gw!.call('POST', '/keys/watches', body, { 'x-api-key': key });
    const events = async (key: string, query = '') =>
      gw!.call('GET', `/keys/watches/events${query}`, undefined, { 'x-api-key': key });
    const balance = async (key: string) =>
      (await gw!.call('GET', '/keys/status', undefined, { 'x-api-key': key })).body.balance
        .micro_usdc as number;
    const eventOf = (
      key: string,
      pred: (e: { status: string; attempts: number; last_error: string | null }) => boolean,
    ) =>
      eventually(async () => {
        const e = (await events(key)).body.events[0];
        return e && pred(e) ? e : undefined;
      });

    it('delivers one signed event per watch and change, verified by standardwebhooks, and debits each delivered event once', async () => {
      receiver = await startReceiver();
      gw = await startWatchGateway({ env: LOOPBACK, mongodbUri });
      const key = await gw.newKey();
      const before = await balance(key);
      const created = await watch(key, { things: ['abc-123', ' abc-123', 'xyz-999'], url: receiver.url });
      expect(created.status).to.equal(201);
      expect(created.body.things).to.deep.equal(['abc-123', 'xyz-999']); // duplicates folded
      const secret = created.body.secret as string;
      expect(secret).to.match(/^whsec_[A-Za-z0-9+/]+=*$/);
      expect(Buffer.from(secret.slice(6), 'base64').length).to.be.at.least(24);
      expect(created.body.price_per_delivered_event.micro_usdc).to.equal(FIXTURE_PRICE);
      // A second watch of the same key on the same thing gets its own event.
      const second = await watch(key, { things: ['abc-123'], url: receiver.url });
      expect(second.status).to.equal(201);

      const listed = await gw.call('GET', '/keys/watches', undefined, { 'x-api-key': key });
      expect(listed.status).to.equal(200);
      expect(listed.body.watches.map((w: { id: string }) => w.id)).to.deep.equal([
        created.body.id,
        second.body.id,
      ]);
      expect(listed.text).not.to.include('whsec_');

      gw.feed.append('zzz-000', { n: 0 }); // nobody watches it
      const changeId = gw.feed.append('abc-123', { name: 'new name', n: 1 });
      const got = await receiver.waitFor(2);
      await new Promise((r) => setTimeout(r, 300));
      expect(receiver.received).to.have.length(2);
      const secrets = new Map([
        [created.body.id as string, secret],
        [second.body.id as string, second.body.secret as string],
      ]);
      const ids = new Set<string>();
      for (const r of got) {
        const headers = {
          'webhook-id': String(r.headers['webhook-id']),
          'webhook-timestamp': String(r.headers['webhook-timestamp']),
          'webhook-signature': String(r.headers['webhook-signature']),
        };
        // One of the two secrets signed it; the other does not verify.
        const verified = [...secrets.values()].filter((s) => {
          try {
            new Webhook(s).verify(r.body, headers);
            return true;
          } catch {
            return false;
          }
        });
        expect(verified).to.have.length(1);
        const payload = JSON.parse(r.body);
        expect(payload.type).to.equal(FIXTURE_EVENT_TYPE);
        expect(payload.id).to.equal(headers['webhook-id']);
        expect(payload.data).to.deep.equal({ name: 'new name', n: 1 });
        expect(Date.parse(payload.timestamp)).to.be.a('number');
        expect(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000)).to.be.below(60);
        expect(r.headers['content-type']).to.equal('application/json');
        ids.add(headers['webhook-id']);
      }
      expect(ids.size).to.equal(2);
      const list = await eventOf(key, (e) => e.status === 'delivered');
      expect(list.attempts).to.equal(1);
      const all = (await events(key)).body.events;
      expect(all).to.have.length(2);
      expect(all.every((e: { status: string }) => e.status === 'delivered')).to.equal(true);
      expect(all[0].payload.data.name).to.equal('new name');
      expect(changeId).to.be.a('string');
      expect(await balance(key)).to.equal(before - 2 * FIXTURE_PRICE);
      // Paging: one at a time, then the end.
      const p1 = await events(key, '?limit=1');
      expect(p1.body.has_more).to.equal(true);
      const p2 = await events(key, `?limit=1&cursor=${p1.body.next_cursor}`);
      expect(p2.body.events[0].id).not.to.equal(p1.body.events[0].id);
      expect(p2.body.has_more).to.equal(false);
      expect((await events(key, '?cursor=nonsense')).body.error).to.equal('invalid_query');
    });

    it('retries after 500s with growing delays and charges only the delivery that succeeded', async () => {
      receiver = await startReceiver();
      const clock = new MovableClock();
      gw = await startWatchGateway({ env: LOOPBACK, clock, mongodbUri, watches: { random: () => 1 } });
      const key = await gw.newKey();
      const before = await balance(key);
      expect((await watch(key, { things: ['abc-123'], url: receiver.url })).status).to.equal(201);
      let answers = [500, 500, 200];
      receiver.answer = () => ({ status: answers.shift() ?? 200 });
      gw.feed.append('abc-123', { n: 1 }, clock.now());
      const first = await eventOf(key, (e) => e.attempts === 1);
      expect(first.status).to.equal('pending');
      expect(first.last_error).to.equal('HTTP 500');
      expect(first.last_status).to.equal(500);
      const delay1 = Date.parse(first.next_attempt_at) - clock.now().getTime();
      expect(delay1).to.be.within(25_000, 31_000); // 30 s (jitter drawn at its top)
      expect(await balance(key)).to.equal(before);
      clock.advance(31_000);
      const secondTry = await eventOf(key, (e) => e.attempts === 2);
      const delay2 = Date.parse(secondTry.next_attempt_at) - clock.now().getTime();
      expect(delay2).to.be.within(55_000, 61_000); // doubled
      clock.advance(61_000);
      const done = await eventOf(key, (e) => e.status === 'delivered');
      expect(done.attempts).to.equal(3);
      expect(receiver.received).to.have.length(3);
      // Every attempt carried the same webhook-id.
      expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).to.equal(1);
      expect(await balance(key)).to.equal(before - FIXTURE_PRICE);
      answers = [];
    });

    it('gives up after 72 hours of failed attempts: failed, recorded, never charged', async () => {
      receiver = await startReceiver();
      receiver.answer = () => ({ status: 503 });
      const clock = new MovableClock();
      gw = await startWatchGateway({ env: LOOPBACK, clock, mongodbUri });
      const key = await gw.newKey();
      const before = await balance(key);
      const created = await watch(key, { things: ['abc-123'], url: receiver.url });
      gw.feed.append('abc-123', { n: 1 }, clock.now());
      const first = await eventOf(key, (e) => e.attempts === 1);
      const start = clock.now().getTime();
      let e = first;
      while (e.status === 'pending') {
        const attempts = e.attempts;
        clock.advance(Date.parse(e.next_attempt_at) - clock.now().getTime() + 1);
        e = await eventOf(key, (x) => x.attempts > attempts);
      }
      expect(e.status).to.equal('failed');
      expect(e.last_error).to.include('72 hours');
      expect(e.next_attempt_at).to.equal(null);
      const last = receiver.received[receiver.received.length - 1];
      // The last attempt was at the end of the window, not after it.
      expect(clock.now().getTime() - start).to.be.within(72 * 3600_000 - 60_000, 72 * 3600_000 + 60_000);
      expect(receiver.received.length).to.equal(e.attempts);
      expect(e.attempts).to.be.within(10, 20);
      // The signature of a late attempt still checks (HMAC by hand: the library refuses old timestamps).
      const ts = String(last.headers['webhook-timestamp']);
      const mac = createHmac('sha256', Buffer.from(String(created.body.secret).slice(6), 'base64'))
        .update(`${String(last.headers['webhook-id'])}.${ts}.${last.body}`)
        .digest('base64');
      expect(last.headers['webhook-signature']).to.equal(`v1,${mac}`);
      expect(await balance(key)).to.equal(before);
    });

    it('never follows a redirect (to loopback here): a 3xx is a failed attempt, recorded', async () => {
      receiver = await startReceiver();
      const target = await startReceiver();
      try {
        receiver.answer = () => ({ status: 302, headers: { location: target.url } });
        gw = await startWatchGateway({ env: LOOPBACK, mongodbUri });
        const key = await gw.newKey();
        await watch(key, { things: ['abc-123'], url: receiver.url });
        gw.feed.append('abc-123', { n: 1 });
        const e = await eventOf(key, (x) => x.attempts === 1);
        expect(e.status).to.equal('pending');
        expect(e.last_status).to.equal(302);
        expect(e.last_error).to.include('redirect').and.include('not followed');
        await new Promise((r) => setTimeout(r, 200));
        expect(target.received).to.have.length(0);
      } finally {
        await target.close();
      }
    });

    it('refuses webhook URLs to loopback, private, link-local, metadata and mapped addresses, at registration', async () => {
      const table = new Map([
        ['localhost', '127.0.0.1'],
        ['rebind.example', '127.0.0.1'],
        ['hooks.example', '93.184.215.14'],
        ['inside.example', '10.1.2.3'],
      ]);
      gw = await startWatchGateway({ mongodbUri, watches: { lookup: tableLookup(table) } });
      const key = await gw.newKey();
      const refused = [
        'http://hooks.example/x', // not https
        'https://127.0.0.1/x',
        'https://localhost/x',
        'https://10.0.0.1/x',
        'https://172.16.5.4/x',
        'https://192.168.1.1/x',
        'https://100.64.0.1/x',
        'https://169.254.169.254/latest/meta-data',
        'https://[::1]/x',
        'https://[::ffff:127.0.0.1]/x',
        'https://[::ffff:169.254.169.254]/x',
        'https://[fd00:ec2::254]/x',
        'https://[fe80::1]/x',
        'https://0.0.0.0/x',
        'https://224.0.0.1/x',
        'https://rebind.example/x', // a name resolving to loopback
        'https://inside.example/x',
        'https://nowhere.example/x', // does not resolve
        'https://user:pw@hooks.example/x',
        'ftp://hooks.example/x',
      ];
      for (const url of refused) {
        const r = await watch(key, { things: ['abc-123'], url });
        expect(r.status, url).to.equal(422);
        expect(r.body.error, url).to.equal('invalid_webhook_url');
        expect(r.body.hint, url).to.be.a('string');
      }
      const ok = await watch(key, { things: ['abc-123'], url: 'https://hooks.example/x' });
      expect(ok.status).to.equal(201);
      // The flag lets loopback through over http, and nothing else.
      await gw.close();
      gw = await startWatchGateway({ env: LOOPBACK, mongodbUri, watches: { lookup: tableLookup(table) } });
      const key2 = await gw.newKey();
      for (const url of [
        'http://hooks.example/x',
        'https://10.0.0.1/x',
        'http://169.254.169.254/',
        'http://inside.example/x',
      ]) {
        expect((await watch(key2, { things: ['abc-123'], url })).status, url).to.equal(422);
      }
      for (const url of ['http://127.0.0.1:9/x', 'http://localhost:9/x', 'http://[::1]:9/x']) {
        expect((await watch(key2, { things: ['abc-123'], url })).status, url).to.equal(201);
      }
    });

    it('checks the address again at delivery, after DNS resolution, and connects only to the address checked', async () => {
      receiver = await startReceiver();
      const port = new URL(receiver.url).port;
      const table = new Map([['hooks.example', '93.184.215.14']]);
      // http to a name is refused without the flag; with it only loopback passes, so the
      // rebinding below (public at registration, loopback at delivery) must be refused
      // under the strict setting: the registration goes through https to the public address.
      gw = await startWatchGateway({ mongodbUri, watches: { lookup: tableLookup(table), timeoutMs: 2_000 } });
      const key = await gw.newKey();
      expect(
        (await watch(key, { things: ['abc-123'], url: `https://hooks.example:${port}/hooks` })).status,
      ).to.equal(201);
      table.set('hooks.example', '127.0.0.1'); // the name now points at the receiver on loopback
      gw.feed.append('abc-123', { n: 1 });
      const e = await eventOf(key, (x) => x.attempts === 1);
      expect(e.last_error).to.match(
        /^refused: hooks\.example resolves to 127\.0\.0\.1 is a loopback address/,
      );
      expect(receiver.received).to.have.length(0);
    });

    it('answers bad input with stable codes and hints', async () => {
      receiver = await startReceiver();
      gw = await startWatchGateway({ env: LOOPBACK, mongodbUri });
      const key = await gw.newKey();
      expect(
        (await gw.call('POST', '/keys/watches', { things: ['abc-123'], url: receiver.url })).status,
      ).to.equal(401);
      const bad = await watch(key, { things: ['abc-123', 'nope', 42], url: receiver.url });
      expect(bad.status).to.equal(422);
      expect(bad.body.error).to.equal('invalid_watch_subjects');
      expect(bad.body.correction_hints.map((h: { parameter: string }) => h.parameter)).to.deep.equal([
        'things[1]',
        'things[2]',
      ]);
      expect((await watch(key, { things: [], url: receiver.url })).body.error).to.equal(
        'invalid_watch_subjects',
      );
      expect((await watch(key, { things: 'abc-123', url: receiver.url })).body.error).to.equal(
        'invalid_watch_subjects',
      );
      const many = Array.from({ length: 1001 }, (_, i) => `abc-${String(i % 1000).padStart(3, '0')}`);
      expect((await watch(key, { things: many, url: receiver.url })).status).to.equal(201); // 1,000 once folded
      const tooMany = Array.from(
        { length: 1001 },
        (_, i) => `${i < 1000 ? 'abc' : 'abd'}-${String(i % 1000).padStart(3, '0')}`,
      );
      const over = await watch(key, { things: tooMany, url: receiver.url });
      expect(over.status).to.equal(422);
      expect(over.body.error).to.equal('invalid_watch_subjects');
      const missing = await watch(key, { things: ['abc-123'] });
      expect(missing.status).to.equal(400);
      expect(missing.body.error).to.equal('invalid_body');
      expect((await watch(key, { things: ['abc-123'], url: receiver.url, extra: 1 })).body.error).to.equal(
        'invalid_body',
      );
      expect((await watch(key, '{"things": [')).status).to.equal(400);
      expect((await events(key, '?limit=0')).status).to.equal(422);
    });

    it("removes a watch, cancels its undelivered events, and answers 404 for another key's watch", async () => {
      receiver = await startReceiver();
      receiver.answer = () => ({ status: 500 });
      gw = await startWatchGateway({ env: LOOPBACK, mongodbUri });
      const owner = await gw.newKey();
      const other = await gw.newKey();
      const created = await watch(owner, { things: ['abc-123'], url: receiver.url });
      const id = created.body.id as string;
      gw.feed.append('abc-123', { n: 1 });
      await eventOf(owner, (e) => e.attempts === 1);
      const stranger = await gw.call('DELETE', `/keys/watches/${id}`, undefined, { 'x-api-key': other });
      expect(stranger.status).to.equal(404);
      expect(stranger.body.error).to.equal('watch_not_found');
      expect(
        (await gw.call('DELETE', `/keys/watches/${id}`, undefined, { 'x-api-key': owner })).status,
      ).to.equal(204);
      expect(
        (await gw.call('DELETE', `/keys/watches/${id}`, undefined, { 'x-api-key': owner })).status,
      ).to.equal(404);
      expect(
        (await gw.call('GET', '/keys/watches', undefined, { 'x-api-key': owner })).body.watches,
      ).to.deep.equal([]);
      const e = (await events(owner)).body.events[0];
      expect(e.status).to.equal('cancelled');
      gw.feed.append('abc-123', { n: 2 });
      await new Promise((r) => setTimeout(r, 300));
      expect((await events(owner)).body.events).to.have.length(1);
    });

    it('when the credit runs out, events wait (not lost, not failed) and go out once credit allows', async () => {
      receiver = await startReceiver();
      gw = await startWatchGateway({
        env: { ...LOOPBACK, TRIAL_CREDIT_MICRO_USDC: String(FIXTURE_PRICE) },
        mongodbUri,
      });
      const key = await gw.newKey();
      await watch(key, { things: ['abc-123'], url: receiver.url });
      gw.feed.append('abc-123', { n: 1 });
      await receiver.waitFor(1);
      gw.feed.append('abc-123', { n: 2 });
      // Looked at by the worker (a recorded event is pending without an error until then).
      const waiting = await eventOf(key, (e) => e.status === 'pending' && e.last_error !== null);
      expect(waiting.attempts).to.equal(0);
      expect(waiting.last_error).to.match(/^insufficient_credit/);
      expect(receiver.received).to.have.length(1);
      expect(await balance(key)).to.equal(0);
      expect((await events(key)).body.events.map((e: { status: string }) => e.status)).to.deep.equal([
        'pending',
        'delivered',
      ]);
    });
  });
}
