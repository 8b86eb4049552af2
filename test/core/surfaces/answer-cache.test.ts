import { expect } from 'chai';
import type { Request } from 'express';
import { AnswerCache } from '../../../core/surfaces/answer-cache';
import type { SurfaceName } from '../../../core/surfaces/execute';
import type { EndpointPayload } from '../../../core/plugins/contract';
import type { RegisteredPlugin } from '../../../core/plugins/registry';
import { startTestGateway, type TestGateway } from '../../support/gateway';
import { callTool, connectMcp } from '../../support/mcp-client';

/**
 * The cache of deterministic answers (issue 18) changes no byte of any answer: every example of
 * every sold endpoint, on every surface, answers the same body from a gateway with the cache
 * (answered from the cache: the examples were asked once before) as from one without it, the
 * per-request parts (request id, surface) being the same on both sides.
 */

const SECRET = 'answer-cache-secret-0001';
const CLOCK = '2026-11-23T03:00:00Z';

function examplesOf(p: RegisteredPlugin): Array<Record<string, string>> {
  return p.manifest.examples.map((ex) =>
    Object.fromEntries(Object.entries(ex.query).map(([k, v]) => [k, String(v)])),
  );
}

describe('answer cache: cached answers are byte-for-byte the uncached ones', () => {
  let cached: TestGateway;
  let uncached: TestGateway;
  const keys = new Map<TestGateway, string>();

  before(async () => {
    const env = { MARKETPLACE_SECRETS: SECRET, TRIAL_CREDIT_MICRO_USDC: '100000000' };
    cached = await startTestGateway({ clock: CLOCK, env });
    uncached = await startTestGateway({ clock: CLOCK, env, answerCache: false });
    for (const gw of [cached, uncached]) {
      const created = await gw.post('/keys/create', { owner_label: 'answer cache' });
      keys.set(gw, created.body.api_key as string);
    }
    // Ask every example once, so that the comparisons below are answered from the cache.
    for (const p of cached.gateway.registry.sold()) {
      for (const q of examplesOf(p)) await cached.get(`/preview/v1/${p.tail}?${new URLSearchParams(q)}`);
    }
  });
  after(async () => {
    await cached?.close();
    await uncached?.close();
  });

  it('keeps answers of the plugins that opted in, and of no other', () => {
    const answers = cached.gateway.services.executor.answers!;
    expect(answers.size).to.be.above(0);
    expect(uncached.gateway.services.executor.answers).to.equal(undefined);
    const optedIn = cached.gateway.registry
      .sold()
      .filter((p) => p.manifest.cacheableAnswers === true)
      .map((p) => p.endpointId);
    expect(optedIn).to.include('local-holiday');
    for (const key of answers.keys()) expect(optedIn, key).to.include(key.split('\n')[0]);
  });

  const http: Record<
    string,
    (
      gw: TestGateway,
      p: RegisteredPlugin,
      q: Record<string, string>,
      id: string,
    ) => Promise<{ status: number; text: string }>
  > = {
    preview: (gw, p, q, id) =>
      gw.get(`/preview/v1/${p.tail}?${new URLSearchParams(q)}`, { 'X-Request-Id': id }),
    marketplace: (gw, p, q, id) =>
      gw.get(`/marketplace/partner/v1/${p.tail}?${new URLSearchParams(q)}`, {
        'X-Marketplace-Proxy-Secret': SECRET,
        'X-Request-Id': id,
      }),
    broker: (gw, p, q, id) =>
      gw.post(
        '/broker/call',
        { product_id: p.brokerId, query: q },
        { 'X-API-Key': keys.get(gw)!, 'X-Request-Id': id },
      ),
  };

  for (const [surface, call] of Object.entries(http)) {
    it(`${surface}: every example answers the same bytes with and without the cache`, async () => {
      const answers = cached.gateway.services.executor.answers!;
      const hitsBefore = answers.hits;
      let n = 0;
      for (const p of cached.gateway.registry.sold()) {
        for (const q of examplesOf(p)) {
          const id = `answer-cache-${surface}-${n++}`;
          const a = await call(cached, p, q, id);
          const b = await call(uncached, p, q, id);
          const where = `${p.endpointId} ${new URLSearchParams(q)}`;
          expect(a.status, `${where}: ${a.text.slice(0, 200)}`).to.equal(200);
          expect(a.status, where).to.equal(b.status);
          expect(a.text, where).to.equal(b.text);
        }
      }
      expect(answers.hits, 'answers served from the cache').to.be.above(hitsBefore);
    });
  }

  for (const [path, headers] of [
    ['/preview/mcp', {}],
    ['/mcp', { key: true }],
  ] as const) {
    it(`MCP ${path}: every example answers the same tool result with and without the cache`, async () => {
      const clientOf = (gw: TestGateway) =>
        connectMcp(gw, path, {
          'X-Request-Id': 'answer-cache-mcp',
          ...('key' in headers ? { 'X-API-Key': keys.get(gw)! } : {}),
        });
      const [a, b] = await Promise.all([clientOf(cached), clientOf(uncached)]);
      try {
        for (const p of cached.gateway.registry.sold()) {
          for (const q of p.manifest.examples.map((ex) => ex.query)) {
            const ra = await callTool(a, p.endpointId, q);
            const rb = await callTool(b, p.endpointId, q);
            expect(ra.isError, `${p.endpointId}: ${JSON.stringify(ra).slice(0, 200)}`).to.not.equal(true);
            expect(JSON.stringify(ra), p.endpointId).to.equal(JSON.stringify(rb));
          }
        }
      } finally {
        await a.close();
        await b.close();
      }
    });
  }

  it('every surface: the body built from the cache equals JSON.stringify of the envelope', async () => {
    const executor = cached.gateway.services.executor;
    const plain = uncached.gateway.services.executor;
    const extras: Record<SurfaceName, Record<string, unknown>> = {
      preview: { preview: true, notice: 'n', production: { x402_url: 'u', mcp: { tool: 't' } } },
      marketplace: { marketplace: { segment: 'partner' } },
      x402: {
        payment: { payer: '0xabc', transaction: '0x01', amount_micro_usdc: 1000, network: 'eip155:8453' },
      },
      broker: {
        credit: { charged_micro_usdc: 1000, charged_usdc: '0.001', balance_micro_usdc: 5, balance_usdc: '0' },
      },
      mcp: { transport: 'mcp', payment: { payer: '0xabc' } },
    };
    let compared = 0;
    for (const p of cached.gateway.registry.sold()) {
      for (const q of examplesOf(p)) {
        const req = { id: `req-"${compared}"\u2028`, query: q } as unknown as Request;
        const query = executor.parse(p, q);
        const payload = await executor.run(p, query, req);
        const fresh = await plain.run(p, plain.parse(p, q), req);
        for (const surface of Object.keys(extras) as SurfaceName[]) {
          for (const constant of [false, true]) {
            const expected = JSON.stringify(plain.envelope(p, fresh, surface, req, extras[surface]));
            expect(executor.json(p, payload, surface, req, extras[surface], constant), p.endpointId).to.equal(
              expected,
            );
          }
        }
        if (executor.answers!.headOf(payload) !== undefined) compared++;
      }
    }
    expect(compared, 'payloads answered from the cache').to.be.above(2);
  });

  it('does not keep an answer whose handler read the clock (a year left to today)', async () => {
    const answers = cached.gateway.services.executor.answers!;
    const res = await cached.get('/preview/v1/local/holiday/jp');
    expect(res.status).to.equal(200);
    expect(res.body.year_source).to.equal('default_current_year_asia_tokyo');
    expect([...answers.keys()].filter((k) => k.startsWith('local-holiday\n{}'))).to.deep.equal([]);
  });

  it('keeps cached payloads frozen, so that no surface can change what later calls get', async () => {
    const executor = cached.gateway.services.executor;
    const p = cached.gateway.registry.sold().find((x) => x.endpointId === 'local-holiday')!;
    const req = { id: 'x' } as unknown as Request;
    const payload = await executor.run(p, executor.parse(p, { year: '2026' }), req);
    expect(Object.isFrozen(payload)).to.equal(true);
    expect(Object.isFrozen((payload as unknown as { holidays: object[] }).holidays[0])).to.equal(true);
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
