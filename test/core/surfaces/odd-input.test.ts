/**
 * Inputs the fuzz test found served, charged or crashing (issue 15): each is refused with a stable
 * code, charges nothing, and never answers 5xx. Kernel test on the fixture echo; the refusal of
 * names made only of invisible characters is a rule of the name parameters themselves
 * (test/products/blank-text.test.ts).
 */
import { expect } from 'chai';
import { ECHO, fixtures } from '../../support/fx-endpoints';
import { startTestGateway, type TestGateway } from '../../support/gateway';

describe('odd input the fuzz test found', () => {
  let gw: TestGateway;
  let key: string;
  before(async () => {
    gw = await startTestGateway({ ...fixtures(ECHO), env: { TRIAL_CREDIT_MICRO_USDC: '1000000' } });
    key = (await gw.post('/keys/create', { owner_label: 'odd input' })).body.api_key;
  });
  after(() => gw.close());

  it('a "__proto__" member in the broker query is an unknown parameter (422), not silently dropped and charged', async () => {
    const body = `{"product_id":"${ECHO.brokerId}","query":{"n":3,"__proto__":{"x":1}}}`;
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

  it('feedback with "endpoint_id": null is read as no endpoint, not a 500', async () => {
    const res = await gw.post('/feedback', { product_id: 'jp-local-pack', endpoint_id: null, rating: 4 });
    expect(res.status).to.be.below(500);
    expect(res.body.error ?? 'accepted').to.not.equal('internal_error');
  });
});
