import { expect } from 'chai';
import { withRepo, type Opener } from './contract-support';
import type {
  NewPayment,
  PaymentLedgerRepository,
  Redemption,
} from '../../../core/payments/payment-ledger-repository';

/**
 * The behaviour every PaymentLedgerRepository gives: one signed payment buys one response. A
 * settled payment is used for good; a released one may be tried again; an abandoned claim is
 * taken over after its lease, from verify as a fresh claim and from settle as a re-settlement;
 * a claim that lost its lease writes nothing. A payment identifier names one payment at a time,
 * and a settled one's kept answer goes to the same payment, request and identifier only.
 */
export function paymentLedgerContract(open: Opener<PaymentLedgerRepository>): void {
  const repo = withRepo(open);
  let n = 0;

  const t0 = new Date('2026-11-23T00:00:00Z');
  const at = (s: number) => new Date(t0.getTime() + s * 1000);
  const payment = (): NewPayment => {
    const nonce = `0x${(++n).toString(16).padStart(64, '0')}`;
    return {
      id: `8453:0xusdc:0xpayer:${nonce}`,
      chainId: 8453,
      asset: '0xusdc',
      payer: '0xpayer',
      nonce,
      endpointId: 'local-fx-echo',
      resource: '/v1/local/fx/echo',
      amountMicroUsdc: '1000',
      validBefore: String(Math.floor(at(3600).getTime() / 1000)),
      expiresAt: at(86_400 * 30),
      paymentHash: 'pay-1',
      requestHash: 'req-1',
    };
  };

  it('a new payment is claimed fresh; while held, a second claim is told it is in progress', async () => {
    const p = payment();
    const first = await repo().claim(p, {}, 'tok-a', at(0), at(60));
    expect(first.kind).to.equal('fresh');
    expect(first.entry).to.deep.include({ state: 'pending', phase: 'verify', claim: 'tok-a', attempts: 1 });
    const second = await repo().claim(p, {}, 'tok-b', at(1), at(61));
    expect(second.kind).to.equal('in_progress');
    expect(second.entry.claim).to.equal('tok-a');
  });

  it('settled: the payment is used for good, and keeps its transaction', async () => {
    const p = payment();
    await repo().claim(p, {}, 'tok', at(0), at(60));
    expect(await repo().advance(p.id, 'tok', 'settle', at(1), at(61))).to.equal(true);
    expect(await repo().finish(p.id, 'tok', 'settled', { transaction: '0xtx' }, at(2))).to.equal(true);
    const again = await repo().claim(p, {}, 'tok-2', at(3), at(63));
    expect(again.kind).to.equal('used');
    expect(again.entry).to.deep.include({ state: 'settled', transaction: '0xtx', claim: null, phase: null });
    // Even long after any lease, a settled payment stays used.
    expect((await repo().claim(p, {}, 'tok-3', at(10_000), at(10_060))).kind).to.equal('used');
  });

  it('released: nothing was settled, so the same payment may be claimed again', async () => {
    const p = payment();
    await repo().claim(p, {}, 'tok', at(0), at(60));
    expect(await repo().finish(p.id, 'tok', 'released', { reason: 'handler failed' }, at(1))).to.equal(true);
    const again = await repo().claim(p, {}, 'tok-2', at(2), at(62));
    expect(again.kind).to.equal('fresh');
    expect(again.entry).to.deep.include({ claim: 'tok-2', attempts: 2, reason: 'handler failed' });
  });

  it('settle outcome unknown: a retry re-settles, one at a time', async () => {
    const p = payment();
    await repo().claim(p, {}, 'tok', at(0), at(60));
    await repo().advance(p.id, 'tok', 'settle', at(1), at(61));
    expect(
      await repo().finish(p.id, 'tok', 'settle_unknown', { reason: 'timeout', ticketHash: 't' }, at(2)),
    ).to.equal(true);
    const retry = await repo().claim(p, { ticketHash: 't' }, 'tok-2', at(3), at(63));
    expect(retry.kind).to.equal('resettle');
    expect(retry.entry).to.deep.include({ phase: 'settle', claim: 'tok-2' });
    expect((await repo().claim(p, { ticketHash: 't' }, 'tok-3', at(4), at(64))).kind).to.equal('in_progress');
  });

  it('an abandoned claim is taken over after its lease: from verify fresh, from settle as a re-settlement', async () => {
    const v = payment();
    await repo().claim(v, {}, 'dead', at(0), at(60));
    expect((await repo().claim(v, {}, 'early', at(30), at(90))).kind).to.equal('in_progress');
    expect((await repo().claim(v, {}, 'late', at(61), at(121))).kind).to.equal('fresh');
    const s = payment();
    await repo().claim(s, {}, 'dead', at(0), at(60));
    await repo().advance(s.id, 'dead', 'settle', at(1), at(61));
    const proof = { payerProof: { attempts: 1 } };
    expect((await repo().claim(s, proof, 'late', at(62), at(122))).kind).to.equal('resettle');
  });

  it('a claim that lost its lease writes nothing: neither advance nor a final state', async () => {
    const p = payment();
    await repo().claim(p, {}, 'old', at(0), at(60));
    await repo().claim(p, {}, 'new', at(61), at(121));
    expect(await repo().advance(p.id, 'old', 'settle', at(62), at(122))).to.equal(false);
    expect(await repo().finish(p.id, 'old', 'released', { reason: 'late' }, at(63))).to.equal(false);
    expect((await repo().get(p.id))!).to.deep.include({ state: 'pending', claim: 'new', reason: null });
  });

  it('20 concurrent claims of one payment: exactly one is fresh', async () => {
    const p = payment();
    const claims = await Promise.all(
      Array.from({ length: 20 }, (_, i) => repo().claim(p, {}, `t${i}`, at(0), at(60))),
    );
    expect(claims.filter((c) => c.kind === 'fresh')).to.have.length(1);
    expect(claims.filter((c) => c.kind === 'in_progress')).to.have.length(19);
  });

  it('removes entries past their retention, and only those', async () => {
    const p = payment();
    await repo().claim(p, {}, 'tok', at(0), at(60));
    await repo().finish(p.id, 'tok', 'settled', {}, at(1));
    expect(await repo().pruneExpired(at(86_400 * 29))).to.equal(0);
    expect(await repo().get(p.id)).to.not.equal(null);
    expect(await repo().pruneExpired(at(86_400 * 31))).to.be.at.least(1);
    expect(await repo().get(p.id)).to.equal(null);
  });

  const unknownWithTicket = async (p: NewPayment, ticketHash: string | undefined) => {
    await repo().claim(p, {}, 'tok', at(0), at(60));
    await repo().advance(p.id, 'tok', 'settle', at(1), at(61));
    await repo().finish(
      p.id,
      'tok',
      'settle_unknown',
      { reason: 'timeout', transaction: '0xtx', ticketHash },
      at(2),
    );
  };

  it('an unknown settlement is redeemed only by the same payment, for the same request, with its ticket', async () => {
    const p = payment();
    await unknownWithTicket(p, 'ticket-1');
    const other = async (change: Partial<NewPayment>, ticketHash?: string) =>
      repo().claim({ ...p, ...change }, ticketHash ? { ticketHash } : {}, 'x', at(3), at(63));
    const refusals = [
      await other({ paymentHash: 'junk-signature' }, 'ticket-1'),
      await other({ requestHash: 'another-query', resource: '/v1/other' }, 'ticket-1'),
      await other({}),
      await other({}, 'wrong-ticket'),
    ];
    expect(refusals.map((c) => (c.kind === 'refused' ? c.reason : c.kind))).to.deep.equal([
      'payment_mismatch',
      'request_mismatch',
      'ticket_required',
      'ticket_mismatch',
    ]);
    // Refusals change nothing: the entry still waits, with its ticket and transaction.
    expect((await repo().get(p.id))!).to.deep.include({
      state: 'settle_unknown',
      claim: null,
      ticketHash: 'ticket-1',
      transaction: '0xtx',
      attempts: 1,
    });
    const owner = await repo().claim(p, { ticketHash: 'ticket-1' }, 'owner', at(4), at(64));
    expect(owner.kind).to.equal('resettle');
  });

  it('a settle phase abandoned with neither ticket nor identifier is taken over only with the payer\u2019s proof of its current take, once (issue 34)', async () => {
    const p = payment();
    await repo().claim(p, {}, 'dead', at(0), at(60));
    await repo().advance(p.id, 'dead', 'settle', at(1), at(61));
    const reasons = async (...tries: Array<[NewPayment, Redemption]>) =>
      Promise.all(
        tries.map(async ([pay, r]) => {
          const c = await repo().claim(pay, r, 'stranger', at(62), at(122));
          return c.kind === 'refused' ? c.reason : c.kind;
        }),
      );
    // A stranger with the copied authorization, for the right request, with a ticket it made up,
    // or a proof of another take: refused, and nothing changes.
    expect(
      await reasons(
        [p, {}],
        [p, { ticketHash: 'made-up' }],
        [p, { payerProof: { attempts: 2 } }],
        [{ ...p, requestHash: 'guess' }, { payerProof: { attempts: 1 } }],
      ),
    ).to.deep.equal([
      'payer_proof_required',
      'payer_proof_required',
      'payer_proof_required',
      'request_mismatch',
    ]);
    expect((await repo().get(p.id))!).to.deep.include({ state: 'pending', claim: 'dead', attempts: 1 });
    const owner = await repo().claim(p, { payerProof: { attempts: 1 } }, 'owner', at(63), at(123));
    expect(owner.kind).to.equal('resettle');
    // The take changed the count: the same proof redeems nothing more.
    await repo().finish(p.id, 'owner', 'settle_unknown', { reason: 'again' }, at(64));
    expect(await reasons([p, { payerProof: { attempts: 1 } }])).to.deep.equal(['payer_proof_required']);
    expect((await repo().claim(p, { payerProof: { attempts: 2 } }, 'o2', at(65), at(125))).kind).to.equal(
      'resettle',
    );
  });

  it('the payer\u2019s proof also redeems an unknown settlement whose ticket was lost, for its own request only', async () => {
    const p = payment();
    await unknownWithTicket(p, 'ticket-1');
    const stale = await repo().claim(
      { ...p, requestHash: 'other' },
      { payerProof: { attempts: 1 } },
      'x',
      at(3),
      at(63),
    );
    expect(stale.kind === 'refused' && stale.reason).to.equal('request_mismatch');
    expect((await repo().claim(p, { payerProof: { attempts: 1 } }, 'payer', at(4), at(64))).kind).to.equal(
      'resettle',
    );
  });

  it('releases an entry holding a transaction when the chain says its authorization expired unused', async () => {
    const p = payment();
    await unknownWithTicket(p, 'ticket-1');
    await repo().claim(p, { ticketHash: 'ticket-1' }, 'again', at(3), at(63));
    expect(
      await repo().finish(
        p.id,
        'again',
        'released',
        { reason: 'expired unused', unusedOnChain: true },
        at(4),
      ),
    ).to.equal(true);
    expect((await repo().get(p.id))!).to.deep.include({ state: 'released', transaction: '0xtx' });
    // Kept for the audit retention, not forgotten within minutes.
    expect((await repo().get(p.id))!.expiresAt.getTime()).to.equal(p.expiresAt.getTime());
  });

  it('a released payment binds the next payment and request that claims it', async () => {
    const p = payment();
    await repo().claim(p, {}, 'tok', at(0), at(60));
    await repo().finish(p.id, 'tok', 'released', { reason: 'verify: invalid' }, at(1));
    const next = await repo().claim(
      { ...p, paymentHash: 'pay-2', requestHash: 'req-2' },
      {},
      't2',
      at(2),
      at(62),
    );
    expect(next.kind).to.equal('fresh');
    expect(next.entry).to.deep.include({ paymentHash: 'pay-2', requestHash: 'req-2', ticketHash: null });
  });

  it('an entry holding a transaction is never released: it stays unresolved', async () => {
    const p = payment();
    await unknownWithTicket(p, 'ticket-1');
    await repo().claim(p, { ticketHash: 'ticket-1' }, 'again', at(3), at(63));
    expect(await repo().finish(p.id, 'again', 'released', { reason: 'invalid signature' }, at(4))).to.equal(
      true,
    );
    expect((await repo().get(p.id))!).to.deep.include({ state: 'settle_unknown', transaction: '0xtx' });
    const q = payment();
    await repo().claim(q, {}, 'tok', at(0), at(60));
    await repo().advance(q.id, 'tok', 'settle', at(1), at(61));
    await repo().finish(q.id, 'tok', 'released', { reason: 'reverted', transaction: '0xreverted' }, at(2));
    expect((await repo().get(q.id))!).to.deep.include({ state: 'settle_unknown', transaction: '0xreverted' });
  });

  it('a release may shorten the retention (nothing was settled); other states keep theirs', async () => {
    const p = payment();
    await repo().claim(p, {}, 'tok', at(0), at(60));
    await repo().finish(p.id, 'tok', 'released', { reason: 'verify', expiresAt: at(600) }, at(1));
    expect((await repo().get(p.id))!.expiresAt.getTime()).to.equal(at(600).getTime());
    expect(await repo().pruneExpired(at(601))).to.be.at.least(1);
    expect(await repo().get(p.id)).to.equal(null);
  });

  it('lists every unresolved settlement: unknown, and settle phases whose lease ended', async () => {
    const unknown = payment();
    await unknownWithTicket(unknown, undefined);
    const abandoned = payment();
    await repo().claim(abandoned, {}, 'dead', at(0), at(60));
    await repo().advance(abandoned.id, 'dead', 'settle', at(1), at(61));
    const running = payment();
    await repo().claim(running, {}, 'live', at(0), at(600));
    await repo().advance(running.id, 'live', 'settle', at(1), at(600));
    const settled = payment();
    await repo().claim(settled, {}, 'tok', at(0), at(60));
    await repo().finish(settled.id, 'tok', 'settled', { transaction: '0xok' }, at(1));
    const ids = (await repo().listUnresolved(at(120))).map((e) => e.id);
    expect(ids).to.include.members([unknown.id, abandoned.id]);
    expect(ids).to.not.include(running.id);
    expect(ids).to.not.include(settled.id);
    // What is being settled is listed apart, until its lease ends.
    expect((await repo().listSettling(at(120))).map((e) => e.id)).to.deep.equal([running.id]);
    expect((await repo().listSettling(at(600))).map((e) => e.id)).to.deep.equal([running.id]);
    expect(await repo().listSettling(at(601))).to.deep.equal([]);
    expect((await repo().listUnresolved(at(601))).map((e) => e.id)).to.include(running.id);
  });

  it('lists the settlements recorded since a time, oldest first, for checking them on chain', async () => {
    const settle = async (s: number, tx: string) => {
      const p = payment();
      await repo().claim(p, {}, 'tok', at(s), at(s + 60));
      await repo().advance(p.id, 'tok', 'settle', at(s + 1), at(s + 61));
      await repo().finish(p.id, 'tok', 'settled', { transaction: tx }, at(s + 2));
      return p;
    };
    const older = await settle(900_000, '0xolder');
    const first = await settle(900_100, '0xfirst');
    const second = await settle(900_200, '0xsecond');
    const unknown = payment();
    await repo().claim(unknown, {}, 'tok', at(900_150), at(900_210));
    await repo().advance(unknown.id, 'tok', 'settle', at(900_151), at(900_211));
    await repo().finish(unknown.id, 'tok', 'settle_unknown', { transaction: '0xunknown' }, at(900_152));
    const listed = await repo().listSettledSince(at(900_102));
    expect(listed.map((e) => [e.id, e.transaction])).to.deep.equal([
      [first.id, '0xfirst'],
      [second.id, '0xsecond'],
    ]);
    expect(listed.map((e) => e.id)).to.not.include(older.id);
  });

  describe('payment identifiers', () => {
    let ids = 0;
    const withId = (pid = `pid-${++ids}`): NewPayment => ({ ...payment(), paymentIdHash: pid });
    const settle = async (p: NewPayment, answer?: { json: string; expiresAt: Date }) => {
      await repo().claim(p, {}, 'tok', at(0), at(60));
      await repo().advance(p.id, 'tok', 'settle', at(1), at(61));
      await repo().finish(
        p.id,
        'tok',
        'settled',
        { transaction: '0xtx', ...(answer ? { answer } : {}) },
        at(2),
      );
    };

    it('binds the identifier to its payment: another payment with it conflicts, held, unknown or settled', async () => {
      const first = withId();
      const other = () => ({ ...payment(), paymentIdHash: first.paymentIdHash });
      const sameNonceOtherSignature = { ...first, paymentHash: 'pay-resigned' };
      expect((await repo().claim(first, {}, 'tok', at(0), at(60))).kind).to.equal('fresh');
      const held = await repo().claim(other(), {}, 'x', at(1), at(61));
      expect(held.kind).to.equal('conflict');
      expect(held.entry.id).to.equal(first.id);
      await repo().advance(first.id, 'tok', 'settle', at(1), at(61));
      await repo().finish(first.id, 'tok', 'settle_unknown', { reason: 'timeout' }, at(2));
      expect((await repo().claim(other(), {}, 'x', at(3), at(63))).kind).to.equal('conflict');
      expect((await repo().claim(sameNonceOtherSignature, {}, 'x', at(3), at(63))).kind).to.equal('conflict');
      await repo().claim(first, {}, 'again', at(4), at(64));
      await repo().finish(first.id, 'again', 'settled', { transaction: '0xtx' }, at(5));
      const late = other();
      expect((await repo().claim(late, {}, 'x', at(6), at(66))).kind).to.equal('conflict');
      expect((await repo().claim(sameNonceOtherSignature, {}, 'x', at(6), at(66))).kind).to.equal('conflict');
      // A conflict writes nothing.
      expect(await repo().get(late.id)).to.equal(null);
      expect((await repo().get(first.id))!).to.deep.include({ state: 'settled', paymentHash: 'pay-1' });
    });

    it('gives the kept answer to the same payment, request and identifier until it expires; the rest is used', async () => {
      const p = withId();
      await settle(p, { json: '{"n":3}', expiresAt: at(100) });
      const replay = await repo().claim(p, {}, 'r', at(3), at(63));
      expect(replay.kind).to.equal('replay');
      expect(replay.kind === 'replay' && replay.answer).to.equal('{"n":3}');
      expect(replay.entry).to.deep.include({
        state: 'settled',
        transaction: '0xtx',
        claim: null,
        attempts: 1,
      });
      const kinds = [
        await repo().claim({ ...p, requestHash: 'another-query' }, {}, 'x', at(4), at(64)),
        await repo().claim({ ...p, paymentIdHash: undefined }, {}, 'x', at(4), at(64)),
        await repo().claim({ ...p, paymentIdHash: 'pid-unknown' }, {}, 'x', at(4), at(64)),
        await repo().claim(p, {}, 'x', at(100), at(160)),
      ].map((c) => c.kind);
      expect(kinds).to.deep.equal(['used', 'used', 'used', 'used']);
      // An answer is dropped once past its retention; the entry stays for its own.
      expect((await repo().claim(p, {}, 'x', at(50), at(110))).kind).to.equal('replay');
      expect(await repo().pruneExpired(at(101))).to.be.at.least(1);
      expect((await repo().claim(p, {}, 'x', at(50), at(110))).kind).to.equal('used');
      expect((await repo().get(p.id))!.state).to.equal('settled');
    });

    it('keeps no answer for a payment settled without one', async () => {
      const p = withId();
      await settle(p);
      expect((await repo().claim(p, {}, 'x', at(3), at(63))).kind).to.equal('used');
    });

    it('an unknown settlement claimed with an identifier is redeemed by that identifier, without a ticket', async () => {
      const p = withId();
      await repo().claim(p, {}, 'tok', at(0), at(60));
      await repo().advance(p.id, 'tok', 'settle', at(1), at(61));
      await repo().finish(p.id, 'tok', 'settle_unknown', { reason: 'timeout', transaction: '0xtx' }, at(2));
      const refused = [
        await repo().claim({ ...p, paymentIdHash: undefined }, {}, 'x', at(3), at(63)),
        await repo().claim({ ...p, paymentIdHash: 'pid-guess' }, { ticketHash: 'any' }, 'x', at(3), at(63)),
        await repo().claim({ ...p, requestHash: 'another-query' }, {}, 'x', at(3), at(63)),
      ];
      expect(refused.map((c) => (c.kind === 'refused' ? c.reason : c.kind))).to.deep.equal([
        'identifier_mismatch',
        'identifier_mismatch',
        'request_mismatch',
      ]);
      const owner = await repo().claim(p, {}, 'owner', at(4), at(64));
      expect(owner.kind).to.equal('resettle');
      expect(owner.entry).to.deep.include({ transaction: '0xtx', paymentIdHash: p.paymentIdHash });
    });

    it('an entry that settled nothing gives its identifier up to the next payment carrying it', async () => {
      const released = withId();
      await repo().claim(released, {}, 'tok', at(0), at(60));
      await repo().finish(released.id, 'tok', 'released', { reason: 'verify: invalid' }, at(1));
      const next = { ...payment(), paymentIdHash: released.paymentIdHash };
      expect((await repo().claim(next, {}, 'next', at(2), at(62))).kind).to.equal('fresh');
      expect((await repo().get(released.id))!.paymentIdHash).to.equal(null);
      // The released payment, sent again with the identifier, now meets the payment holding it.
      expect((await repo().claim(released, {}, 'x', at(3), at(63))).kind).to.equal('conflict');
      // An abandoned verify phase settled nothing either, once its lease is over.
      const abandoned = withId();
      await repo().claim(abandoned, {}, 'dead', at(0), at(60));
      const after = { ...payment(), paymentIdHash: abandoned.paymentIdHash };
      expect((await repo().claim(after, {}, 'early', at(30), at(90))).kind).to.equal('conflict');
      expect((await repo().claim(after, {}, 'late', at(61), at(121))).kind).to.equal('fresh');
    });

    it('a payment that settled nothing, claimed again without its identifier, drops it', async () => {
      const p = withId();
      await repo().claim(p, {}, 'tok', at(0), at(60));
      await repo().finish(p.id, 'tok', 'released', { reason: 'handler failed' }, at(1));
      const again = await repo().claim({ ...p, paymentIdHash: undefined }, {}, 'again', at(2), at(62));
      expect(again.kind).to.equal('fresh');
      expect(again.entry.paymentIdHash).to.equal(null);
      expect(
        (await repo().claim({ ...payment(), paymentIdHash: p.paymentIdHash }, {}, 'x', at(3), at(63))).kind,
      ).to.equal('fresh');
    });

    it('20 payments claimed at once with one identifier: exactly one is fresh, the others conflict', async () => {
      const pid = `pid-${++ids}`;
      const claims = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          repo().claim({ ...payment(), paymentIdHash: pid }, {}, `t${i}`, at(0), at(60)),
        ),
      );
      expect(claims.filter((c) => c.kind === 'fresh')).to.have.length(1);
      expect(claims.filter((c) => c.kind === 'conflict')).to.have.length(19);
    });
  });

  it('does not list a claim still verifying as being settled', async () => {
    const verifying = payment();
    await repo().claim(verifying, {}, 'tok', at(0), at(60));
    expect(await repo().listSettling(at(1))).to.deep.equal([]);
  });
}
