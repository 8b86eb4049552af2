/**
 * The cache of deterministic answers (issue 18) changes no byte of any answer: every example of
 * every sold endpoint of a plugin set, on every surface, answers the same body from a gateway with
 * the cache (answered from the cache: the examples were asked once before) as from one without
 * it, the per-request parts (request id, surface) being the same on both sides. Run on the
 * kernel's fixtures (test/core/surfaces/answer-cache.test.ts) and on plugins/
 * (test/products/answer-cache.test.ts).
 */
import { expect } from 'chai';
import type { Request } from 'express';
import type { SurfaceName } from '../../../core/surfaces/execute';
import type { RegisteredPlugin } from '../../../core/plugins/registry';
import { startTestGateway, type TestGateway } from '../../support/gateway';
import { callTool, connectMcp } from '../../support/mcp-client';
import type { PluginSet } from '../../support/plugin-sets';

const SECRET = 'answer-cache-secret-0001';
const CLOCK = '2026-11-23T03:00:00Z';

export interface CachePair {
  cached: TestGateway;
  uncached: TestGateway;
}

function examplesOf(p: RegisteredPlugin): Array<Record<string, string>> {
  return p.manifest.examples.map((ex) =>
    Object.fromEntries(Object.entries(ex.query).map(([k, v]) => [k, String(v)])),
  );
}

/** `more` adds tests of the set's own to the same describe, on the same two gateways. */
export function describeAnswerCache(set: PluginSet, more?: (gateways: () => CachePair) => void): void {
  describe(`answer cache on ${set.label}: cached answers are byte-for-byte the uncached ones`, () => {
    let cached: TestGateway;
    let uncached: TestGateway;
    const keys = new Map<TestGateway, string>();

    before(async () => {
      const env = { MARKETPLACE_SECRETS: SECRET, TRIAL_CREDIT_MICRO_USDC: '100000000' };
      cached = await startTestGateway({ pluginDirs: set.pluginDirs, clock: CLOCK, env });
      uncached = await startTestGateway({
        pluginDirs: set.pluginDirs,
        clock: CLOCK,
        env,
        answerCache: false,
      });
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
      const answers = cached.gateway.executor.answers!;
      expect(answers.size).to.be.above(0);
      expect(uncached.gateway.executor.answers).to.equal(undefined);
      const optedIn = cached.gateway.registry
        .sold()
        .filter((p) => p.manifest.cacheableAnswers === true)
        .map((p) => p.endpointId);
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
        const answers = cached.gateway.executor.answers!;
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
      const executor = cached.gateway.executor;
      const plain = uncached.gateway.executor;
      const extras: Record<SurfaceName, Record<string, unknown>> = {
        preview: { preview: true, notice: 'n', production: { x402_url: 'u', mcp: { tool: 't' } } },
        marketplace: { marketplace: { segment: 'partner' } },
        x402: {
          payment: { payer: '0xabc', transaction: '0x01', amount_micro_usdc: 1000, network: 'eip155:8453' },
        },
        broker: {
          credit: {
            charged_micro_usdc: 1000,
            charged_usdc: '0.001',
            balance_micro_usdc: 5,
            balance_usdc: '0',
          },
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
              expect(
                executor.json(p, payload, surface, req, extras[surface], constant),
                p.endpointId,
              ).to.equal(expected);
            }
          }
          if (executor.answers!.headOf(payload) !== undefined) compared++;
        }
      }
      expect(compared, 'payloads answered from the cache').to.be.above(0);
    });

    more?.(() => ({ cached, uncached }));
  });
}
