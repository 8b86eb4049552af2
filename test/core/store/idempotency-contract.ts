import { expect } from 'chai';
import { withRepo, type Opener } from './contract-support';
import type { IdempotencyRepository, IdempotencyRules } from '../../../core/keys/idempotency-repository';

/**
 * The behaviour every IdempotencyRepository gives: the first request claims, a retry with the
 * same body replays the stored response, another body is a mismatch, a concurrent retry waits,
 * an abandoned claim is taken over once (with the hold of the stopped attempt), an expired record
 * frees the key.
 */
export function idempotencyContract(open: Opener<IdempotencyRepository>): void {
  const repo = withRepo(open);
  let n = 0;

  const rules: IdempotencyRules = { windowMs: 24 * 3600_000, abandonedAfterMs: 120_000 };
  const t0 = new Date('2026-11-23T00:00:00Z');
  const at = (s: number) => new Date(t0.getTime() + s * 1000);
  const id = () => `idem_${++n}`;
  const response = {
    status: 200,
    body: { ok: true, n: 1 },
    headers: { 'x-credit-charged-micro-usdc': '1000' },
  };

  it('claims once; a retry with the same body replays the stored response, another body is a mismatch', async () => {
    const i = id();
    expect(await repo().claim(i, 'key1', 'fp', at(0), rules)).to.deep.equal({ kind: 'claimed' });
    expect(await repo().claim(i, 'key1', 'fp', at(1), rules)).to.deep.equal({ kind: 'in_progress' });
    await repo().complete(i, response);
    expect(await repo().claim(i, 'key1', 'fp', at(2), rules)).to.deep.equal({ kind: 'replay', response });
    expect(await repo().claim(i, 'key1', 'other', at(3), rules)).to.deep.equal({ kind: 'mismatch' });
  });

  it('a released claim (nothing charged) frees the key; a completed one is not released', async () => {
    const i = id();
    await repo().claim(i, 'key1', 'fp', at(0), rules);
    await repo().release(i);
    expect(await repo().claim(i, 'key1', 'fp', at(1), rules)).to.deep.equal({ kind: 'claimed' });
    await repo().complete(i, response);
    await repo().release(i);
    expect((await repo().claim(i, 'key1', 'fp', at(2), rules)).kind).to.equal('replay');
  });

  it('an abandoned pending claim is taken over once, naming the stopped attempt’s hold', async () => {
    const i = id();
    await repo().claim(i, 'key1', 'fp', at(0), rules);
    await repo().attachHold(i, 'hold_1');
    expect(await repo().claim(i, 'key1', 'fp', at(60), rules)).to.deep.equal({ kind: 'in_progress' });
    expect(await repo().claim(i, 'key1', 'fp', at(121), rules)).to.deep.equal({
      kind: 'claimed',
      abandonedHoldId: 'hold_1',
    });
    // Taken over: the clock restarts, so a second retry right after waits.
    expect(await repo().claim(i, 'key1', 'fp', at(122), rules)).to.deep.equal({ kind: 'in_progress' });
  });

  it('a reopened claim is taken over by the next retry at once, naming the hold that paid (issue 34)', async () => {
    const i = id();
    await repo().claim(i, 'key1', 'fp', at(0), rules);
    await repo().reopen(i, 'hold_paid', at(-121));
    expect(await repo().claim(i, 'key1', 'fp', at(1), rules)).to.deep.equal({
      kind: 'claimed',
      abandonedHoldId: 'hold_paid',
    });
    // A completed record is not reopened.
    await repo().complete(i, response);
    await repo().reopen(i, 'hold_other', at(-200));
    expect(await repo().claim(i, 'key1', 'fp', at(2), rules)).to.deep.equal({ kind: 'replay', response });
  });

  it('after the window a record is expired and the key may be used afresh, even with another body', async () => {
    const i = id();
    await repo().claim(i, 'key1', 'fp', at(0), rules);
    await repo().complete(i, response);
    expect(await repo().claim(i, 'key1', 'new', at(24 * 3600), rules)).to.deep.equal({ kind: 'claimed' });
  });

  it('10 concurrent first requests: exactly one claims', async () => {
    const i = id();
    const claims = await Promise.all(
      Array.from({ length: 10 }, () => repo().claim(i, 'key1', 'fp', at(0), rules)),
    );
    expect(claims.filter((c) => c.kind === 'claimed')).to.have.length(1);
  });

  it('prunes records older than the window', async () => {
    const old = id();
    const fresh = id();
    await repo().claim(old, 'key1', 'fp', at(0), rules);
    await repo().claim(fresh, 'key1', 'fp', at(100), rules);
    expect(await repo().prune(at(50))).to.equal(1);
    expect(await repo().claim(fresh, 'key1', 'fp', at(101), rules)).to.deep.equal({ kind: 'in_progress' });
  });
}
