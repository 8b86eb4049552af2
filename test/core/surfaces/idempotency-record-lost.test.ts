/**
 * A charged broker call whose idempotency record cannot be written (issue 25: on a full disk the
 * charge committed, the record write failed, and the buyer was told 503 "nothing was charged").
 * The write fails at exactly that point here (the real store, its `complete` refused once or
 * until told); the buyer must get the answer it paid for, be charged once, and a retry with the
 * same key must replay it: once the record is written, or after a restart through the hold the
 * claim names. Kernel test on a fixture plugin.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { StoreUnavailableError } from '../../../core/store/store-errors';
import { startTestGateway, type TestGateway } from '../../support/gateway';
import { makePluginsDir, writeJsPlugin } from '../../support/js-plugin';

const CALL = { product_id: 'jp-local-pack-v1-zz-echo', query: { n: 4 } };
const PRICE = 1000;
const TRIAL = 100_000;

/** Makes the gateway's idempotency record writes fail while `failing()` says so. */
function refuseRecords(gw: TestGateway, failing: () => boolean): { refused: number } {
  const idem = gw.gateway.services.idempotency;
  const real = idem.complete.bind(idem);
  const seen = { refused: 0 };
  idem.complete = (id, response) => {
    if (!failing()) return real(id, response);
    seen.refused++;
    return Promise.reject(new StoreUnavailableError(new Error('SQLITE_FULL: database or disk is full')));
  };
  return seen;
}

describe('a charged call whose idempotency record cannot be written', () => {
  let fixtures: string;
  let dataDir: string;
  let gw: TestGateway;
  const env = () => ({
    DATA_DIR: dataDir,
    TRIAL_CREDIT_MICRO_USDC: String(TRIAL),
    ABANDONED_CALL_SECONDS: '1',
  });

  beforeEach(async () => {
    fixtures = makePluginsDir();
    writeJsPlugin(fixtures, { folder: 'local-zz-echo' });
    dataDir = mkdtempSync(path.join(tmpdir(), 'jpgw-idem-'));
    gw = await startTestGateway({ pluginDirs: [fixtures], env: env() });
  });
  afterEach(async () => {
    await gw.close();
    rmSync(fixtures, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  const newKey = async () => (await gw.post('/keys/create', { owner_label: 'idem' })).body.api_key as string;
  const balance = async (key: string) =>
    (await gw.get('/keys/status', { 'X-API-Key': key })).body.balance.micro_usdc as number;

  it('answers the data it charged for; once the record is written, the retry replays it uncharged', async () => {
    const key = await newKey();
    let failing = true;
    const seen = refuseRecords(gw, () => failing);
    const headers = { 'X-API-Key': key, 'Idempotency-Key': 'lost-record-1' };
    const first = await gw.post('/broker/call', CALL, headers);
    expect(first.status, first.text).to.equal(200);
    expect(first.body.n).to.equal(4);
    expect(first.body._gateway.credit.charged_micro_usdc).to.equal(PRICE);
    expect(seen.refused).to.be.greaterThan(0);
    expect(await balance(key)).to.equal(TRIAL - PRICE);

    failing = false; // space returns: the background write goes through
    await new Promise((r) => setTimeout(r, 1_500));
    const retry = await gw.post('/broker/call', CALL, headers);
    expect(retry.status, retry.text).to.equal(200);
    expect(retry.headers.get('idempotent-replayed')).to.equal('true');
    expect(retry.body._gateway.credit.charged_micro_usdc).to.equal(0);
    expect(retry.body._gateway.request_id).to.equal(first.body._gateway.request_id);
    expect(await balance(key)).to.equal(TRIAL - PRICE);
  });

  it('if the record is never written, a retry after a restart is served without a second charge', async () => {
    const key = await newKey();
    refuseRecords(gw, () => true);
    const headers = { 'X-API-Key': key, 'Idempotency-Key': 'lost-record-2' };
    expect((await gw.post('/broker/call', CALL, headers)).status).to.equal(200);
    await gw.gateway.close();
    gw = await startTestGateway({ pluginDirs: [fixtures], env: env() });
    await new Promise((r) => setTimeout(r, 1_200)); // past ABANDONED_CALL_SECONDS
    const retry = await gw.post('/broker/call', CALL, headers);
    expect(retry.status, retry.text).to.equal(200);
    expect(retry.body._gateway.credit.charged_micro_usdc).to.equal(0);
    expect(await balance(key)).to.equal(TRIAL - PRICE);
  });

  it('a call that charged nothing (402) whose record cannot be written leaves the key free to retry', async () => {
    const key = await newKey();
    const drain = { product_id: CALL.product_id, query: { n: 1 } };
    for (let i = 0; i < TRIAL / PRICE; i++)
      expect((await gw.post('/broker/call', drain, { 'X-API-Key': key })).status).to.equal(200);
    refuseRecords(gw, () => true);
    const headers = { 'X-API-Key': key, 'Idempotency-Key': 'lost-record-3' };
    const refused = await gw.post('/broker/call', CALL, headers);
    expect(refused.status).to.equal(402);
    const again = await gw.post('/broker/call', CALL, headers);
    expect(again.status, again.text).to.equal(402);
    expect(again.headers.get('idempotent-replayed')).to.equal(null);
  });
});
