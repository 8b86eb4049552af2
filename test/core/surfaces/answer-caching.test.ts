/**
 * Caching and compression of answers and documents (issue 29, item 2), over real HTTP: a weak ETag
 * and a stated lifetime on deterministic answers, no-store on answers computed from the clock,
 * 304 on If-None-Match (free where the answer is free; on x402 never settled and never carrying
 * data), strong per-coding ETags on documents, answers compressed as Accept-Encoding asks.
 */
import { expect } from 'chai';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startFacilitatorStandin, type FacilitatorStandin } from '../../support/facilitator-standin';
import { DATED, ECHO, fixtures } from '../../support/fx-endpoints';
import { startTestGateway, type TestGateway } from '../../support/gateway';
import { rawGet, rawRequest } from '../../support/raw-http';
import { randomAddress, TestPayer, toBase64, usdcOnBase, type Terms } from '../payments/payer';

const NOW_ISO = '2026-11-22T03:00:00Z';
const NOW = Date.parse(NOW_ISO) / 1000;
const SECRET = 'marketplace-secret-for-caching-tests';
const TAG = /^W\/"[\w-]{22}"$/;

describe('caching and compression of answers and documents', () => {
  let standin: FacilitatorStandin;
  let gw: TestGateway;
  let terms: Terms;

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
        TRIAL_CREDIT_MICRO_USDC: '100000',
      },
    });
    terms = usdcOnBase(payTo);
  });
  after(async () => {
    await gw.close();
    await standin.close();
  });

  describe('on the preview', () => {
    const echo = `/preview/v1/${ECHO.tail}?n=3`;

    it('tags a deterministic answer by its data (the same tag on every call) and lets any cache keep it 5 minutes', async () => {
      const a = await gw.get(echo);
      const b = await gw.get(echo);
      expect(a.body._gateway.request_id).to.not.equal(b.body._gateway.request_id);
      expect(a.headers.get('etag')).to.match(TAG).and.equal(b.headers.get('etag'));
      expect(a.headers.get('cache-control')).to.equal('public, max-age=300');
      const other = await gw.get(`/preview/v1/${ECHO.tail}?n=4`);
      expect(other.headers.get('etag')).to.match(TAG).and.not.equal(a.headers.get('etag'));
    });

    it('answers 304 without a body to If-None-Match naming the answer (also in a list, weakly, or *)', async () => {
      const tag = (await gw.get(echo)).headers.get('etag')!;
      for (const inm of [tag, tag.slice(2), `"other", ${tag}`, '*']) {
        const res = await rawGet(`${gw.url}${echo}`, { 'If-None-Match': inm });
        expect(res.status, inm).to.equal(304);
        expect(res.body.length, inm).to.equal(0);
        expect(res.headers.etag, inm).to.equal(tag);
        expect(res.headers['cache-control'], inm).to.equal('public, max-age=300');
      }
      const stale = await gw.get(echo, { 'If-None-Match': 'W/"not-this-answer"' });
      expect(stale.status).to.equal(200);
      expect(stale.body.n).to.equal(3);
    });

    it('an answer computed from the clock is no-store, has no tag and is never answered 304', async () => {
      // Through node:http: fetch adds Cache-Control: no-cache to a conditional request.
      const res = await rawGet(`${gw.url}/preview/v1/${DATED.tail}`, { 'If-None-Match': '*' });
      expect(res.status).to.equal(200);
      expect(JSON.parse(res.body.toString('utf8')).year_source).to.equal('clock');
      expect(res.headers['cache-control']).to.equal('no-store');
      expect(res.headers.etag).to.equal(undefined);
      // The same endpoint with the year asked reads no clock: deterministic.
      const asked = await gw.get(`/preview/v1/${DATED.tail}?year=2026`);
      expect(asked.headers.get('etag')).to.match(TAG);
    });

    it('compresses an answer with br or gzip as Accept-Encoding asks, and says so in Vary', async () => {
      const path = `${gw.url}/preview/v1/${DATED.tail}?year=2026`;
      const plain = await rawGet(path);
      expect(plain.body.length).to.be.above(1024);
      expect(plain.headers['content-encoding']).to.equal(undefined);
      const br = await rawGet(path, { 'Accept-Encoding': 'gzip;q=0.5, br' });
      const gzip = await rawGet(path, { 'Accept-Encoding': 'gzip' });
      expect(br.headers['content-encoding']).to.equal('br');
      expect(gzip.headers['content-encoding']).to.equal('gzip');
      for (const res of [plain, br, gzip]) expect(String(res.headers.vary)).to.match(/Accept-Encoding/i);
      const months = (body: string) => (JSON.parse(body) as { months: unknown[] }).months;
      expect(months(brotliDecompressSync(br.body).toString('utf8'))).to.deep.equal(
        months(plain.body.toString('utf8')),
      );
      expect(months(gunzipSync(gzip.body).toString('utf8'))).to.have.length(12);
      expect(br.body.length).to.be.below(plain.body.length / 2);
    });
  });

  describe('on the paid surfaces', () => {
    it('x402: a payment sent with If-None-Match naming the answer gets a 304, is not settled and can be used again', async () => {
      const payer = new TestPayer();
      const path = `/v1/${ECHO.tail}?n=5`;
      const tag = (await gw.get(`/preview/v1/${ECHO.tail}?n=5`)).headers.get('etag')!;
      const header = toBase64(payer.v1(await payer.sign(terms, NOW)));
      const before = standin.calls.settle;
      const held = await rawGet(`${gw.url}${path}`, { 'X-PAYMENT': header, 'If-None-Match': tag });
      expect(held.status).to.equal(304);
      expect(held.body.length).to.equal(0);
      expect(held.headers['payment-response']).to.equal(undefined);
      expect(held.headers['cache-control']).to.equal('private, max-age=300');
      expect(standin.calls.settle).to.equal(before);
      // The same payment buys the answer once the buyer asks for it.
      const bought = await gw.get(path, { 'X-PAYMENT': header });
      expect(bought.status).to.equal(200);
      expect(bought.body.n).to.equal(5);
      expect(bought.headers.get('etag')).to.equal(tag);
      expect(bought.headers.get('cache-control')).to.equal('private, max-age=300');
      expect(standin.calls.settle).to.equal(before + 1);
    });

    it('x402: an unpaid request gets the 402 whatever its If-None-Match', async () => {
      const res = await gw.get(`/v1/${ECHO.tail}?n=5`, { 'If-None-Match': '*' });
      expect(res.status).to.equal(402);
    });

    it('marketplace: 304 after the secret check, private; without the secret If-None-Match changes nothing', async () => {
      const path = `/marketplace/partner/v1/${ECHO.tail}?n=3`;
      const full = await gw.get(path, { 'X-Marketplace-Proxy-Secret': SECRET });
      expect(full.headers.get('cache-control')).to.equal('private, max-age=300');
      const tag = full.headers.get('etag')!;
      expect(tag).to.match(TAG);
      const held = await gw.get(path, { 'X-Marketplace-Proxy-Secret': SECRET, 'If-None-Match': tag });
      expect(held.status).to.equal(304);
      expect((await gw.get(path, { 'If-None-Match': tag })).status).to.equal(401);
    });

    it('broker: a POST answer is charged and never tagged or kept, but compressed', async () => {
      const key = (await gw.post('/keys/create', { owner_label: 'caching' })).body.api_key as string;
      const res = await rawRequest(
        `${gw.url}/broker/call`,
        { 'X-API-Key': key, 'Content-Type': 'application/json', 'Accept-Encoding': 'br' },
        'POST',
        JSON.stringify({ product_id: DATED.brokerId, query: { year: 2026 } }),
      );
      expect(res.status).to.equal(200);
      expect(res.headers.etag).to.equal(undefined);
      expect(res.headers['cache-control']).to.equal('no-store');
      expect(res.headers['content-encoding']).to.equal('br');
      expect(JSON.parse(brotliDecompressSync(res.body).toString('utf8')).year).to.equal(2026);
    });
  });

  describe('documents', () => {
    it('carry a strong ETag per content coding and answer 304 to any coding of the same bytes', async () => {
      const url = `${gw.url}/openapi.json`;
      const plain = await rawGet(url);
      const br = await rawGet(url, { 'Accept-Encoding': 'br' });
      const plainTag = plain.headers.etag as string;
      expect(plainTag).to.match(/^"[\w-]{22}"$/);
      expect(br.headers.etag).to.equal(plainTag.replace(/"$/, '-br"'));
      // A cache holding the gzip copy revalidates with its own tag and is told to keep it.
      const gzipTag = plainTag.replace(/"$/, '-gzip"');
      const held = await rawGet(url, { 'Accept-Encoding': 'br', 'If-None-Match': gzipTag });
      expect(held.status).to.equal(304);
      expect(held.headers.etag).to.equal(gzipTag);
      expect(held.headers['cache-control']).to.equal('public, max-age=300');
      expect(held.body.length).to.equal(0);
      expect((await rawGet(url, { 'If-None-Match': '"changed"' })).status).to.equal(200);
    });
  });
});
