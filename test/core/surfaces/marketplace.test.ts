import { expect } from 'chai';
import { MarketplaceSecretGuard } from '../../../core/surfaces/marketplace';
import { ECHO, fixtures } from '../../support/fx-endpoints';
import { startTestGateway, type TestGateway } from '../../support/gateway';

const OLD = 'old-secret-0123456789abcdef';
const NEW = 'new-secret-fedcba9876543210';
const PATH = `/marketplace/partner/v1/${ECHO.tail}?n=3`;

describe('marketplace surface /marketplace/{segment}/v1/{tail}', () => {
  describe('without a configured secret', () => {
    let gw: TestGateway;
    before(async () => {
      gw = await startTestGateway({ ...fixtures(ECHO), clock: '2026-11-22T03:00:00Z' });
    });
    after(() => gw.close());

    it('answers 503 marketplace_proxy_not_configured, whatever the headers', async () => {
      for (const headers of [{}, { 'X-Marketplace-Proxy-Secret': OLD }] as Array<Record<string, string>>) {
        const res = await gw.get(PATH, headers);
        expect(res.status).to.equal(503);
        expect(res.body.error).to.equal('marketplace_proxy_not_configured');
        expect(res.body).to.not.have.property('n');
      }
    });
  });

  describe('with secrets being rotated (MARKETPLACE_SECRETS=old,new)', () => {
    let gw: TestGateway;
    before(async () => {
      gw = await startTestGateway({
        ...fixtures(ECHO),
        clock: '2026-11-22T03:00:00Z',
        env: { MARKETPLACE_SECRETS: `${OLD},${NEW}` },
      });
    });
    after(() => gw.close());

    it('answers 401 marketplace_proxy_secret_required when both headers are missing', async () => {
      const res = await gw.get(PATH);
      expect(res.status).to.equal(401);
      expect(res.body.error).to.equal('marketplace_proxy_secret_required');
      expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
    });

    it('answers 403 marketplace_proxy_secret_mismatch for a wrong value in either header, without echoing it', async () => {
      for (const name of ['X-Marketplace-Proxy-Secret', 'X-Service-Marketplace-Secret']) {
        for (const value of ['wrong', `${OLD}x`, OLD.slice(0, -1), '']) {
          const res = await gw.get(PATH, { [name]: value || ' ' });
          expect(res.status, `${name}=${value}`).to.equal(403);
          expect(res.body.error).to.equal('marketplace_proxy_secret_mismatch');
          if (value) expect(res.text).to.not.include(value);
        }
      }
    });

    it('serves 200 with either header and either secret (rotation without downtime), with _gateway.surface marketplace', async () => {
      for (const name of ['X-Marketplace-Proxy-Secret', 'X-Service-Marketplace-Secret']) {
        for (const secret of [OLD, NEW]) {
          const res = await gw.get(PATH, { [name]: secret });
          expect(res.status, `${name}`).to.equal(200);
          expect(res.body.n).to.equal(3);
          expect(res.body._gateway).to.include({ surface: 'marketplace', endpoint_id: ECHO.endpointId });
          expect(res.body._gateway.marketplace).to.deep.equal({ segment: 'partner' });
          expect(res.headers.get('cache-control')).to.equal('private, max-age=300');
        }
      }
    });

    it('accepts a request when one of two headers carries a right secret', async () => {
      const res = await gw.get(PATH, {
        'X-Marketplace-Proxy-Secret': NEW,
        'X-Service-Marketplace-Secret': 'wrong',
      });
      expect(res.status).to.equal(200);
    });

    it('refuses on the surface before validating the query, then answers 422 and 404 as the other surfaces', async () => {
      const bad = `/marketplace/partner/v1/${ECHO.tail}?n=10`;
      expect((await gw.get(bad)).status).to.equal(401);
      expect((await gw.get(bad, { 'X-Marketplace-Proxy-Secret': 'wrong' })).status).to.equal(403);
      const invalid = await gw.get(bad, { 'X-Marketplace-Proxy-Secret': OLD });
      expect(invalid.status).to.equal(422);
      expect(invalid.body.correction_hints[0]).to.include({ parameter: 'n', code: 'out_of_range' });
      expect((await gw.get('/marketplace/partner/v1/local/nope')).status).to.equal(401);
      const unknown = await gw.get('/marketplace/partner/v1/local/nope', {
        'X-Marketplace-Proxy-Secret': OLD,
      });
      expect(unknown.status).to.equal(404);
      expect(unknown.body.error).to.equal('unknown_endpoint');
    });

    it('is served only under the configured segment and sends no CORS headers (server-to-server)', async () => {
      const other = await gw.get(`/marketplace/other/v1/${ECHO.tail}`, {
        'X-Marketplace-Proxy-Secret': OLD,
      });
      expect(other.status).to.equal(404);
      const res = await gw.get(PATH, { 'X-Marketplace-Proxy-Secret': OLD });
      expect(res.headers.get('access-control-allow-origin')).to.equal(null);
    });
  });

  it('takes its segment from MARKETPLACE_SEGMENT', async () => {
    const gw = await startTestGateway({
      ...fixtures(ECHO),
      clock: '2026-11-22T03:00:00Z',
      env: { MARKETPLACE_SEGMENT: 'acme-market', MARKETPLACE_SECRETS: NEW },
    });
    try {
      const res = await gw.get(`/marketplace/acme-market/v1/${ECHO.tail}`, {
        'X-Service-Marketplace-Secret': NEW,
      });
      expect(res.status).to.equal(200);
      expect(res.body._gateway.marketplace.segment).to.equal('acme-market');
      expect((await gw.get(PATH, { 'X-Service-Marketplace-Secret': NEW })).status).to.equal(404);
    } finally {
      await gw.close();
    }
  });

  describe('MarketplaceSecretGuard', () => {
    it('matches any accepted secret exactly, whatever the lengths', () => {
      const guard = new MarketplaceSecretGuard([OLD, NEW]);
      expect(guard.configured).to.equal(true);
      expect(guard.matches(OLD)).to.equal(true);
      expect(guard.matches(NEW)).to.equal(true);
      for (const v of ['', 'x', OLD.toUpperCase(), `${NEW} `, OLD + NEW, 'a'.repeat(10_000)]) {
        expect(guard.matches(v), v.slice(0, 20)).to.equal(false);
      }
      expect(new MarketplaceSecretGuard([]).configured).to.equal(false);
    });
  });
});
