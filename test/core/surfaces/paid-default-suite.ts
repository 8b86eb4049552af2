/**
 * What an unpaid, keyless request to every paid path answers, for every sold endpoint of a plugin
 * set: where x402 is configured, the 402 challenge (with the query's problems when the query is
 * invalid, as crawlers probe paid paths without parameters); where it is not, 503
 * payments_not_configured, whatever the query, and never a 402. Run on the kernel's fixtures
 * (test/core/surfaces/paid-default.test.ts) and on plugins/ (test/products/paid-default.test.ts).
 */
import { expect } from 'chai';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { queryString } from '../../../core/discovery/describe';
import { randomAddress } from '../payments/payer';
import { startTestGateway, type TestGateway } from '../../support/gateway';
import type { PluginSet } from '../../support/plugin-sets';

export function describePaidDefault(set: PluginSet): void {
  describe(`the paid path of every endpoint of ${set.label}, unpaid and keyless`, () => {
    let configured: TestGateway;
    let unconfigured: TestGateway;
    const payTo = randomAddress();
    before(async () => {
      configured = await startTestGateway({
        pluginDirs: set.pluginDirs,
        // Never called: an unpaid request is challenged before any facilitator is asked.
        env: { X402_PAY_TO: payTo, X402_FACILITATOR_URL: 'http://127.0.0.1:9' },
      });
      unconfigured = await startTestGateway({ pluginDirs: set.pluginDirs });
    });
    after(async () => {
      await configured?.close();
      await unconfigured?.close();
    });

    it('with x402 configured: 402 with the payment requirements at the endpoint price, also for an invalid query (with its problems)', async () => {
      const sold = configured.gateway.registry.sold();
      expect(sold.length, 'sold endpoints').to.be.above(0);
      for (const p of sold) {
        const example = `/v1/${p.tail}${queryString(p.manifest.examples[0]!.query)}`;
        const required = p.query.params.filter((q) => q.required).map((q) => q.name);
        for (const path of [example, `/v1/${p.tail}`]) {
          const res = await configured.get(path);
          expect(res.status, path).to.equal(402);
          expect(res.body.error, path).to.equal('payment_required');
          const header = res.headers.get('payment-required');
          expect(header, path).to.be.a('string');
          const pr = decodePaymentRequiredHeader(header!);
          expect(pr.x402Version, path).to.equal(2);
          expect(pr.accepts[0], path).to.include({
            amount: String(p.priceMicroUsdc),
            payTo,
            scheme: 'exact',
          });
          if (path === example || required.length === 0) {
            expect(res.body, path).to.not.have.property('correction_hints');
          } else {
            const hinted = (res.body.correction_hints as Array<{ parameter: string; code: string }>).filter(
              (h) => h.code === 'missing_required',
            );
            expect(
              hinted.map((h) => h.parameter),
              path,
            ).to.have.members(required);
          }
        }
      }
    });

    it('without x402: 503 payments_not_configured for every query, naming the settings; never a 402 or its headers', async () => {
      for (const p of unconfigured.gateway.registry.sold()) {
        const example = `/v1/${p.tail}${queryString(p.manifest.examples[0]!.query)}`;
        for (const path of [example, `/v1/${p.tail}`]) {
          const res = await unconfigured.get(path);
          expect(res.status, path).to.equal(503);
          expect(res.body.error, path).to.equal('payments_not_configured');
          expect(res.body.endpoint_id, path).to.equal(p.endpointId);
          expect(res.body.runbook.missing, path).to.deep.equal(['X402_PAY_TO', 'X402_FACILITATOR_URL']);
          expect(res.headers.get('payment-required'), path).to.equal(null);
          expect(res.headers.get('accept-payment'), path).to.equal(null);
        }
      }
    });
  });
}
