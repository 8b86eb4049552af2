/**
 * /health/live and /health/ready (issue 29, item 7): live answers while the process runs; ready
 * only while the store answers and the registry sells something; both refuse once the gateway stops.
 */
import { expect } from 'chai';
import { ECHO, fixtures } from '../../support/fx-endpoints';
import { startTestGateway, type TestGateway } from '../../support/gateway';

describe('health probes: /health/live and /health/ready', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway(fixtures(ECHO));
  });
  after(() => gw.close());

  it('both answer 200 on a gateway with its store and plugins', async () => {
    const live = await gw.get('/health/live');
    expect(live.status).to.equal(200);
    expect(live.body).to.deep.equal({ status: 'live' });
    expect(live.headers.get('cache-control')).to.equal('no-store');
    const ready = await gw.get('/health/ready');
    expect(ready.status).to.equal(200);
    expect(ready.body).to.deep.include({ status: 'ready', registry: { state: 'ok', loaded: 1, sold: 1 } });
    expect(ready.body.store).to.include({ state: 'ok' });
  });

  it('ready is 503 while the store does not answer; live stays 200', async () => {
    const store = gw.gateway.store as { ping(): Promise<void> };
    const ping = store.ping;
    store.ping = () => Promise.reject(new Error('connection refused'));
    try {
      const ready = await gw.get('/health/ready');
      expect(ready.status).to.equal(503);
      expect(ready.body.status).to.equal('not_ready');
      expect(ready.body.store).to.include({ state: 'down' });
      expect((await gw.get('/health/live')).status).to.equal(200);
    } finally {
      store.ping = ping;
    }
    expect((await gw.get('/health/ready')).status).to.equal(200);
  });

  it('ready is 503 when the registry sells nothing', async () => {
    const empty = await startTestGateway({ ...fixtures(ECHO), plugins: [] });
    try {
      const ready = await empty.get('/health/ready');
      expect(ready.status, ready.text).to.equal(503);
      expect(ready.body.registry).to.deep.include({ state: 'empty', sold: 0 });
      expect((await empty.get('/health/live')).status).to.equal(200);
    } finally {
      await empty.close();
    }
  });
});
