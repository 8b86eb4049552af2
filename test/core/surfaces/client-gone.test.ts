/**
 * A buyer that closes its HTTP request before the answer pays nothing (issue 25): on the broker
 * the hold goes back instead of being committed, on the paid path the payment is not settled and
 * the same signed payment buys the call afterwards. Kernel test on a slow fixture plugin.
 */
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { startFacilitatorStandin, type FacilitatorStandin } from '../../support/facilitator-standin';
import { startTestGateway, type TestGateway } from '../../support/gateway';
import { makePluginsDir, writeSlowPlugin } from '../../support/js-plugin';
import { randomAddress, TestPayer, toBase64, usdcOnBase } from '../payments/payer';

const SLOW_MS = 400;
const PRICE = 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const now = () => Math.floor(Date.now() / 1000);

describe('a client that closes its request before the answer is not charged', () => {
  let standin: FacilitatorStandin;
  let gw: TestGateway;
  let fixtures: string;
  const payTo = randomAddress();

  before(async () => {
    fixtures = makePluginsDir();
    writeSlowPlugin(fixtures, 'local-zz-slow', SLOW_MS);
    standin = await startFacilitatorStandin();
    gw = await startTestGateway({
      pluginDirs: [fixtures],
      env: { X402_PAY_TO: payTo, X402_FACILITATOR_URL: standin.url, TRIAL_CREDIT_MICRO_USDC: '100000' },
    });
  });
  after(async () => {
    await gw.close();
    await standin.close();
    rmSync(fixtures, { recursive: true, force: true });
  });

  /** Sends a request and closes it before the slow plugin answers. */
  async function goAway(path: string, init: RequestInit): Promise<void> {
    const gone = new AbortController();
    const call = fetch(gw.url + path, { ...init, signal: gone.signal }).catch((e: Error) => e);
    await sleep(SLOW_MS / 4);
    gone.abort();
    expect(await call).to.be.instanceOf(Error);
    await sleep(SLOW_MS * 2);
  }

  it('broker: the hold is released, the balance and usage unchanged; the same idempotency key then runs afresh', async () => {
    const key = (await gw.post('/keys/create', { owner_label: 'gone' })).body.api_key as string;
    const status = async () => (await gw.get('/keys/status', { 'X-API-Key': key })).body;
    const before = await status();
    const body = JSON.stringify({ product_id: 'jp-local-pack-v1-zz-slow', query: { n: 3 } });
    const headers = { 'content-type': 'application/json', 'X-API-Key': key, 'Idempotency-Key': 'gone-1' };
    await goAway('/broker/call', { method: 'POST', headers, body });
    const after = await status();
    expect(after.balance.micro_usdc).to.equal(before.balance.micro_usdc);
    expect(after.spent.calls).to.equal(before.spent.calls);
    const retry = await gw.post('/broker/call', JSON.parse(body), headers);
    expect(retry.status, retry.text).to.equal(200);
    expect(retry.headers.get('idempotent-replayed')).to.equal(null);
    expect(retry.body._gateway.credit.charged_micro_usdc).to.equal(PRICE);
    expect((await status()).balance.micro_usdc).to.equal(before.balance.micro_usdc - PRICE);
  });

  it('paid: the payment is not settled, and the same signed payment buys the call afterwards', async () => {
    const payer = new TestPayer();
    const terms = usdcOnBase(payTo, PRICE);
    const path = '/v1/local/zz-slow/echo?n=5';
    const header = toBase64(payer.v2(await payer.sign(terms, now()), terms, `http://gateway.test${path}`));
    const settles = standin.calls.settle;
    await goAway(path, { headers: { 'PAYMENT-SIGNATURE': header } });
    expect(standin.calls.settle).to.equal(settles);
    expect(standin.transfersFrom(payer.address)).to.have.length(0);
    const retry = await gw.get(path, { 'PAYMENT-SIGNATURE': header });
    expect(retry.status, retry.text).to.equal(200);
    expect(standin.transfersFrom(payer.address)).to.have.length(1);
  });
});
