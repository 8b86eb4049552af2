/**
 * A charged broker call whose idempotency record cannot be written (issue 25: on a full disk the
 * charge committed, the record write failed, and the buyer was told 503 "nothing was charged").
 * The write fails at exactly that point here (the real store, its `complete` refused once or
 * until told); the buyer must get the answer it paid for, be charged once, and a retry with the
 * same key must replay it: once the record is written, or after a restart through the hold the
 * claim names, saying that the earlier attempt was charged (issue 34), on the broker and on the
 * MCP tools alike. Kernel test on a fixture plugin.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { StoreUnavailableError } from '../../../core/store/store-errors';
import { startTestGateway, type TestGateway } from '../../support/gateway';
import { makePluginsDir, writeJsPlugin } from '../../support/js-plugin';
import { callTool, connectMcp, structured } from '../../support/mcp-client';

const CALL = { product_id: 'jp-local-pack-v1-zz-echo', query: { n: 4 } };
const PRICE = 1000;
const TRIAL = 100_000;
/** Set while the fixture endpoint's upstream is down (the gateway runs in this process). */
const upstream = globalThis as { zzEchoDown?: boolean };
const ECHO_BODY =
  "if (globalThis.zzEchoDown) throw new errors.SourceUnavailableError('the test upstream is down'); " +
  "return { n: q.n === undefined ? 1 : q.n, _attribution: 'test fixture', _provenance: { kind: 'snapshot', as_of: '2026-01-01', sources: [{ name: 'test' }] } };";

/** Makes the gateway's idempotency record writes fail while `failing()` says so. */
function refuseRecords(gw: TestGateway, failing: () => boolean): { refused: number } {
  const idem = gw.gateway.idempotency;
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
    writeJsPlugin(fixtures, { folder: 'local-zz-echo', handleBody: ECHO_BODY });
    upstream.zzEchoDown = false;
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

  /** Starts the gateway again on the same store, and waits past ABANDONED_CALL_SECONDS. */
  const restart = async () => {
    await gw.gateway.close();
    gw = await startTestGateway({ pluginDirs: [fixtures], env: env() });
    await new Promise((r) => setTimeout(r, 1_200));
  };

  /** What a retry served through the first attempt's charge says, as a replay says it. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const expectPaidEarlier = (credit: any, headers: Headers | undefined, firstRequestId: string) => {
    expect(credit).to.deep.include({ charged_micro_usdc: 0, balance_micro_usdc: TRIAL - PRICE });
    expect(credit.original_charge).to.deep.equal({
      charged_micro_usdc: PRICE,
      charged_usdc: '0.001',
      request_id: firstRequestId,
    });
    if (!headers) return;
    expect(headers.get('x-credit-charged-micro-usdc')).to.equal('0');
    expect(headers.get('x-credit-original-charge-micro-usdc')).to.equal(String(PRICE));
    expect(headers.get('x-credit-balance-micro-usdc')).to.equal(String(TRIAL - PRICE));
    expect(headers.get('idempotent-replayed')).to.equal('true');
  };

  it('if the record is never written, a retry after a restart is served without a second charge and names the first', async () => {
    const key = await newKey();
    refuseRecords(gw, () => true);
    const headers = { 'X-API-Key': key, 'Idempotency-Key': 'lost-record-2' };
    const first = await gw.post('/broker/call', CALL, headers);
    expect(first.status).to.equal(200);
    const firstRequestId = first.body._gateway.request_id as string;
    await restart();
    const retry = await gw.post('/broker/call', CALL, headers);
    expect(retry.status, retry.text).to.equal(200);
    expect(retry.body.n).to.equal(4);
    expectPaidEarlier(retry.body._gateway.credit, retry.headers, firstRequestId);
    expect(await balance(key)).to.equal(TRIAL - PRICE);
    // Recorded now: a later retry replays it and still names the first attempt's charge.
    const replay = await gw.post('/broker/call', CALL, headers);
    expect(replay.status, replay.text).to.equal(200);
    expect(replay.body._gateway.request_id).to.equal(retry.body._gateway.request_id);
    expectPaidEarlier(replay.body._gateway.credit, replay.headers, firstRequestId);
    expect(await balance(key)).to.equal(TRIAL - PRICE);
  });

  it('a retry through the first charge that fails (upstream down) leaves the next retry served through it, not charged again', async () => {
    const key = await newKey();
    refuseRecords(gw, () => true);
    const headers = { 'X-API-Key': key, 'Idempotency-Key': 'lost-record-4' };
    const first = await gw.post('/broker/call', CALL, headers);
    expect(first.status).to.equal(200);
    await restart();
    upstream.zzEchoDown = true;
    const failed = await gw.post('/broker/call', CALL, headers);
    expect(failed.status, failed.text).to.equal(503);
    expect(failed.body.error).to.equal('source_unavailable');
    expect(failed.headers.get('x-credit-charged-micro-usdc')).to.equal('0');
    expect(failed.headers.get('x-credit-original-charge-micro-usdc')).to.equal(String(PRICE));
    upstream.zzEchoDown = false;
    // At once, not after ABANDONED_CALL_SECONDS: the claim was handed back, naming the charge.
    const retry = await gw.post('/broker/call', CALL, headers);
    expect(retry.status, retry.text).to.equal(200);
    expectPaidEarlier(retry.body._gateway.credit, retry.headers, first.body._gateway.request_id);
    expect(await balance(key)).to.equal(TRIAL - PRICE);
  });

  it('an MCP tool call whose record is never written: the retry after a restart names the first charge', async () => {
    const key = await newKey();
    refuseRecords(gw, () => true);
    const meta = { 'idempotency-key': 'lost-record-mcp' };
    let client = await connectMcp(gw, '/mcp', { 'X-API-Key': key });
    const first = structured(await callTool(client, 'local-zz-echo', { n: 4 }, meta));
    await client.close();
    expect(first._gateway.credit.charged_micro_usdc).to.equal(PRICE);
    await restart();
    client = await connectMcp(gw, '/mcp', { 'X-API-Key': key });
    try {
      const result = await callTool(client, 'local-zz-echo', { n: 4 }, meta);
      expect(result.isError ?? false).to.equal(false);
      expect(result._meta?.['idempotent-replayed']).to.equal(true);
      expectPaidEarlier(structured(result)._gateway.credit, undefined, first._gateway.request_id);
    } finally {
      await client.close();
    }
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
