/**
 * Inputs the fuzz test found served, charged or crashing (issue 15): each is refused with a stable
 * code, charges nothing, and never answers 5xx.
 */
import { expect } from 'chai';
import { startTestGateway, type TestGateway } from '../../support/gateway';

describe('odd input the fuzz test found', () => {
  let gw: TestGateway;
  let key: string;
  before(async () => {
    gw = await startTestGateway({
      plugins: ['local-holiday', 'enrich-name-normalize', 'enrich-company-batch'],
      env: { TRIAL_CREDIT_MICRO_USDC: '1000000' },
    });
    key = (await gw.post('/keys/create', { owner_label: 'odd input' })).body.api_key;
  });
  after(() => gw.close());

  it('a "__proto__" member in the broker query is an unknown parameter (422), not silently dropped and charged', async () => {
    const body = '{"product_id":"jp-local-pack-v1-holiday","query":{"year":2026,"__proto__":{"x":1}}}';
    const res = await fetch(`${gw.url}/broker/call`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': key },
      body,
    });
    expect(res.status).to.equal(422);
    const json = (await res.json()) as { correction_hints: Array<{ parameter: string; code: string }> };
    expect(json.correction_hints.map((h) => h.code)).to.include('unknown_parameter');
    const status = await gw.get('/keys/status', { 'X-API-Key': key });
    expect(status.body.balance.micro_usdc).to.equal(1000000);
  });

  it('a name of only U+0085 or zero-width characters is refused, not normalised to nothing', async () => {
    for (const blank of ['\u0085', '\u200b\u200c', '\u2060\ufeff']) {
      const res = await gw.get(`/preview/v1/enrich/name-normalize?name=${encodeURIComponent(blank)}`);
      expect(res.status, JSON.stringify(blank)).to.equal(422);
      const batch = await gw.get(`/preview/v1/enrich/company-batch?names=${encodeURIComponent(blank)}`);
      expect(batch.status, JSON.stringify(blank)).to.equal(422);
    }
  });

  it('feedback with "endpoint_id": null is read as no endpoint, not a 500', async () => {
    const res = await gw.post('/feedback', { product_id: 'jp-local-pack', endpoint_id: null, rating: 4 });
    expect(res.status).to.be.below(500);
    expect(res.body.error ?? 'accepted').to.not.equal('internal_error');
  });
});
