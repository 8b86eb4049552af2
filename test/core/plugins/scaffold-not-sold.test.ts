/**
 * A plugin for sale whose answer still carries the scaffold's attribution placeholder is refused on
 * every surface, and nothing is charged for it (issue 15 item 9).
 */
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { startTestGateway, type TestGateway } from '../../support/gateway';
import { makePluginsDir, writeJsPlugin } from '../../support/js-plugin';

describe('scaffold answers are never sold', () => {
  let dir: string;
  let gw: TestGateway;
  before(async () => {
    dir = makePluginsDir();
    writeJsPlugin(dir, {
      folder: 'local-draft',
      handleBody:
        "return { n: 1, _attribution: 'TODO: name the publisher and the licence (scaffold output: no data source yet)', _provenance: { kind: 'snapshot', as_of: '2026-01-01', sources: [{ name: 'none' }] } };",
    });
    gw = await startTestGateway({ pluginDirs: [dir], env: { TRIAL_CREDIT_MICRO_USDC: '100000' } });
  });
  after(async () => {
    await gw.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the preview answers 503 endpoint_not_ready, not the placeholder', async () => {
    const res = await gw.get('/preview/v1/local/draft/echo');
    expect(res.status).to.equal(503);
    expect(res.body.error).to.equal('endpoint_not_ready');
    expect(res.text).to.not.include('TODO');
  });

  it('the broker refuses it and charges nothing', async () => {
    const key = (await gw.post('/keys/create', { owner_label: 'scaffold' })).body.api_key;
    const res = await gw.post('/broker/call', { product_id: 'jp-local-pack-v1-draft' }, { 'X-API-Key': key });
    expect(res.status).to.equal(503);
    expect(res.body.error).to.equal('endpoint_not_ready');
    const status = await gw.get('/keys/status', { 'X-API-Key': key });
    expect(status.body.balance.micro_usdc).to.equal(100000);
  });
});
