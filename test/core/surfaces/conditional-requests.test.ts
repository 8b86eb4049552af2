/**
 * Conditional requests never spend money (issue 34, item 2), over real HTTP. On every surface that
 * sells an answer (x402, marketplace, broker, MCP with key credit and with x402 in `_meta`) and on
 * the preview: If-None-Match `*`, the answer's weak tag, the same tag written strong, and a wrong
 * tag, on an answer that has an ETag (echo: deterministic) and on one that has none (dated without
 * a year: computed from the clock). What a buyer relies on: a 304 only where the answer has a tag
 * the condition names, and then before anything is settled or charged, so the same payment buys
 * the answer later; every 200 after a settlement or a charge carries the data.
 *
 * Requests go out through node:http as a buyer's client sends them: fetch adds
 * `Cache-Control: no-cache` to a conditional request, which hid Express's own 304 from tests.
 */
import { expect } from 'chai';
import { startFacilitatorStandin, type FacilitatorStandin } from '../../support/facilitator-standin';
import { DATED, ECHO, fixtures, type FxEndpoint } from '../../support/fx-endpoints';
import { startTestGateway, type TestGateway } from '../../support/gateway';
import { startTestChain, type TestChain } from '../../support/local-chain';
import { rawRequest, type RawResponse } from '../../support/raw-http';
import { randomAddress, TestPayer, toBase64, usdcOnBase, type Terms } from '../payments/payer';

const NOW_ISO = '2026-11-22T03:00:00Z';
const NOW = Date.parse(NOW_ISO) / 1000;
const SECRET = 'marketplace-secret-for-conditional-tests';
const MCP_ACCEPT = 'application/json, text/event-stream';

interface Answer {
  name: string;
  endpoint: FxEndpoint;
  /** The query string of the GET paths, and the same query as the broker's and MCP's JSON. */
  query: string;
  json: Record<string, unknown>;
  /** Whether the answer carries an ETag (a deterministic answer). */
  tagged: boolean;
  /** Checks a body holds this answer's data. */
  holdsData(body: Record<string, unknown>): void;
}

const TAGGED: Answer = {
  name: 'an answer with an ETag',
  endpoint: ECHO,
  query: 'n=7',
  json: { n: 7 },
  tagged: true,
  holdsData: (body) => expect(body.n).to.equal(7),
};
const UNTAGGED: Answer = {
  name: 'an answer without an ETag',
  endpoint: DATED,
  query: '',
  json: {},
  tagged: false,
  holdsData: (body) => {
    expect(body.year_source).to.equal('clock');
    expect(body.months).to.have.length(12);
  },
};

interface Condition {
  name: string;
  /** The If-None-Match sent, given the tag the buyer holds for the endpoint. */
  header(tag: string): string;
  /** Whether it names the current answer when that answer has a tag. */
  names: boolean;
}

const CONDITIONS: Condition[] = [
  { name: '*', header: () => '*', names: true },
  { name: 'a weak tag', header: (tag) => tag, names: true },
  { name: 'a strong tag', header: (tag) => tag.replace(/^W\//, ''), names: true },
  { name: 'a wrong tag', header: () => 'W/"not-this-answer"', names: false },
];

/** 304 only where the answer has a tag and the condition names it. */
const notModified = (a: Answer, c: Condition) => a.tagged && c.names;

function bodyOf(res: RawResponse): Record<string, unknown> {
  expect(res.body.length, 'a 200 carries the data').to.be.above(0);
  return JSON.parse(res.body.toString('utf8')) as Record<string, unknown>;
}

describe('conditional requests never spend money (issue 34, item 2)', () => {
  let standin: FacilitatorStandin;
  let gw: TestGateway;
  let terms: Terms;
  /** The tag a buyer holds per endpoint: the answer's own (echo), or another query's (dated). */
  const held = new Map<FxEndpoint, string>();

  before(async () => {
    standin = await startFacilitatorStandin({ now: () => NOW });
    const payTo = randomAddress();
    gw = await startTestGateway({
      ...fixtures(ECHO, DATED),
      clock: NOW_ISO,
      env: {
        X402_PAY_TO: payTo,
        X402_FACILITATOR_URL: standin.url,
        MARKETPLACE_SECRETS: SECRET,
        TRIAL_CREDIT_MICRO_USDC: '1000000',
      },
    });
    terms = usdcOnBase(payTo);
    held.set(ECHO, (await gw.get(`/preview/v1/${ECHO.tail}?n=7`)).headers.get('etag')!);
    // The dated answer from the clock has no tag; a buyer may hold the tag of the year it asked.
    held.set(DATED, (await gw.get(`/preview/v1/${DATED.tail}?year=2026`)).headers.get('etag')!);
    for (const tag of held.values()) expect(tag).to.match(/^W\/"[\w-]{22}"$/);
  });
  after(async () => {
    await gw.close();
    await standin.close();
  });
  beforeEach(() => {
    standin.settleBehaviour = 'normal';
  });

  const get = (path: string, headers: Record<string, string>, method = 'GET') =>
    rawRequest(`${gw.url}${path}`, headers, method);
  const pathOf = (prefix: string, a: Answer) => `${prefix}/${a.endpoint.tail}${a.query ? `?${a.query}` : ''}`;
  const ifNoneMatch = (a: Answer, c: Condition) => ({ 'If-None-Match': c.header(held.get(a.endpoint)!) });

  /** An x402 v1 payment header for the answer's price, signed by `payer`. */
  const paymentFor = async (payer: TestPayer, a: Answer) =>
    toBase64(payer.v1(await payer.sign({ ...terms, price: a.endpoint.price }, NOW)));

  describe('x402 GET /v1', () => {
    for (const a of [TAGGED, UNTAGGED]) {
      for (const c of CONDITIONS) {
        const expected = notModified(a, c) ? 304 : 200;
        it(`${a.name}, If-None-Match ${c.name}: ${expected === 304 ? '304 before any settlement, the payment still good' : '200 with the data, settled once'}`, async () => {
          const payer = new TestPayer();
          const payment = await paymentFor(payer, a);
          const settles = standin.calls.settle;
          const res = await get(pathOf('/v1', a), { 'X-PAYMENT': payment, ...ifNoneMatch(a, c) });
          expect(res.status).to.equal(expected);
          if (expected === 304) {
            expect(res.body.length).to.equal(0);
            expect(res.headers.etag).to.equal(held.get(a.endpoint));
            expect(res.headers['payment-response']).to.equal(undefined);
            expect(standin.calls.settle, 'no settle call').to.equal(settles);
            expect(standin.transfersFrom(payer.address)).to.have.length(0);
            // The payment was not used: sent again, it buys the answer.
            const bought = await get(pathOf('/v1', a), { 'X-PAYMENT': payment });
            expect(bought.status).to.equal(200);
            a.holdsData(bodyOf(bought));
          } else {
            a.holdsData(bodyOf(res));
            expect(res.headers['payment-response']).to.be.a('string');
            expect(res.headers.etag).to.equal(a.tagged ? held.get(a.endpoint) : undefined);
            expect(res.headers['cache-control']).to.equal(a.tagged ? 'private, max-age=300' : 'no-store');
          }
          expect(standin.transfersFrom(payer.address)).to.have.length(1);
        });
      }
    }

    it('a HEAD with a payment and If-None-Match * gets the 402 challenge; nothing is settled', async () => {
      const payer = new TestPayer();
      const settles = standin.calls.settle;
      for (const a of [TAGGED, UNTAGGED]) {
        const res = await get(
          pathOf('/v1', a),
          { 'X-PAYMENT': await paymentFor(payer, a), 'If-None-Match': '*' },
          'HEAD',
        );
        expect(res.status).to.equal(402);
      }
      expect(standin.calls.settle).to.equal(settles);
    });

    describe('an answer given again to a payment identifier is never a 304', () => {
      for (const a of [TAGGED, UNTAGGED]) {
        for (const c of CONDITIONS) {
          it(`${a.name}, the repeat sent with If-None-Match ${c.name}: 200 with the data, settled once`, async () => {
            const payer = new TestPayer();
            const signed = await payer.sign({ ...terms, price: a.endpoint.price }, NOW);
            const path = pathOf('/v1', a);
            const payload = {
              ...payer.v2(
                signed,
                { ...terms, price: a.endpoint.price },
                `http://gateway.test${path.split('?')[0]}`,
              ),
              extensions: { 'payment-identifier': { info: { id: `pay_${payer.address.slice(2, 26)}` } } },
            };
            const payment = { 'PAYMENT-SIGNATURE': toBase64(payload) };
            const first = await get(path, payment);
            expect(first.status).to.equal(200);
            // The buyer lost that answer and asks again, holding (it says) some tag.
            const again = await get(path, { ...payment, ...ifNoneMatch(a, c) });
            expect(again.status).to.equal(200);
            expect(again.headers['idempotent-replayed']).to.equal('true');
            a.holdsData(bodyOf(again));
            expect(standin.transfersFrom(payer.address)).to.have.length(1);
          });
        }
      }
    });

    it('a redemption after a settlement whose answer was lost is never a 304, even naming the tag it holds', async () => {
      const payer = new TestPayer();
      const payment = await paymentFor(payer, TAGGED);
      standin.settleBehaviour = 'settle_then_pending';
      const first = await get(pathOf('/v1', TAGGED), { 'X-PAYMENT': payment });
      expect(first.status).to.equal(503);
      const pending = bodyOf(first);
      expect(pending.error).to.equal('settlement_pending');
      expect(standin.transfersFrom(payer.address)).to.have.length(1);
      standin.settleBehaviour = 'normal';
      const retry = await get(pathOf('/v1', TAGGED), {
        'X-PAYMENT': payment,
        'Payment-Redemption-Ticket': String(pending.redemption_ticket),
        'If-None-Match': held.get(ECHO)!,
      });
      expect(retry.status).to.equal(200);
      const body = bodyOf(retry);
      TAGGED.holdsData(body);
      expect((body._gateway as { payment: { transaction: string } }).payment.transaction).to.equal(
        pending.transaction,
      );
      expect(standin.transfersFrom(payer.address)).to.have.length(1);
    });
  });

  describe('marketplace GET /marketplace/{segment}/v1 and the free preview', () => {
    const surfaces: Array<{ name: string; prefix: string; headers: Record<string, string> }> = [
      {
        name: 'marketplace',
        prefix: '/marketplace/partner/v1',
        headers: { 'X-Marketplace-Proxy-Secret': SECRET },
      },
      { name: 'preview', prefix: '/preview/v1', headers: {} },
    ];
    for (const s of surfaces) {
      for (const a of [TAGGED, UNTAGGED]) {
        for (const c of CONDITIONS) {
          const expected = notModified(a, c) ? 304 : 200;
          it(`${s.name}: ${a.name}, If-None-Match ${c.name}: ${expected}${expected === 200 ? ' with the data' : ''}, GET and HEAD alike`, async () => {
            const headers = { ...s.headers, ...ifNoneMatch(a, c) };
            const res = await get(pathOf(s.prefix, a), headers);
            expect(res.status).to.equal(expected);
            if (expected === 304) expect(res.body.length).to.equal(0);
            else a.holdsData(bodyOf(res));
            const head = await get(pathOf(s.prefix, a), headers, 'HEAD');
            expect(head.status).to.equal(expected);
            expect(head.body.length).to.equal(0);
            expect(head.headers.etag).to.equal(a.tagged ? held.get(a.endpoint) : undefined);
          });
        }
      }
    }
  });

  describe('key credit: POST /broker/call and MCP tools/call ignore If-None-Match (a POST is never a 304)', () => {
    const newKey = async () =>
      (await gw.post('/keys/create', { owner_label: 'conditional requests' })).body.api_key as string;
    const balanceOf = async (key: string) =>
      (await gw.get('/keys/status', { 'X-API-Key': key })).body.balance.micro_usdc as number;
    const post = (path: string, headers: Record<string, string>, body: unknown) =>
      rawRequest(
        `${gw.url}${path}`,
        { 'Content-Type': 'application/json', ...headers },
        'POST',
        JSON.stringify(body),
      );

    for (const a of [TAGGED, UNTAGGED]) {
      for (const c of CONDITIONS) {
        it(`broker: ${a.name}, If-None-Match ${c.name}: 200 with the data, charged once`, async () => {
          const key = await newKey();
          const before = await balanceOf(key);
          const res = await post(
            '/broker/call',
            { 'X-API-Key': key, ...ifNoneMatch(a, c) },
            { product_id: a.endpoint.brokerId, query: a.json },
          );
          expect(res.status).to.equal(200);
          a.holdsData(bodyOf(res));
          expect(res.headers['x-credit-charged-micro-usdc']).to.equal(String(a.endpoint.price));
          expect(res.headers.etag).to.equal(undefined);
          expect(await balanceOf(key)).to.equal(before - a.endpoint.price);
        });

        it(`MCP with key credit: ${a.name}, If-None-Match ${c.name}: the data, charged once`, async () => {
          const key = await newKey();
          const before = await balanceOf(key);
          const res = await post(
            '/mcp',
            { Accept: MCP_ACCEPT, 'X-API-Key': key, ...ifNoneMatch(a, c) },
            toolCall(a),
          );
          expect(res.status).to.equal(200);
          const result = toolResult(res);
          expect(result.isError, JSON.stringify(result)).to.not.equal(true);
          a.holdsData(result.structuredContent);
          expect(await balanceOf(key)).to.equal(before - a.endpoint.price);
        });

        it(`MCP with x402 in _meta: ${a.name}, If-None-Match ${c.name}: the data, settled once`, async () => {
          const payer = new TestPayer();
          const price = { ...terms, price: a.endpoint.price };
          const payment = payer.v2(
            await payer.sign(price, NOW),
            price,
            `mcp://tool/${a.endpoint.endpointId}`,
          );
          const res = await post(
            '/mcp',
            { Accept: MCP_ACCEPT, ...ifNoneMatch(a, c) },
            toolCall(a, { 'x402/payment': payment }),
          );
          expect(res.status).to.equal(200);
          const result = toolResult(res);
          expect(result.isError, JSON.stringify(result)).to.not.equal(true);
          a.holdsData(result.structuredContent);
          expect(standin.transfersFrom(payer.address)).to.have.length(1);
        });
      }
    }

    const toolCall = (a: Answer, meta?: Record<string, unknown>) => ({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: a.endpoint.endpointId, arguments: a.json, ...(meta ? { _meta: meta } : {}) },
    });
    const toolResult = (res: RawResponse) =>
      (bodyOf(res) as { result: { isError?: boolean; structuredContent: Record<string, unknown> } }).result;
  });

  describe('x402 on the local chain (self-hosted settlement moving real tokens)', function () {
    this.timeout(60_000);
    let chain: TestChain;
    let onChain: TestGateway;
    before(async () => {
      chain = await startTestChain();
      onChain = await startTestGateway({ ...fixtures(ECHO, DATED), env: chain.gatewayEnv() });
    });
    after(async () => {
      await onChain?.close();
      await chain?.close();
    });

    /** A funded buyer's payment (v2) for the answer, signed now. */
    async function chainPayment(payer: TestPayer, a: Answer): Promise<Record<string, string>> {
      await chain.fund(payer.address, '1');
      const t: Terms = {
        network: chain.info.network,
        chainId: chain.info.chain_id,
        asset: chain.info.asset,
        payTo: chain.info.pay_to,
        price: a.endpoint.price,
        name: chain.info.asset_name,
        version: chain.info.asset_version,
        maxTimeoutSeconds: 300,
      };
      const signed = await payer.sign(t, Math.floor(Date.now() / 1000));
      return {
        'PAYMENT-SIGNATURE': toBase64(payer.v2(signed, t, `http://gateway.test/v1/${a.endpoint.tail}`)),
      };
    }
    const send = (a: Answer, headers: Record<string, string>) =>
      rawRequest(`${onChain.url}${pathOf('/v1', a)}`, headers);
    const transfersFrom = async (payer: TestPayer) =>
      (await chain.transfersTo(chain.info.pay_to)).filter(
        (t) => t.from.toLowerCase() === payer.address.toLowerCase(),
      );

    it('If-None-Match naming an answer with an ETag: 304 and no token moved; the same payment then buys it', async () => {
      const tag = (await onChain.get(`/preview/v1/${ECHO.tail}?n=7`)).headers.get('etag')!;
      for (const inm of ['*', tag]) {
        const payer = new TestPayer();
        const payment = await chainPayment(payer, TAGGED);
        const before = await chain.balance(payer.address);
        const held = await send(TAGGED, { ...payment, 'If-None-Match': inm });
        expect(held.status, inm).to.equal(304);
        expect(held.body.length).to.equal(0);
        expect(await chain.balance(payer.address)).to.equal(before);
        expect(await transfersFrom(payer)).to.have.length(0);
        const bought = await send(TAGGED, payment);
        expect(bought.status).to.equal(200);
        TAGGED.holdsData(bodyOf(bought));
        expect(await chain.balance(payer.address)).to.equal(before - BigInt(ECHO.price));
        expect(await transfersFrom(payer)).to.have.length(1);
      }
    });

    it('If-None-Match * on an answer without an ETag: 200 with the data and one transfer', async () => {
      const payer = new TestPayer();
      const payment = await chainPayment(payer, UNTAGGED);
      const before = await chain.balance(payer.address);
      const res = await send(UNTAGGED, { ...payment, 'If-None-Match': '*' });
      expect(res.status).to.equal(200);
      UNTAGGED.holdsData(bodyOf(res));
      expect(await chain.balance(payer.address)).to.equal(before - BigInt(DATED.price));
      expect(await transfersFrom(payer)).to.have.length(1);
    });
  });

  describe('no answer goes out through Express’s own freshness check', () => {
    it('If-None-Match * on GET answers without a tag (key status, readiness) gets them whole', async () => {
      const key = (await gw.post('/keys/create', { owner_label: 'conditional requests' })).body
        .api_key as string;
      for (const [path, headers] of [
        ['/keys/status', { 'X-API-Key': key }],
        ['/health/ready', {}],
      ] as const) {
        const res = await get(path, { ...headers, 'If-None-Match': '*' });
        expect(res.status, path).to.equal(200);
        expect(bodyOf(res), path).to.be.an('object');
      }
    });

    it('a document with a tag still answers 304 to * and to its tag (the gateway’s own check)', async () => {
      const doc = await get('/openapi.json', {});
      for (const inm of ['*', String(doc.headers.etag)]) {
        const res = await get('/openapi.json', { 'If-None-Match': inm });
        expect(res.status, inm).to.equal(304);
        expect(res.body.length).to.equal(0);
      }
    });
  });
});
