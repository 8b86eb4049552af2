import { expect } from 'chai';
import { withRepo, type Opener } from './contract-support';
import type { FeedbackRepository } from '../../../core/feedback/feedback-repository';
import type { TrialBudgetRepository } from '../../../core/keys/trial-budget-repository';
import type { RateWindowRepository } from '../../../core/ratelimit/rate-window-repository';
import { type MetaRepository } from '../../../core/store/gateway-store';
import { DuplicateKeyError } from '../../../core/store/store-errors';

/**
 * Rate windows, sliding (issue 15): a hit is admitted only while fewer than `limit` admitted hits
 * lie in the closed window [at - windowMs, at]; exact under concurrency; refused hits are not
 * recorded; a given-back hit no longer counts; hits that no longer count go.
 */
export function rateWindowContract(open: Opener<RateWindowRepository>): void {
  const repo = withRepo(open);
  const t0 = Date.parse('2026-11-23T00:00:00Z');
  const at = (ms: number) => new Date(t0 + ms);
  let ids = 0;
  const take = (subject: string, ms: number, limit: number, windowMs: number) =>
    repo().take(subject, `h${++ids}`, at(ms), limit, windowMs);

  it('admits exactly the limit when 50 hits arrive at once, counting each admitted one once', async () => {
    const all = await Promise.all(Array.from({ length: 50 }, () => take('keys:a', 0, 10, 3_600_000)));
    const admitted = all.filter((r) => r.admitted);
    expect(admitted).to.have.length(10);
    expect(admitted.map((r) => (r.admitted ? r.inWindow : 0)).sort((a, b) => a - b)).to.deep.equal(
      Array.from({ length: 10 }, (_, i) => i + 1),
    );
    for (const r of all.filter((r) => !r.admitted)) {
      expect(r).to.deep.equal({ admitted: false, retryAt: at(3_600_001) });
    }
    expect(await take('keys:b', 0, 10, 3_600_000)).to.deep.equal({ admitted: true, inWindow: 1 });
  });

  it('slides: a hit stops counting exactly one window after it, wherever a fixed window would end', async () => {
    const W = 1_000;
    for (const ms of [0, 400, 800]) expect((await take('s', ms, 3, W)).admitted, `at ${ms}`).to.equal(true);
    expect(await take('s', 999, 3, W)).to.deep.equal({ admitted: false, retryAt: at(1_001) });
    // The window is closed: the hit at 0 still counts at 1000.
    expect(await take('s', 1_000, 3, W)).to.deep.equal({ admitted: false, retryAt: at(1_001) });
    expect(await take('s', 1_001, 3, W)).to.deep.equal({ admitted: true, inWindow: 3 });
    expect(await take('s', 1_001, 3, W)).to.deep.equal({ admitted: false, retryAt: at(1_401) });
    expect(await take('other', 1_001, 3, W)).to.deep.equal({ admitted: true, inWindow: 1 });
  });

  it('counts hits stamped after the take (another process whose clock runs ahead)', async () => {
    const W = 1_000;
    expect((await take('skew', 10_000, 2, W)).admitted).to.equal(true);
    expect((await take('skew', 9_500, 2, W)).admitted).to.equal(true);
    // [9000, 9950] holds neither, but admitting it would put 3 hits in [9500, 10500].
    expect(await take('skew', 9_950, 2, W)).to.deep.equal({ admitted: false, retryAt: at(10_501) });
    expect(await take('skew', 8_400, 2, W)).to.deep.equal({ admitted: false, retryAt: at(10_501) });
    expect(await take('skew', 10_501, 2, W)).to.deep.equal({ admitted: true, inWindow: 2 });
  });

  it('never admits more than the limit in any window, and refuses only when the window is full', async () => {
    const W = 10_000;
    const limit = 4;
    let seed = 7;
    const rnd = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    const admitted: number[] = [];
    let t = 0;
    for (let i = 0; i < 120; i++) {
      t += Math.floor(rnd() ** 3 * 6_000); // bursts and pauses, sometimes the same millisecond
      const r = await take('rnd', t, limit, W);
      const inWindow = admitted.filter((a) => a >= t - W).length;
      if (r.admitted) {
        expect(inWindow, `admitted at ${t}`).to.be.below(limit);
        expect(r.inWindow).to.equal(inWindow + 1);
        admitted.push(t);
      } else {
        expect(inWindow, `refused at ${t}`).to.equal(limit);
        const nth = admitted.filter((a) => a >= t - W).sort((a, b) => b - a)[limit - 1];
        expect(r.retryAt.getTime()).to.equal(t0 + nth + W + 1);
      }
    }
    for (const a of admitted)
      expect(admitted.filter((b) => b >= a && b <= a + W).length).to.be.at.most(limit);
    expect(admitted.length).to.be.within(20, 100);
  });

  it('forgets a hit given back, and follows a changed limit either way', async () => {
    const W = 60_000;
    const first = await repo().take('g', 'x1', at(0), 2, W);
    expect(first.admitted).to.equal(true);
    expect((await repo().take('g', 'x2', at(1), 2, W)).admitted).to.equal(true);
    expect((await repo().take('g', 'x3', at(2), 2, W)).admitted).to.equal(false);
    await repo().giveBack('g', 'x2');
    await repo().giveBack('g', 'never-taken');
    expect(await repo().take('g', 'x4', at(3), 2, W)).to.deep.equal({ admitted: true, inWindow: 2 });
    // Raised to 4: two more; lowered to 1: full while any hit is in the window.
    expect(await repo().take('g', 'x5', at(4), 4, W)).to.deep.equal({ admitted: true, inWindow: 3 });
    expect(await repo().take('g', 'x6', at(5), 4, W)).to.deep.equal({ admitted: true, inWindow: 4 });
    expect((await repo().take('g', 'x7', at(6), 4, W)).admitted).to.equal(false);
    expect(await repo().take('g', 'x8', at(7), 1, W)).to.deep.equal({
      admitted: false,
      retryAt: at(W + 5 + 1),
    });
    expect(await repo().take('g', 'x9', at(W + 6), 1, W)).to.deep.equal({ admitted: true, inWindow: 1 });
  });

  it('removes hits once they no longer count, and only those', async () => {
    const W = 1_000;
    expect((await take('a', 0, 1, W)).admitted).to.equal(true);
    expect((await take('b', 5_000, 1, W)).admitted).to.equal(true);
    expect(await repo().pruneEnded(at(1_000))).to.equal(0); // the hit at 0 still counts at 1000
    expect(await repo().pruneEnded(at(1_001))).to.equal(1);
    expect((await take('b', 5_500, 1, W)).admitted).to.equal(false);
    expect((await take('a', 1_500, 1, W)).admitted).to.equal(true);
  });
}

/** The daily trial-credit budget: never passed, also by 50 grants at once; days apart; give-backs. */
export function trialBudgetContract(open: Opener<TrialBudgetRepository>): void {
  const repo = withRepo(open);

  it('grants exactly what fits when 50 keys are created at once', async () => {
    const all = await Promise.all(Array.from({ length: 50 }, () => repo().take('2026-11-23', 1_000, 10_500)));
    expect(all.filter(Boolean)).to.have.length(10);
    expect(await repo().spent('2026-11-23')).to.equal(10_000);
    expect(await repo().take('2026-11-23', 500, 10_500)).to.equal(true); // what is left still fits
    expect(await repo().take('2026-11-23', 1, 10_500)).to.equal(false);
    expect(await repo().spent('2026-11-23')).to.equal(10_500);
    expect(await repo().take('2026-11-24', 1_000, 10_500)).to.equal(true); // a new day
    expect(await repo().spent('2026-11-24')).to.equal(1_000);
    expect(await repo().spent('2026-11-25')).to.equal(0);
  });

  it('refuses an amount above the budget, grants zero, and keeps amounts above 32 bits exact', async () => {
    expect(await repo().take('d', 2_001, 2_000)).to.equal(false);
    expect(await repo().take('d', 0, 0)).to.equal(true);
    expect(await repo().spent('d')).to.equal(0);
    expect(await repo().take('big', 3_000_000_000, 5_000_000_000)).to.equal(true);
    expect(await repo().take('big', 2_000_000_000, 5_000_000_000)).to.equal(true);
    expect(await repo().take('big', 1, 5_000_000_000)).to.equal(false);
    expect(await repo().spent('big')).to.equal(5_000_000_000);
  });

  it('takes back what is given back, never below zero', async () => {
    expect(await repo().take('d', 700, 1_000)).to.equal(true);
    expect(await repo().take('d', 700, 1_000)).to.equal(false);
    await repo().giveBack('d', 700);
    expect(await repo().spent('d')).to.equal(0);
    await repo().giveBack('d', 700);
    await repo().giveBack('no-such-day', 700);
    expect(await repo().spent('d')).to.equal(0);
    expect(await repo().take('d', 1_000, 1_000)).to.equal(true);
  });

  it('removes the days before a day, and only those', async () => {
    for (const day of ['2026-10-01', '2026-11-22', '2026-11-23']) await repo().take(day, 5, 10);
    expect(await repo().pruneBefore('2026-11-23')).to.equal(2);
    expect(await repo().spent('2026-11-22')).to.equal(0);
    expect(await repo().spent('2026-11-23')).to.equal(5);
  });
}

/** Feedback: stored as given, newest first, a duplicate id refused. */
export function feedbackContract(open: Opener<FeedbackRepository>): void {
  const repo = withRepo(open);

  it('stores records with their optional fields and lists them newest first', async () => {
    await repo().add({
      id: 'f1',
      productId: 'jp-grants',
      rating: 4,
      receivedAt: new Date(1_000),
      clientHash: 'c',
    });
    await repo().add({
      id: 'f2',
      productId: 'jp-local-pack',
      endpointId: 'local-fx-echo',
      category: 'data_error',
      message: '2027 list',
      receivedAt: new Date(2_000),
      clientHash: 'c',
    });
    const [newest, older] = await repo().recent(10);
    expect(newest).to.deep.equal({
      id: 'f2',
      productId: 'jp-local-pack',
      endpointId: 'local-fx-echo',
      category: 'data_error',
      message: '2027 list',
      receivedAt: new Date(2_000),
      clientHash: 'c',
    });
    expect(older).to.deep.equal({
      id: 'f1',
      productId: 'jp-grants',
      rating: 4,
      receivedAt: new Date(1_000),
      clientHash: 'c',
    });
    let err: unknown;
    try {
      await repo().add({ id: 'f1', productId: 'jp-grants', receivedAt: new Date(3_000), clientHash: 'c' });
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(DuplicateKeyError);
  });
}

/** Shared named values: the first value stored wins, for every caller at once. */
export function metaContract(open: Opener<MetaRepository>): void {
  const repo = withRepo(open);

  it('keeps the first value stored under a name, also when 20 processes race to store theirs', async () => {
    const seen = await Promise.all(Array.from({ length: 20 }, (_, i) => repo().getOrCreate('salt', `v${i}`)));
    expect(new Set(seen).size).to.equal(1);
    expect(await repo().getOrCreate('salt', 'later')).to.equal(seen[0]);
    expect(await repo().getOrCreate('other', 'x')).to.equal('x');
  });
}
