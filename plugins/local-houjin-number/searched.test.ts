/**
 * What a number lookup says it searched: the registry snapshot (kind, date and real size, from the
 * data files), also on a 404; the live NTA Web-API (a stand-in) as the whole live register, and a
 * 503 that tells the buyer to retry and the operator, in the log, what to check.
 */
import { expect } from 'chai';
import { snapshotRecords } from '../../domain/registry/sources/snapshot-registry';
import { startTestGateway, type TestGateway, type TestResponse } from '../../test/support/gateway';
import { startNtaStandin, type NtaStandin } from '../../test/support/nta-standin';
import {
  absentNumber,
  ownWords,
  REGISTRY_COVERAGE,
  REGISTRY_SAMPLE,
  SEARCHED_CLOCK,
} from '../../test/support/registry-searched';

const TAIL = '/preview/v1/local/houjin-number/lookup';
const statusOf = (body: { endpoints: Array<{ endpoint_id: string; data: object }> }) =>
  body.endpoints.find((e) => e.endpoint_id === 'local-houjin-number')!.data;

describe('local-houjin-number: what an answer searched', () => {
  let gw: TestGateway;
  const answers: TestResponse[] = [];
  const get = async (number: string) => {
    const res = await gw.get(`${TAIL}?number=${number}`);
    answers.push(res);
    return res;
  };
  before(async () => {
    gw = await startTestGateway({ plugins: ['local-houjin-number'], clock: SEARCHED_CLOCK });
  });
  after(() => gw.close());

  it('the snapshot, its date and its size', async () => {
    const res = await get('1180301018771');
    expect(res.status).to.equal(200);
    expect(res.body._provenance.searched).to.include(REGISTRY_SAMPLE);
    expect(res.body._provenance.searched.note).to.match(/not the full register/);
    expect(res.body._provenance.kind).to.equal('snapshot');
  });

  it('a number no sample row holds answers 404 with what was searched', async () => {
    const res = await get(absentNumber());
    expect(res.status).to.equal(404);
    expect(res.body.searched).to.include(REGISTRY_SAMPLE);
  });

  it('/product-status.json states the same: kind, date and size', async () => {
    expect(statusOf((await gw.get('/product-status.json')).body)).to.deep.include(REGISTRY_COVERAGE);
  });

  it('no answer names a repository or ../shared file, or an operator setting', () => {
    const found = ownWords(answers);
    expect(found, found.join('\n')).to.deep.equal([]);
  });
});

describe('local-houjin-number on the live NTA Web-API (a stand-in)', () => {
  let standin: NtaStandin;
  let live: TestGateway;
  const logs: string[] = [];
  before(async () => {
    standin = await startNtaStandin({ appId: 'live-id', records: snapshotRecords() });
    live = await startTestGateway({
      plugins: ['local-houjin-number'],
      clock: SEARCHED_CLOCK,
      logs,
      env: {
        NTA_HOUJIN_APP_ID: 'live-id',
        NTA_HOUJIN_BASE_URL: standin.houjinBaseUrl,
        NTA_INVOICE_APP_ID: 'live-id',
        NTA_INVOICE_BASE_URL: standin.invoiceBaseUrl,
      },
    });
  });
  after(async () => {
    await live.close();
    await standin.close();
  });

  it('a number lookup searched the whole live register', async () => {
    const res = await live.get(`${TAIL}?number=1180301018771`);
    expect(res.body._provenance.searched).to.include({
      kind: 'live',
      as_of: SEARCHED_CLOCK.replace('Z', '.000Z'),
      records: null,
      unit: 'corporations',
      complete: true,
    });
  });

  it('/product-status.json says live', async () => {
    expect(statusOf((await live.get('/product-status.json')).body)).to.include({ kind: 'live' });
  });

  it('a 503 tells the buyer to retry, and the operator (in the log) what to check', async () => {
    standin.faults.alwaysStatus = 502;
    try {
      const res = await live.get(`${TAIL}?number=4000012090001`);
      expect(res.status).to.equal(503);
      expect(res.text).not.to.match(/operator|application id|NTA_HOUJIN_APP_ID|live-id/i);
      expect(res.body.hint).to.match(/Try again/);
      const warn = logs.map((l) => JSON.parse(l)).find((l) => /Check the application id/.test(l.msg ?? ''));
      expect(warn?.level).to.equal(40);
    } finally {
      delete standin.faults.alwaysStatus;
    }
    expect(logs.some((l) => l.includes('NTA_INVOICE_APP_ID'))).to.equal(false);
  });
});
