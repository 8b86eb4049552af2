import { expect } from 'chai';
import { withRepo, type Opener } from './contract-support';
import type { FeedbackRepository } from '../../../core/feedback/feedback-repository';
import type { RateWindowRepository } from '../../../core/ratelimit/rate-window-repository';
import { DuplicateKeyError, type MetaRepository } from '../../../core/store/gateway-store';

/** Rate windows: counts are exact under concurrency; ended windows go. */
export function rateWindowContract(open: Opener<RateWindowRepository>): void {
  const repo = withRepo(open);
  const end = new Date('2026-11-23T01:00:00Z');

  it('counts each hit once, per window, also when 50 arrive at once', async () => {
    const counts = await Promise.all(Array.from({ length: 50 }, () => repo().hit('keys:1.2.3.4:0', end)));
    expect([...counts].sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(await repo().hit('keys:1.2.3.4:3600000', end)).to.equal(1);
  });

  it('removes windows that have ended, and only those', async () => {
    await repo().hit('a', new Date('2026-11-23T00:00:00Z'));
    await repo().hit('b', end);
    expect(await repo().pruneEnded(new Date('2026-11-23T00:30:00Z'))).to.equal(1);
    expect(await repo().hit('b', end)).to.equal(2);
    expect(await repo().hit('a', end)).to.equal(1);
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
      endpointId: 'local-holiday',
      category: 'data_error',
      message: '2027 list',
      receivedAt: new Date(2_000),
      clientHash: 'c',
    });
    const [newest, older] = await repo().recent(10);
    expect(newest).to.deep.equal({
      id: 'f2',
      productId: 'jp-local-pack',
      endpointId: 'local-holiday',
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
