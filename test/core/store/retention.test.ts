import { expect } from 'chai';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { IdempotencyStore } from '../../../core/keys/idempotency';
import { KeyLedger } from '../../../core/keys/key-ledger';
import type { GatewayStore } from '../../../core/store/gateway-store';
import { RetentionSweep } from '../../../core/store/retention';
import { openSqliteStore } from '../../../core/store/sqlite/sqlite-store';

describe('retention sweep: what the store keeps, and for how long', () => {
  let dir: string;
  let store: GatewayStore;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'jpgw-retention-'));
    store = openSqliteStore(dir);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives back abandoned holds and removes expired calls, payments, idempotency records, rate-limit hits and budget days, keeping the rest', async () => {
    const now = new Date('2027-06-01T00:00:00Z');
    const ago = (ms: number) => new Date(now.getTime() - ms);
    const DAY = 86_400_000;
    const keys = new KeyLedger(store.keys);
    const idempotency = new IdempotencyStore(store.idempotency, 120_000);
    await store.keys.create({
      id: 'k',
      hash: 'h',
      prefix: 'p',
      ownerLabel: 'o',
      createdAt: ago(500 * DAY),
      trialMicro: 10_000,
    });
    // A call closed 401 days ago (past the 400-day audit) and one closed yesterday.
    for (const [id, at] of [
      ['old', ago(401 * DAY)],
      ['recent', ago(DAY)],
    ] as const) {
      await store.keys.reserve('k', { id, amount: 1000, brokerId: 'b', at });
      await store.keys.commit('k', {
        holdId: id,
        brokerId: 'b',
        priceMicro: 1000,
        status: 200,
        at,
        requestId: 'r',
      });
    }
    // A hold left 5 minutes ago by a stopped process, and one taken a second ago (may be live).
    await store.keys.reserve('k', { id: 'stale', amount: 1000, brokerId: 'b', at: ago(300_000) });
    await store.keys.reserve('k', { id: 'live', amount: 1000, brokerId: 'b', at: ago(1_000) });
    const payment = (id: string, expiresAt: Date) => ({
      id,
      chainId: 8453,
      asset: '0xa',
      payer: '0xb',
      nonce: id,
      endpointId: 'e',
      resource: '/v1/x',
      amountMicroUsdc: '1000',
      validBefore: '0',
      expiresAt,
      paymentHash: 'p',
      requestHash: 'r',
    });
    await store.payments.claim(payment('expired', ago(1)), {}, 't', ago(40 * DAY), ago(40 * DAY));
    await store.payments.claim(payment('kept', new Date(now.getTime() + DAY)), {}, 't', ago(DAY), now);
    const rules = { windowMs: DAY, abandonedAfterMs: 120_000 };
    await store.idempotency.claim('idem-old', 'k', 'fp', ago(DAY + 1), rules);
    await store.idempotency.claim('idem-new', 'k', 'fp', ago(1_000), rules);
    // Hourly windows: a hit an hour and a second old no longer counts; one a minute old does.
    const HOUR = 3_600_000;
    await store.rateWindows.take('ended', 'h1', ago(HOUR + 1_000), 1, HOUR);
    await store.rateWindows.take('open', 'h2', ago(60_000), 1, HOUR);
    await store.trialBudget.take('2026-04-26', 1_000, 5_000); // 401 days before
    await store.trialBudget.take('2026-05-31', 1_000, 5_000); // yesterday

    await new RetentionSweep(store, keys, idempotency, pino({ level: 'silent' }), 120_000).run(now);

    const key = await store.keys.status('k');
    expect(key!.holds.map((h) => h.id)).to.deep.equal(['live']);
    expect(key!.balanceMicro).to.equal(10_000 - 2 * 1000 - 1000); // two charges, the live hold
    expect((await store.keys.usage('k', 10)).map((c) => c.holdId)).to.deep.equal(['recent']);
    expect(await store.keys.callState('k', 'stale')).to.equal('released');
    expect(await store.payments.get('expired')).to.equal(null);
    expect(await store.payments.get('kept')).to.not.equal(null);
    // A removed idempotency record frees its key; a kept one still answers.
    expect((await store.idempotency.claim('idem-old', 'k', 'other', now, rules)).kind).to.equal('claimed');
    expect((await store.idempotency.claim('idem-new', 'k', 'other', now, rules)).kind).to.equal('mismatch');
    expect(await store.rateWindows.take('ended', 'h3', now, 2, HOUR)).to.deep.equal({
      admitted: true,
      inWindow: 1,
    });
    expect(await store.rateWindows.take('open', 'h4', now, 2, HOUR)).to.deep.equal({
      admitted: true,
      inWindow: 2,
    });
    expect(await store.trialBudget.spent('2026-04-26')).to.equal(0);
    expect(await store.trialBudget.spent('2026-05-31')).to.equal(1_000);
  });

  it('keeps the abandoned hold of a key whose credit fails its check (logged once) and gives back every other', async () => {
    const now = new Date('2027-06-01T00:00:00Z');
    const lines: string[] = [];
    const log = pino(
      { level: 'info' },
      new Writable({
        write(chunk, _enc, cb) {
          lines.push(String(chunk));
          cb();
        },
      }),
    );
    const keys = new KeyLedger(store.keys, log);
    const sweep = new RetentionSweep(
      store,
      keys,
      new IdempotencyStore(store.idempotency, 120_000),
      log,
      120_000,
    );
    for (const id of ['altered', 'sound']) {
      await store.keys.create({
        id,
        hash: `h_${id}`,
        prefix: 'p',
        ownerLabel: 'o',
        createdAt: now,
        trialMicro: 5_000,
      });
      await store.keys.reserve(id, {
        id: `hold_${id}`,
        amount: 1_000,
        brokerId: 'b',
        at: new Date(now.getTime() - 300_000),
      });
    }
    const db = new Database(path.join(dir, 'gateway.sqlite'));
    db.prepare(`UPDATE keys SET spent = 7 WHERE id = 'altered'`).run();
    db.close();

    await sweep.run(now);
    await sweep.run(new Date(now.getTime() + 60_000));

    expect(await store.keys.get('sound')).to.deep.include({ balanceMicro: 5_000 });
    expect(await store.keys.callState('sound', 'hold_sound')).to.equal('released');
    expect(await store.keys.callState('altered', 'hold_altered')).to.equal('held');
    const reports = lines.filter((l) => l.includes('key credit record fails its check'));
    expect(reports).to.have.length(1);
    expect(JSON.parse(reports[0])).to.include({ key_id: 'altered', spent_micro: 7, held_micro: 1_000 });
    expect(lines.join('')).to.not.include('retention sweep step failed');
  });
});
