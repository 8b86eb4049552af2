import { expect } from 'chai';
import { FIXTURE_PLUGINS_DIR, startTestGateway, type TestGateway } from '../../support/gateway';

describe('security headers', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ pluginDirs: [FIXTURE_PLUGINS_DIR], plugins: ['local-fx-echo'] });
  });
  after(() => gw.close());

  for (const path of [
    '/health',
    '/preview/v1/local/fx/echo?n=3',
    '/preview/v1/local/fx/echo?n=0',
    '/nope',
    '/portal',
  ]) {
    it(`${path}: no sniffing, no framing, no referrer`, async () => {
      const res = await gw.get(path);
      expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
      expect(res.headers.get('x-frame-options')).to.equal('DENY');
      expect(res.headers.get('referrer-policy')).to.equal('no-referrer');
      expect(res.headers.get('content-security-policy')).to.include("frame-ancestors 'none'");
      expect(res.headers.get('x-powered-by')).to.equal(null);
    });
  }

  it('API answers deny all active content; the portal allows only its own script and style', async () => {
    expect((await gw.get('/health')).headers.get('content-security-policy')).to.include("default-src 'none'");
    const portal = (await gw.get('/portal')).headers.get('content-security-policy') ?? '';
    expect(portal).to.include("script-src 'self'").and.include("style-src 'self'").and.not.include('unsafe');
  });

  it('nothing per-buyer is cacheable', async () => {
    const key = (await gw.post('/keys/create', { owner_label: 'cache' })).body.api_key;
    for (const res of [
      await gw.get('/keys/status', { 'X-API-Key': key }),
      await gw.post('/broker/call', { product_id: 'jp-local-pack-v1-fx-echo' }, { 'X-API-Key': key }),
      await gw.get('/health'),
    ]) {
      expect(res.headers.get('cache-control')).to.equal('no-store');
    }
    // The preview's deterministic answers are the same for everyone (docs/decisions.md, issue 29).
    expect((await gw.get('/preview/v1/local/fx/echo?n=3')).headers.get('cache-control')).to.equal(
      'public, max-age=300',
    );
  });
});
