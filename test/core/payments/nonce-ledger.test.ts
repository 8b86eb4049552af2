import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NonceLedger, type PaymentKey } from '../../../core/payments/nonce-ledger';
import { openSqliteStore } from '../../../core/store/sqlite/sqlite-store';
import type { GatewayStore } from '../../../core/store/gateway-store';
import type { Clock } from '../../../core/util/clock';
import { randomAddress, randomNonce, USDC_ON_BASE } from './payer';

describe('payment ledger (nonce claims in the store)', () => {
  let dir: string;
  let store: GatewayStore;
  let now = Date.parse('2026-11-22T03:00:00Z');
  const clock: Clock = { now: () => new Date(now) };
  let ledger: NonceLedger;
  const info = {
    endpointId: 'local-fx-echo',
    resource: '/v1/local/fx/echo',
    amountMicroUsdc: '1000',
    validBefore: 1_900_000_000n,
    paymentHash: 'a'.repeat(64),
    requestHash: 'b'.repeat(64),
  };
  const key = (): PaymentKey => ({
    chainId: 8453,
    asset: USDC_ON_BASE,
    payer: randomAddress(),
    nonce: randomNonce(),
  });

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'jpgw-ledger-unit-'));
    store = openSqliteStore(dir);
    ledger = new NonceLedger(store.payments, clock, 60);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lets exactly one of many simultaneous claims of one payment win', async () => {
    const k = key();
    const claims = await Promise.all(Array.from({ length: 10 }, () => ledger.claim(k, info)));
    expect(claims.filter((c) => c.kind === 'fresh')).to.have.length(1);
    expect(claims.filter((c) => c.kind === 'in_progress')).to.have.length(9);
  });

  it('treats the key case-insensitively (addresses and nonces are hex)', async () => {
    const k = key();
    expect((await ledger.claim(k, info)).kind).to.equal('fresh');
    const upper = {
      ...k,
      payer: k.payer.toUpperCase().replace('0X', '0x'),
      nonce: k.nonce.toUpperCase().replace('0X', '0x'),
    };
    expect((await ledger.claim(upper, info)).kind).to.equal('in_progress');
  });

  it('walks pending → settled, and refuses the payment afterwards', async () => {
    const k = key();
    const c = await ledger.claim(k, info);
    if (c.kind !== 'fresh') throw new Error(c.kind);
    expect(await ledger.advance(c.id, c.token, 'settle')).to.equal(true);
    await ledger.settled(c, '0xtx');
    const entry = await ledger.get(c.id);
    expect(entry).to.include({
      state: 'settled',
      transaction: '0xtx',
      endpointId: 'local-fx-echo',
      amountMicroUsdc: '1000',
      claim: null,
    });
    expect((await ledger.claim(k, info)).kind).to.equal('used');
  });

  it('frees a released payment for a new claim, and counts the attempts', async () => {
    const k = key();
    const c = await ledger.claim(k, info);
    if (c.kind !== 'fresh') throw new Error(c.kind);
    await ledger.release(c.id, c.token, 'handler failed');
    const again = await ledger.claim(k, info);
    expect(again.kind).to.equal('fresh');
    expect(again.entry.attempts).to.equal(2);
    // The old claim can no longer change the entry.
    await ledger.settled(c, '0xstale');
    expect((await ledger.get(c.id))?.state).to.equal('pending');
  });

  it('hands an unknown settlement to one retry at a time, as a re-settlement keeping the transaction', async () => {
    const k = key();
    const c = await ledger.claim(k, info);
    if (c.kind !== 'fresh') throw new Error(c.kind);
    await ledger.advance(c.id, c.token, 'settle');
    await ledger.unknown(c.id, c.token, 'settle timed out', '0xpending', 'ticket-hash');
    const withTicket = { ticketHash: 'ticket-hash' };
    const retries = await Promise.all([ledger.claim(k, info, withTicket), ledger.claim(k, info, withTicket)]);
    expect(retries.map((r) => r.kind).sort()).to.deep.equal(['in_progress', 'resettle']);
    expect(retries.find((r) => r.kind === 'resettle')!.entry.transaction).to.equal('0xpending');
  });

  it('takes over a claim abandoned by a crashed process once its lease ran out', async () => {
    const before = key();
    const a = await ledger.claim(before, info);
    if (a.kind !== 'fresh') throw new Error(a.kind);
    const during = key();
    const b = await ledger.claim(during, info);
    if (b.kind !== 'fresh') throw new Error(b.kind);
    await ledger.advance(b.id, b.token, 'settle', 30);
    expect((await ledger.claim(before, info)).kind).to.equal('in_progress');
    now += 61_000;
    // Nothing was settled before the handler finished: a fresh claim.
    expect((await ledger.claim(before, info)).kind).to.equal('fresh');
    // A settle call may have gone out: a re-settlement, never a fresh verify-and-charge; without
    // ticket or identifier, only for the payer's proof (of the entry as it is now).
    expect((await ledger.claim(during, info)).kind).to.equal('refused');
    const abandoned = (await ledger.get(b.id))!;
    expect(
      (await ledger.claim(during, info, { payerProof: { attempts: abandoned.attempts } })).kind,
    ).to.equal('resettle');
    // The crashed process's token is dead.
    expect(await ledger.advance(a.id, a.token, 'settle')).to.equal(false);
  });

  it('scopes a payment identifier to its payer: the same id from another payer is another id', async () => {
    const paymentId = 'pay_0123456789abcdef0123456789abcdef';
    const mine = key();
    expect((await ledger.claim(mine, { ...info, paymentId })).kind).to.equal('fresh');
    expect((await ledger.claim(key(), { ...info, paymentId })).kind).to.equal('fresh');
    const myOtherPayment = { ...mine, nonce: randomNonce() };
    const conflict = await ledger.claim(myOtherPayment, { ...info, paymentId, paymentHash: 'c'.repeat(64) });
    expect(conflict.kind).to.equal('conflict');
    // Stored as a hash only.
    expect(conflict.entry.paymentIdHash).to.match(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(conflict.entry)).to.not.include(paymentId);
  });

  it('keeps an answer 24 hours after its settlement, whatever the authorization\u2019s expiry', async () => {
    const settleWithAnswer = async (validBefore: bigint) => {
      const k = key();
      const i = { ...info, validBefore, paymentId: `pay_${randomNonce().slice(2, 34)}` };
      const c = await ledger.claim(k, i);
      if (c.kind !== 'fresh') throw new Error(c.kind);
      await ledger.advance(c.id, c.token, 'settle');
      await ledger.settled(c, '0xtx', { answer: '{"n":1}' });
      return () => ledger.claim(k, i).then((r) => r.kind);
    };
    const start = now;
    const longLived = await settleWithAnswer(BigInt(start / 1000 + 30 * 86_400));
    const shortLived = await settleWithAnswer(BigInt(start / 1000 + 300));
    now = start + 299_000;
    expect([await longLived(), await shortLived()]).to.deep.equal(['replay', 'replay']);
    // The authorization's expiry does not drop the answer (issue 34).
    now = start + 301_000;
    expect([await longLived(), await shortLived()]).to.deep.equal(['replay', 'replay']);
    now = start + 24 * 3_600_000 - 1;
    expect([await longLived(), await shortLived()]).to.deep.equal(['replay', 'replay']);
    now = start + 24 * 3_600_000;
    expect([await longLived(), await shortLived()]).to.deep.equal(['used', 'used']);
    now = start;
  });

  it('keeps entries in the store across a reopen (restart)', async () => {
    const k = key();
    const c = await ledger.claim(k, info);
    if (c.kind !== 'fresh') throw new Error(c.kind);
    await ledger.settled(c, '0xtx');
    await store.close();
    store = openSqliteStore(dir);
    ledger = new NonceLedger(store.payments, clock, 60);
    expect((await ledger.claim(k, info)).kind).to.equal('used');
  });
});
