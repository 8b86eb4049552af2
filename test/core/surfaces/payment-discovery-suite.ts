/**
 * Payment terms in /.well-known/x402, /supported and openapi.json, for every sold endpoint of a
 * plugin set: on the kernel's fixtures (test/core/surfaces/payment-discovery.test.ts) and on
 * plugins/ (test/products/payment-discovery.test.ts). Everything is derived from the registry.
 */
import { expect } from 'chai';
import { compileErrors, validate } from '@readme/openapi-parser';
import { USDC_ON_BASE } from '../payments/payer';
import { startTestGateway, type TestGateway } from '../../support/gateway';
import type { PluginSet } from '../../support/plugin-sets';

export const PAY_TO = '0x209693Bc6afc0C5328bA36FaF03C514EF312287C';

export function describePaymentDiscovery(set: PluginSet): void {
  describe(`payment discovery of ${set.label}: /.well-known/x402, /supported, openapi.json`, () => {
    let gw: TestGateway;
    before(async () => {
      gw = await startTestGateway({
        pluginDirs: set.pluginDirs,
        env: {
          X402_PAY_TO: PAY_TO,
          X402_FACILITATOR_URL: 'http://127.0.0.1:9',
          MARKETPLACE_SECRETS: 'a-marketplace-secret-123',
        },
      });
    });
    after(() => gw.close());

    describe('GET /.well-known/x402', () => {
      it('lists every public-sold endpoint with its payment terms, derived from the registry', async () => {
        const res = await gw.get('/.well-known/x402');
        expect(res.status).to.equal(200);
        const sold = gw.gateway.registry.sold();
        expect(sold.length, 'sold endpoints').to.be.above(0);
        expect(res.body.status).to.equal('live');
        expect(res.body.endpoints).to.have.length(sold.length);
        for (const p of sold) {
          const e = res.body.endpoints.find((x: { endpoint_id: string }) => x.endpoint_id === p.endpointId);
          expect(e, p.endpointId).to.deep.equal({
            method: 'GET',
            path: `/v1/${p.tail}`,
            url: `http://gateway.test/v1/${p.tail}`,
            product_id: p.product.id,
            endpoint_id: p.endpointId,
            network: 'eip155:8453',
            asset: USDC_ON_BASE,
            payTo: PAY_TO,
            scheme: 'exact',
            amount_micro_usdc: String(p.priceMicroUsdc),
            price_usdc: p.priceUsd,
            preview_url: `http://gateway.test/preview/v1/${p.tail}`,
            description: p.manifest.summary,
            mimeType: 'application/json',
            maxTimeoutSeconds: 300,
            extra: { name: 'USD Coin', version: '2' },
          });
        }
      });

      it('carries the fields x402 crawlers read: version, resources as "GET /v1/..." strings, instructions', async () => {
        const res = await gw.get('/.well-known/x402');
        expect(res.body.version).to.equal(1);
        expect(res.body.resources).to.deep.equal(gw.gateway.registry.sold().map((p) => `GET /v1/${p.tail}`));
        expect(res.body.instructions)
          .to.match(/402/)
          .and.match(/X-PAYMENT/);
        expect(res.body.payment).to.include({ payTo: PAY_TO, network: 'eip155:8453', asset: USDC_ON_BASE });
        expect(res.headers.get('access-control-allow-origin')).to.equal('*');
      });
    });

    it('GET /supported gives the same facts as x402 scanners read them, for every endpoint', async () => {
      const res = await gw.get('/supported');
      expect(res.status).to.equal(200);
      expect(res.body.kinds).to.deep.equal([
        { x402Version: 2, scheme: 'exact', network: 'eip155:8453' },
        { x402Version: 1, scheme: 'exact', network: 'base' },
      ]);
      const sold = gw.gateway.registry.sold();
      expect(res.body.resources).to.have.length(sold.length);
      for (const p of sold) {
        const r = res.body.resources.find(
          (x: { resource: string }) => x.resource === `http://gateway.test/v1/${p.tail}`,
        );
        expect(r, p.endpointId).to.include({ type: 'http', x402Version: 2 });
        expect(r.accepts, p.endpointId).to.deep.equal([
          {
            scheme: 'exact',
            network: 'eip155:8453',
            amount: String(p.priceMicroUsdc),
            asset: USDC_ON_BASE,
            payTo: PAY_TO,
            maxTimeoutSeconds: 300,
            extra: { name: 'USD Coin', version: '2' },
          },
        ]);
        expect(r.metadata, p.endpointId).to.include({ method: 'GET', endpoint_id: p.endpointId });
      }
    });

    describe('openapi.json', () => {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      let doc: any;
      before(async () => {
        doc = (await gw.get('/openapi.json')).body;
      });

      it('stays a valid OpenAPI 3.1 document with the paid and marketplace operations', async () => {
        const result = await validate(structuredClone(doc));
        expect(result.valid, result.valid ? '' : compileErrors(result)).to.equal(true);
      });

      it('has three data operations per sold endpoint (preview, x402, marketplace), all derived from the registry', () => {
        const sold = gw.gateway.registry.sold();
        const dataOps = Object.values(doc.paths).flatMap((item) =>
          Object.values(item as Record<string, { 'x-endpoint-id'?: string }>).filter(
            (op) => op['x-endpoint-id'],
          ),
        );
        expect(dataOps).to.have.length(3 * sold.length);
        for (const p of sold) {
          expect(doc.paths[`/preview/v1/${p.tail}`]?.get, p.tail).to.be.an('object');
          expect(doc.paths[`/v1/${p.tail}`]?.get, p.tail).to.be.an('object');
          expect(doc.paths[`/marketplace/partner/v1/${p.tail}`]?.get, p.tail).to.be.an('object');
        }
      });

      it('gives every data operation x-x402 (spec 2.3) with the surface it applies to: the paid path', () => {
        for (const p of gw.gateway.registry.sold()) {
          const terms = {
            amount_micro_usdc: String(p.priceMicroUsdc),
            price_usdc: p.priceUsd,
            network: 'eip155:8453',
            asset: USDC_ON_BASE,
            payTo: PAY_TO,
            scheme: 'exact',
            preview_url: `/preview/v1/${p.tail}`,
            mimeType: 'application/json',
            surface: 'x402',
            resource: `/v1/${p.tail}`,
          };
          for (const path of [`/v1/${p.tail}`, `/preview/v1/${p.tail}`, `/marketplace/partner/v1/${p.tail}`])
            expect(doc.paths[path].get['x-x402'], path).to.deep.equal(terms);
        }
      });

      it('gives paid operations the configured terms and the 402/503 responses', () => {
        for (const p of gw.gateway.registry.sold()) {
          const op = doc.paths[`/v1/${p.tail}`].get;
          expect(op['x-product-id']).to.equal(p.product.id);
          expect(op['x-lifecycle']).to.equal('paid_open');
          expect(op.responses['402'].content['application/json'].schema.$ref).to.equal(
            '#/components/schemas/PaymentRequired',
          );
          expect(op.responses['402'].headers).to.have.keys(
            'Accept-Payment',
            'X-Payment-Currency',
            'X-Payment-Network',
            'X-Payment-Info',
            'PAYMENT-REQUIRED',
          );
          expect(op.responses['503']).to.be.an('object');
          expect(op.responses['422']).to.be.an('object');
          // The payment headers are the x402 security schemes, not parameters.
          expect(op.security).to.deep.equal([{ x402: [] }, { x402PaymentSignature: [] }]);
          expect(op.parameters.map((x: { name: string }) => x.name)).not.to.include('X-PAYMENT');
        }
        expect(doc.components.securitySchemes.x402).to.include({
          type: 'apiKey',
          in: 'header',
          name: 'X-PAYMENT',
        });
        expect(doc.components.schemas.PaymentRequired.properties.x402.properties.accepts.items.$ref).to.equal(
          '#/components/schemas/PaymentRequirement',
        );
      });

      it('marks marketplace operations x-sales-channel: marketplace_partner with 401/403/503', () => {
        for (const p of gw.gateway.registry.sold()) {
          const op = doc.paths[`/marketplace/partner/v1/${p.tail}`].get;
          expect(op['x-sales-channel']).to.equal('marketplace_partner');
          expect(op['x-x402']).to.include({ surface: 'x402', resource: `/v1/${p.tail}` });
          for (const status of ['401', '403', '503', '422'])
            expect(op.responses[status], status).to.be.an('object');
          expect(
            op.responses['401'].content['application/problem+json'].schema.allOf[1].properties.error.enum,
          ).to.deep.equal(['marketplace_proxy_secret_required']);
          expect(op.security).to.deep.equal([
            { MarketplaceProxySecret: [] },
            { ServiceMarketplaceSecret: [] },
          ]);
        }
      });

      it('describes the discovery routes', () => {
        expect(doc.paths['/.well-known/x402'].get).to.be.an('object');
        expect(doc.paths['/supported'].get).to.be.an('object');
      });
    });
  });
}
