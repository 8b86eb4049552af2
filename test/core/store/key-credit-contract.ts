import { expect } from 'chai';
import { withRepo, type Opener } from './contract-support';
import type { CallRecord, CreditHold, KeyCreditRepository } from '../../../core/keys/key-credit-repository';
import { KeyCreditCorruptError, RECENT_CALLS } from '../../../core/keys/key-credit-repository';
import { DuplicateKeyError } from '../../../core/store/store-errors';

/** A stored field of a key, as the store names it. */
export type KeyField =
  'balance' | 'spent' | 'trial_granted' | 'calls' | 'hash' | 'prefix' | 'owner_label' | 'created_at';

/**
 * Writes `value` into a key's stored `field` directly, behind the repository's back, as a
 * flipped byte or a hand edit would (the store's own driver on the test's store; `created_at` in
 * epoch milliseconds, stored as the store stores a time).
 */
export type AlterKey = (keyId: string, field: KeyField, value: number | string) => Promise<void>;

/**
 * The behaviour every KeyCreditRepository gives, whatever the store: the balance never goes
 * below zero, a hold is charged or given back exactly once, a charge is recorded with it, and a
 * key whose credit no longer adds up is refused, never served or charged.
 */
export function keyCreditContract(open: Opener<KeyCreditRepository>, alter: AlterKey): void {
  const repo = withRepo(open);
  let n = 0;

  const t0 = new Date('2026-11-23T00:00:00Z');
  const at = (s: number) => new Date(t0.getTime() + s * 1000);
  const newKey = async (trial = 1_000) => {
    const id = `key_${++n}_${Math.random().toString(36).slice(2)}`;
    await repo().create({
      id,
      hash: `h_${id}`,
      prefix: 'jpgw_x',
      ownerLabel: 'contract',
      createdAt: t0,
      trialMicro: trial,
    });
    return id;
  };
  const hold = (id: string, amount: number, s = 0): CreditHold => ({
    id,
    amount,
    brokerId: 'jp-local-pack-v1-fx-echo',
    at: at(s),
  });
  const call = (holdId: string, s = 1, status = 200): CallRecord => ({
    holdId,
    brokerId: 'jp-local-pack-v1-fx-echo',
    priceMicro: 0,
    status,
    at: at(s),
    requestId: `req_${holdId}`,
  });

  it('creates a key with its trial credit, found by id and by hash; a duplicate hash is refused', async () => {
    const id = await newKey(250_000);
    const key = await repo().get(id);
    expect(key).to.deep.include({
      id,
      hash: `h_${id}`,
      balanceMicro: 250_000,
      trialGrantedMicro: 250_000,
      spentMicro: 0,
      calls: 0,
    });
    expect((await repo().status(id))!.holds).to.deep.equal([]);
    // The hot-path reads carry the key's own fields only.
    expect(key).to.not.have.property('holds');
    expect((await repo().findByHash(`h_${id}`))!.id).to.equal(id);
    expect(await repo().findByHash('nope')).to.equal(null);
    let err: unknown;
    try {
      await repo().create({
        id: `${id}_2`,
        hash: `h_${id}`,
        prefix: 'p',
        ownerLabel: 'x',
        createdAt: t0,
        trialMicro: 1,
      });
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(DuplicateKeyError);
  });

  it('reserve moves credit into a hold, never below zero', async () => {
    const id = await newKey(1_000);
    expect(await repo().reserve(id, hold('h1', 600))).to.equal(true);
    expect(await repo().reserve(id, hold('h2', 600))).to.equal(false);
    expect(await repo().reserve(id, hold('h3', 400))).to.equal(true);
    const key = await repo().status(id);
    expect(key!.balanceMicro).to.equal(0);
    expect(key!.holds.map((h) => [h.id, h.amount])).to.deep.equal([
      ['h1', 600],
      ['h3', 400],
    ]);
    expect(await repo().reserve('no-such-key', hold('h4', 1))).to.equal(false);
  });

  it('commit charges a hold once, with its record; a second commit or a release of it does nothing', async () => {
    const id = await newKey(1_000);
    await repo().reserve(id, hold('c1', 300));
    const after = await repo().commit(id, call('c1', 5));
    expect(after).to.deep.include({ balanceMicro: 700, spentMicro: 300, calls: 1 });
    const status = await repo().status(id);
    expect(status!.holds).to.deep.equal([]);
    expect(status!.recent[0]).to.deep.include({ holdId: 'c1', priceMicro: 300, status: 200 });
    expect(await repo().commit(id, call('c1', 6))).to.equal(null);
    expect(await repo().release(id, call('c1', 6))).to.equal(null);
    const usage = await repo().usage(id, 10);
    expect(usage.map((u) => [u.holdId, u.priceMicro, u.requestId])).to.deep.equal([['c1', 300, 'req_c1']]);
    expect(await repo().callState(id, 'c1')).to.equal('charged');
    expect((await repo().get(id))!.spentMicro).to.equal(300);
  });

  it('release gives the amount back, records the call at price 0 and keeps it out of the usage audit', async () => {
    const id = await newKey(1_000);
    await repo().reserve(id, hold('r1', 300));
    expect(await repo().callState(id, 'r1')).to.equal('held');
    const after = await repo().release(id, call('r1', 2, 503));
    expect(after).to.deep.include({ balanceMicro: 1_000, spentMicro: 0, calls: 0 });
    expect((await repo().status(id))!.recent[0]).to.deep.include({
      holdId: 'r1',
      priceMicro: 0,
      status: 503,
    });
    expect(await repo().commit(id, call('r1', 3))).to.equal(null);
    expect(await repo().usage(id, 10)).to.deep.equal([]);
    expect(await repo().callState(id, 'r1')).to.equal('released');
    expect(await repo().callState(id, 'never-seen')).to.equal('unknown');
  });

  it("gives a closed call's record by its hold, charged or released; none while held or unknown", async () => {
    const id = await newKey(1_000);
    await repo().reserve(id, hold('kept', 300));
    await repo().reserve(id, hold('back', 200));
    expect(await repo().closedCall(id, 'kept')).to.equal(null);
    await repo().commit(id, call('kept', 4));
    await repo().release(id, call('back', 5, 503));
    expect(await repo().closedCall(id, 'kept')).to.deep.equal({
      holdId: 'kept',
      brokerId: 'jp-local-pack-v1-fx-echo',
      priceMicro: 300,
      status: 200,
      at: at(4),
      requestId: 'req_kept',
    });
    expect(await repo().closedCall(id, 'back')).to.deep.include({
      priceMicro: 0,
      status: 503,
      requestId: 'req_back',
    });
    expect(await repo().closedCall(id, 'never-seen')).to.equal(null);
    expect(await repo().closedCall('other-key', 'kept')).to.equal(null);
  });

  it(`keeps the ${RECENT_CALLS} newest closed calls on the key, newest first`, async () => {
    const id = await newKey(100_000);
    for (let i = 0; i < RECENT_CALLS + 3; i++) {
      await repo().reserve(id, hold(`k${i}`, 10, i));
      await (i % 2 ? repo().release(id, call(`k${i}`, i + 1)) : repo().commit(id, call(`k${i}`, i + 1)));
    }
    const key = await repo().status(id);
    expect(key!.recent).to.have.length(RECENT_CALLS);
    expect(key!.recent[0].holdId).to.equal(`k${RECENT_CALLS + 2}`);
    expect(key!.calls).to.equal(Math.ceil((RECENT_CALLS + 3) / 2));
  });

  it('orders calls closed in the same millisecond by when they closed, newest first, on every store', async () => {
    const id = await newKey(100_000);
    for (const h of ['t1', 't2', 't3']) {
      await repo().reserve(id, hold(h, 10, 5));
      await repo().commit(id, call(h, 7));
    }
    expect((await repo().status(id))!.recent.map((c) => c.holdId)).to.deep.equal(['t3', 't2', 't1']);
  });

  it('lists the holds older than a time (left by a stopped process) and nothing else', async () => {
    const id = await newKey(1_000);
    await repo().reserve(id, hold('old', 100, 0));
    await repo().reserve(id, hold('new', 100, 100));
    const found = (await repo().holdsBefore(at(50))).filter((h) => h.keyId === id);
    expect(found.map((h) => h.hold.id)).to.deep.equal(['old']);
    expect(found[0].hold.at.getTime()).to.equal(at(0).getTime());
  });

  it('charge debits a known answer without a hold, with its record, never below zero', async () => {
    const id = await newKey(1_000);
    const direct = (holdId: string, price: number, s = 1): CallRecord => ({
      ...call(holdId, s),
      priceMicro: price,
    });
    const after = await repo().charge(id, direct('d1', 600));
    expect(after).to.deep.include({ balanceMicro: 400, spentMicro: 600, calls: 1 });
    expect(await repo().charge(id, direct('d2', 600)), 'more than the balance').to.equal(null);
    expect(await repo().charge('no-such-key', direct('d3', 1))).to.equal(null);
    await repo().reserve(id, hold('h', 300));
    expect(await repo().charge(id, direct('d4', 200)), 'the held amount is not spendable').to.equal(null);
    expect(await repo().charge(id, direct('d5', 100, 2))).to.deep.include({
      balanceMicro: 0,
      spentMicro: 700,
      calls: 2,
    });
    expect(await repo().callState(id, 'd1')).to.equal('charged');
    expect(await repo().callState(id, 'd2')).to.equal('unknown');
    expect((await repo().usage(id, 10)).map((u) => [u.holdId, u.priceMicro])).to.deep.equal([
      ['d5', 100],
      ['d1', 600],
    ]);
    const status = (await repo().status(id))!;
    expect(status.recent.map((c) => c.holdId)).to.deep.equal(['d5', 'd1']);
    expect(status.holds.map((h) => h.id)).to.deep.equal(['h']);
  });

  it('20 concurrent direct charges on credit for 5 calls: exactly 5 succeed', async () => {
    const id = await newKey(5 * 1_000);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => repo().charge(id, { ...call(`dc${i}`), priceMicro: 1_000 })),
    );
    expect(results.filter(Boolean)).to.have.length(5);
    expect(await repo().get(id)).to.deep.include({ balanceMicro: 0, spentMicro: 5_000, calls: 5 });
    expect(await repo().usage(id, 50)).to.have.length(5);
  });

  it('20 concurrent reservations on credit for 5 calls: exactly 5 succeed', async () => {
    const id = await newKey(5 * 1_000);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => repo().reserve(id, hold(`p${i}`, 1_000))),
    );
    expect(results.filter(Boolean)).to.have.length(5);
    expect((await repo().get(id))!.balanceMicro).to.equal(0);
  });

  it('prunes closed-call records past retention; a pruned call reads as unknown, never as released', async () => {
    const id = await newKey(1_000);
    await repo().reserve(id, hold('o1', 100));
    await repo().commit(id, call('o1', 1));
    await repo().reserve(id, hold('o2', 100));
    await repo().commit(id, call('o2', 1_000));
    expect(await repo().pruneCalls(at(500))).to.be.at.least(1);
    expect(await repo().callState(id, 'o1')).to.equal('unknown');
    expect(await repo().callState(id, 'o2')).to.equal('charged');
    expect((await repo().usage(id, 10)).map((u) => u.holdId)).to.deep.equal(['o2']);
    expect((await repo().status(id))!.recent.map((c) => c.holdId)).to.deep.equal(['o2']);
  });

  it('closes a hold only through its own key', async () => {
    const owner = await newKey(1_000);
    const other = await newKey(1_000);
    await repo().reserve(owner, hold('own', 100));
    expect(await repo().commit(other, call('own'))).to.equal(null);
    expect(await repo().release(other, call('own'))).to.equal(null);
    expect(await repo().callState(other, 'own')).to.equal('unknown');
    expect(await repo().callState(owner, 'own')).to.equal('held');
    expect((await repo().get(owner))!.balanceMicro).to.equal(900);
  });

  it('keeps an owner label with a lone surrogate as the store reads it back (U+FFFD), so its seal holds', async () => {
    const id = `key_${++n}_surrogate`;
    await repo().create({
      id,
      hash: `h_${id}`,
      prefix: 'p',
      ownerLabel: 'a\ud800b\udc00',
      createdAt: t0,
      trialMicro: 10,
    });
    expect(await repo().get(id)).to.deep.include({ ownerLabel: 'a\ufffdb\ufffd', balanceMicro: 10 });
    expect(await repo().reserve(id, hold('s1', 5))).to.equal(true);
    expect(await repo().commit(id, call('s1'))).to.deep.include({ ownerLabel: 'a\ufffdb\ufffd', calls: 1 });
  });

  describe('a key whose stored credit was altered behind its back (issue 25)', () => {
    /** A key with 500 left, 300 spent and 200 held in hold "open". */
    const usedKey = async () => {
      const id = await newKey(1_000);
      await repo().reserve(id, hold('spent', 300));
      await repo().commit(id, call('spent'));
      await repo().reserve(id, hold('open', 200));
      return id;
    };
    const refusal = async (what: string, p: Promise<unknown>, keyId: string) => {
      const err = await p.then(
        (v) => expect.fail(`${what} answered ${JSON.stringify(v)} instead of refusing`),
        (e: unknown) => e,
      );
      expect(err, what).to.be.instanceOf(KeyCreditCorruptError);
      expect((err as KeyCreditCorruptError).keyId, what).to.equal(keyId);
      expect((err as KeyCreditCorruptError).code).to.equal('key_credit_corrupt');
    };

    const alterations: Array<[KeyField, number | string, string]> = [
      ['balance', 5_500, 'a balance raised by 5,000'],
      ['balance', 499, 'a balance lowered by 1'],
      ['spent', 0, 'spent wiped'],
      ['trial_granted', 1_000_000, 'a grant raised'],
      // Issue 34: the fields the credit sum does not tie, under the key's seal.
      ['calls', 5, 'a call counter raised by 4 (one flipped bit)'],
      ['calls', 0, 'a call counter wiped'],
      ['owner_label', 'contracT', "an owner label's letter changed"],
      ['prefix', 'jpgw_y', 'a prefix changed'],
      ['created_at', t0.getTime() + 1_024, 'a creation time moved by 1,024 ms'],
    ];
    const stored: Record<KeyField, number | string> = {
      balance: 500,
      spent: 300,
      trial_granted: 1_000,
      calls: 1,
      hash: '',
      prefix: 'jpgw_x',
      owner_label: 'contract',
      created_at: t0.getTime(),
    };
    for (const [field, value, what] of alterations) {
      it(`${what}: every read and every change refuses the key, and nothing changes`, async () => {
        const id = await usedKey();
        const other = await newKey(1_000);
        const before = stored[field];
        await alter(id, field, value);
        await refusal('get', repo().get(id), id);
        await refusal('findByHash', repo().findByHash(`h_${id}`), id);
        await refusal('status', repo().status(id), id);
        await refusal('reserve', repo().reserve(id, hold('more', 100)), id);
        await refusal('charge', repo().charge(id, { ...call('direct'), priceMicro: 100 }), id);
        await refusal('commit', repo().commit(id, call('open')), id);
        await refusal('release', repo().release(id, call('open')), id);
        // Other keys are served as before.
        expect(await repo().reserve(other, hold('other', 100))).to.equal(true);
        expect(await repo().commit(other, call('other'))).to.deep.include({
          balanceMicro: 900,
          spentMicro: 100,
        });
        // Put back, the record shows that none of the refused changes happened.
        await alter(id, field, before);
        const status = (await repo().status(id))!;
        expect(status).to.deep.include({
          balanceMicro: 500,
          spentMicro: 300,
          trialGrantedMicro: 1_000,
          calls: 1,
        });
        expect(status.holds.map((h) => [h.id, h.amount])).to.deep.equal([['open', 200]]);
        expect(await repo().callState(id, 'open')).to.equal('held');
        expect(await repo().callState(id, 'direct')).to.equal('unknown');
      });
    }

    it('a changed key hash: the key is refused by id and by the hash it now has (issue 34)', async () => {
      const id = await usedKey();
      await alter(id, 'hash', `h_${id}x`);
      await refusal('get', repo().get(id), id);
      await refusal('findByHash', repo().findByHash(`h_${id}x`), id);
      expect(await repo().findByHash(`h_${id}`)).to.equal(null);
      await alter(id, 'hash', `h_${id}`);
      expect(await repo().get(id)).to.deep.include({ balanceMicro: 500, calls: 1 });
    });

    it('a key with too little credit is refused as such, not as altered', async () => {
      const id = await usedKey();
      expect(await repo().reserve(id, hold('big', 501))).to.equal(false);
      expect(await repo().charge(id, { ...call('big2'), priceMicro: 501 })).to.equal(null);
    });
  });
}
