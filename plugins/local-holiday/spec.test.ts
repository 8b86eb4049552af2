/**
 * The service spec (4.2) fixes this endpoint's tail and price: a buyer reaches it on the spec's
 * path on every surface and is charged the spec's price.
 */
import { expect } from 'chai';
import { startTestGateway, type TestGateway } from '../../test/support/gateway';
import manifest from './manifest';

const SPEC = { tail: 'local/holiday/jp', priceMicroUsdc: 1000, priceUsdc: '0.001' };

describe('local-holiday: the tail and price the spec fixes (4.2)', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({
      // An unpaid request is answered before any facilitator call: the address is never reached.
      env: { X402_PAY_TO: `0x${'1'.repeat(40)}`, X402_FACILITATOR_URL: 'http://127.0.0.1:9' },
      plugins: ['local-holiday'],
      clock: '2026-11-22T03:00:00Z',
    });
  });
  after(() => gw.close());

  it("answers its example on the spec's tail, priced as the spec says", async () => {
    const qs = new URLSearchParams(
      Object.entries(manifest.examples[0].query).map(([k, v]): [string, string] => [k, String(v)]),
    );
    const res = await gw.get(`/preview/v1/${SPEC.tail}?${qs}`);
    expect(res.status, res.text.slice(0, 200)).to.equal(200);
    expect(res.body._gateway).to.include({
      endpoint_id: 'local-holiday',
      price_micro_usdc: SPEC.priceMicroUsdc,
      price_usdc: SPEC.priceUsdc,
    });
  });

  it("asks the spec's price on the paid path", async () => {
    const res = await gw.get(`/v1/${SPEC.tail}`);
    expect(res.status).to.equal(402);
    expect(res.body.x402.accepts[0]).to.include({ maxAmountRequired: String(SPEC.priceMicroUsdc) });
  });
});
