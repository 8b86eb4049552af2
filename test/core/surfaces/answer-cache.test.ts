/**
 * The answer cache on the kernel's fixture plugins: the byte-for-byte suite (run over plugins/
 * too, in test/products/answer-cache.test.ts), what is kept and what is not, and the cache itself.
 */
import { expect } from 'chai';
import type { Request } from 'express';
import { AnswerCache } from '../../../core/surfaces/answer-cache';
import type { EndpointPayload } from '../../../core/plugins/contract';
import { DATED, ECHO, FAILING, ITEM, PRICED, SLOW } from '../../support/fx-endpoints';
import { FIXTURE_PLUGINS } from '../../support/plugin-sets';
import { describeAnswerCache } from './answer-cache-suite';

describeAnswerCache(FIXTURE_PLUGINS, (gateways) => {
  it('keeps the answers of every cacheable fixture example, and none of the endpoints that did not opt in', () => {
    const { cached } = gateways();
    const kept = new Set([...cached.gateway.executor.answers!.keys()].map((k) => k.split('\n')[0]));
    expect([...kept]).to.include.members([ECHO, PRICED, ITEM, DATED].map((e) => e.endpointId));
    for (const e of [SLOW, FAILING]) expect(kept.has(e.endpointId), e.endpointId).to.equal(false);
  });

  it('does not keep an answer whose handler read the clock (a year left to today)', async () => {
    const { cached } = gateways();
    const answers = cached.gateway.executor.answers!;
    const res = await cached.get(`/preview/v1/${DATED.tail}`);
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ year: 2026, year_source: 'clock' });
    expect([...answers.keys()].filter((k) => k.startsWith(`${DATED.endpointId}\n{}`))).to.deep.equal([]);
    // The same answer asked with its year is kept.
    expect((await cached.get(`/preview/v1/${DATED.tail}?year=2026`)).body.year_source).to.equal('query');
    expect([...answers.keys()]).to.include(`${DATED.endpointId}\n{"year":2026}`);
  });

  it('keeps cached payloads frozen, so that no surface can change what later calls get', async () => {
    const { cached } = gateways();
    const executor = cached.gateway.executor;
    const p = cached.gateway.registry.sold().find((x) => x.endpointId === DATED.endpointId)!;
    const req = { id: 'x' } as unknown as Request;
    const payload = await executor.run(p, executor.parse(p, { year: '2027' }), req);
    expect(executor.answers!.headOf(payload)).to.be.a('string');
    expect(Object.isFrozen(payload)).to.equal(true);
    expect(Object.isFrozen((payload as unknown as { months: object[] }).months)).to.equal(true);
    expect(Object.isFrozen((payload as unknown as { months: object[] }).months[0])).to.equal(true);
  });
});

describe('AnswerCache', () => {
  const payload = (n: number, kind: 'snapshot' | 'live' = 'snapshot'): EndpointPayload =>
    ({ n, _attribution: 'a', _provenance: { kind, as_of: '2026-01-01', sources: [] } }) as EndpointPayload;

  it('is bounded: the oldest entries go first, by count and by size', () => {
    const cache = new AnswerCache({ maxEntries: 2, maxChars: 1_000_000 });
    for (const n of [1, 2, 3]) cache.put(`k${n}`, payload(n), 'notice');
    expect([...cache.keys()]).to.deep.equal(['k2', 'k3']);
    const small = new AnswerCache({ maxEntries: 100, maxChars: 250 });
    for (const n of [1, 2, 3]) small.put(`k${n}`, payload(n), 'notice');
    expect(small.size).to.equal(2);
  });

  it('keeps only snapshot answers without a _gateway member of their own', () => {
    const cache = new AnswerCache({ maxEntries: 10, maxChars: 1_000_000 });
    cache.put('live', payload(1, 'live'), 'n');
    cache.put('own', { ...payload(2), _gateway: {} } as EndpointPayload, 'n');
    expect(cache.size).to.equal(0);
    const kept = cache.put('ok', payload(3), 'n');
    expect(cache.get('ok')).to.equal(kept);
    expect(cache.headOf(kept)).to.equal(
      '{"n":3,"_attribution":"a","_provenance":{"kind":"snapshot","as_of":"2026-01-01","sources":[]},"_notice":"n"',
    );
  });
});
