/**
 * Payment discovery on the kernel's fixture plugins (three products at three prices); the same
 * suite runs over plugins/ in test/products/payment-discovery.test.ts.
 */
import { expect } from 'chai';
import { compileErrors, validate } from '@readme/openapi-parser';
import { rmSync } from 'node:fs';
import { ECHO, fixtures } from '../../support/fx-endpoints';
import { startTestGateway, type TestGateway } from '../../support/gateway';
import { makePluginsDir, writeJsPlugin } from '../../support/js-plugin';
import { FIXTURE_PLUGINS } from '../../support/plugin-sets';
import { describePaymentDiscovery, PAY_TO } from './payment-discovery-suite';
import { USDC_ON_BASE } from '../payments/payer';

describePaymentDiscovery(FIXTURE_PLUGINS);

describe('payment discovery: CORS', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({
      ...fixtures(ECHO),
      env: { X402_PAY_TO: PAY_TO, X402_FACILITATOR_URL: 'http://127.0.0.1:9' },
    });
  });
  after(() => gw.close());

  it('answers a preflight for a paid path, allowing the payment headers', async () => {
    const res = await fetch(`${gw.url}/v1/${ECHO.tail}`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://buyer.example',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'x-payment,payment-signature,access-control-expose-headers',
      },
    });
    expect(res.status).to.equal(204);
    expect(res.headers.get('access-control-allow-origin')).to.equal('*');
    const allowed = res.headers.get('access-control-allow-headers')!.toLowerCase();
    for (const h of ['x-payment', 'payment-signature', 'access-control-expose-headers']) {
      expect(allowed).to.include(h);
    }
    expect(res.headers.get('access-control-allow-methods')).to.include('GET');
  });

  it('exposes the x402 response headers on the 402 and on preview answers', async () => {
    for (const path of [`/v1/${ECHO.tail}`, `/preview/v1/${ECHO.tail}?n=3`]) {
      const res = await gw.get(path, { Origin: 'https://buyer.example' });
      expect(res.headers.get('access-control-allow-origin'), path).to.equal('*');
      const exposed = res.headers.get('access-control-expose-headers')!.toLowerCase();
      for (const h of ['payment-required', 'payment-response', 'x-payment-response', 'x-request-id']) {
        expect(exposed, path).to.include(h);
      }
    }
  });
});

describe('payment discovery without a receiving wallet', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway(fixtures(ECHO));
  });
  after(() => gw.close());

  it('shows the spec 2.3 placeholder as payTo (the asset keeps its configured default) and says not_configured', async () => {
    const doc = (await gw.get('/openapi.json')).body;
    const terms = doc.paths[`/v1/${ECHO.tail}`].get['x-x402'];
    expect(terms.payTo).to.equal('<RECEIVING_WALLET_ADDRESS>');
    expect(terms.asset).to.equal(USDC_ON_BASE);
    const wellKnown = (await gw.get('/.well-known/x402')).body;
    expect(wellKnown.status).to.equal('not_configured');
    expect(wellKnown.endpoints[0].payTo).to.equal('<RECEIVING_WALLET_ADDRESS>');
    expect(wellKnown.instructions).to.match(/not configured/);
    expect((await gw.get('/supported')).body.status).to.equal('not_configured');
  });
});

describe('openapi.json for a plugin that documents its own 503', () => {
  it("merges the plugin's 503 with the paid and marketplace surfaces' 503 and stays valid", async () => {
    const dir = makePluginsDir();
    writeJsPlugin(dir, {
      folder: 'local-upstream',
      fields: {
        errors: "[{ status: 503, code: 'source_unavailable', description: 'The upstream is down' }]",
      },
    });
    const gw = await startTestGateway({
      pluginDirs: [dir],
      env: { X402_PAY_TO: PAY_TO, X402_FACILITATOR_URL: 'http://127.0.0.1:9' },
    });
    try {
      const doc = (await gw.get('/openapi.json')).body;
      const result = await validate(structuredClone(doc));
      expect(result.valid, result.valid ? '' : compileErrors(result)).to.equal(true);
      for (const path of ['/v1/local/upstream/echo', '/marketplace/partner/v1/local/upstream/echo']) {
        const r503 = doc.paths[path].get.responses['503'];
        expect(r503.description, path).to.match(/The upstream is down/);
        expect(r503.content['application/problem+json'].schema.anyOf, path).to.have.length(2);
      }
      expect(doc.paths['/preview/v1/local/upstream/echo'].get.responses['503'].description).to.match(
        /upstream is down/,
      );
    } finally {
      await gw.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
