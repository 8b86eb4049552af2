/**
 * The live NTA clients against the local stand-in (test/support/nta-standin.ts), which speaks the
 * documented formats over real HTTP: XML and CSV answers, retries, timeouts, errors, the cache.
 */
import { expect } from 'chai';
import { snapshotRecords } from '../../../../domain/registry/sources/snapshot-registry';
import { SourceUnavailableError } from '../../../../core/plugins/errors';
import { NtaInvoiceClient, statusOn } from '../../../../domain/registry/sources/invoice-register';
import { LiveRegistry } from '../../../../domain/registry/sources/live-registry';
import { NtaHoujinClient, type NtaResponseType } from '../../../../domain/registry/sources/nta-houjin-client';
import { UpstreamError, USER_AGENT } from '../../../../domain/registry/sources/upstream-http';
import { startNtaStandin, type NtaStandin, registration } from '../../../support/nta-standin';

const APP_ID = 'test-app-id-123';
const RECORDS = snapshotRecords();
const FAST = { timeoutMs: 2_000, retries: 2, backoffMs: 10, cacheTtlMs: 0 };

describe('NTA corporate-number Web-API client (v4)', () => {
  let standin: NtaStandin;
  before(async () => {
    standin = await startNtaStandin({ appId: APP_ID, records: RECORDS });
  });
  after(() => standin.close());
  beforeEach(() => {
    standin.requests.length = 0;
    for (const k of Object.keys(standin.faults)) delete (standin.faults as Record<string, unknown>)[k];
  });

  for (const responseType of ['12', '02'] as NtaResponseType[]) {
    const label = responseType === '12' ? 'XML (type=12)' : 'Unicode CSV (type=02)';
    const client = () =>
      new NtaHoujinClient({ appId: APP_ID, baseUrl: standin.houjinBaseUrl, responseType, http: FAST });

    it(`${label}: looks up numbers, every field read back as published`, async () => {
      const records = await client().byNumbers(['1010001012570', '1180301018771']);
      expect(records.map((r) => r.corporateNumber)).to.have.members(['1010001012570', '1180301018771']);
      const closed = records.find((r) => r.corporateNumber === '1010001012570')!;
      const original = RECORDS.find((r) => r.corporateNumber === '1010001012570')!;
      for (const c of Object.keys(original) as Array<keyof typeof original>) {
        if (c !== 'sequenceNumber') expect(closed[c], c).to.equal(original[c]);
      }
      expect(standin.requests[0].query.get('type')).to.equal(responseType);
    });

    it(`${label}: with history, a renamed corporation comes with its former name`, async () => {
      const records = await client().byNumbers(['5010401067252'], true);
      expect(records.map((r) => [r.name, r.latest])).to.deep.include.members([
        ['ソニー株式会社', '0'],
        ['ソニーグループ株式会社', '1'],
      ]);
    });

    it(`${label}: searches names (partial) and English names`, async () => {
      const byName = await client().byName({
        name: '建設',
        mode: 2,
        target: 1,
        includeClosed: true,
        includeChangedNames: true,
      });
      expect(byName.records.map((r) => r.name)).to.include('鹿島建設株式会社');
      expect(byName.count).to.equal(byName.records.length);
      const english = await client().byName({
        name: 'hitachi',
        mode: 1,
        target: 3,
        includeClosed: true,
        includeChangedNames: false,
      });
      expect(english.records.map((r) => r.corporateNumber)).to.deep.equal(['7010001008844']);
    });
  }

  const client = (http = FAST) =>
    new NtaHoujinClient({ appId: APP_ID, baseUrl: standin.houjinBaseUrl, http });

  it('sends the application id, the documented parameters and a User-Agent', async () => {
    await client().byName({
      name: 'ソニー',
      mode: 2,
      target: 1,
      address: '13',
      includeClosed: false,
      includeChangedNames: true,
    });
    const q = standin.requests[0].query;
    expect(standin.requests[0].path).to.equal('/4/name');
    expect(q.get('id')).to.equal(APP_ID);
    expect(q.get('name')).to.equal('ソニー');
    expect([
      q.get('mode'),
      q.get('target'),
      q.get('address'),
      q.get('close'),
      q.get('change'),
      q.get('divide'),
    ]).to.deep.equal(['2', '1', '13', '0', '1', '1']);
    expect(standin.requests[0].userAgent).to.equal(USER_AGENT);
  });

  it('asks for at most 10 numbers per request', async () => {
    const numbers = [...new Set(RECORDS.map((r) => r.corporateNumber))].slice(0, 23);
    const records = await client().byNumbers(numbers);
    expect(standin.requests).to.have.length(3);
    expect(new Set(records.map((r) => r.corporateNumber)).size).to.equal(23);
  });

  it('retries 5xx answers with backoff and then succeeds', async () => {
    standin.faults.failNext = { count: 2, status: 503 };
    const records = await client().byNumbers(['1180301018771']);
    expect(records).to.have.length(1);
    expect(standin.requests).to.have.length(3);
  });

  it('gives up after its retries with an UpstreamError naming the status, without the application id', async () => {
    standin.faults.alwaysStatus = 500;
    const err = await client()
      .byNumbers(['1180301018771'])
      .catch((e: unknown) => e);
    expect(err).to.be.instanceOf(UpstreamError);
    expect((err as UpstreamError).failure).to.equal('http_status');
    expect((err as UpstreamError).status).to.equal(500);
    expect(standin.requests).to.have.length(3);
    expect(String((err as Error).message)).not.to.include(APP_ID);
  });

  it('does not retry a 4xx answer (a wrong application id does not improve)', async () => {
    const wrong = new NtaHoujinClient({ appId: 'wrong-id', baseUrl: standin.houjinBaseUrl, http: FAST });
    const err = (await wrong.byNumbers(['1180301018771']).catch((e: unknown) => e)) as UpstreamError;
    expect(err.status).to.equal(404);
    expect(err.upstreamBody).to.match(/^010,/);
    expect(standin.requests).to.have.length(1);
  });

  it('times out a slow answer and reports a timeout', async () => {
    standin.faults.delayMs = 3_000;
    const slow = client({ timeoutMs: 150, retries: 1, backoffMs: 10, cacheTtlMs: 0 });
    const err = (await slow.byNumbers(['1180301018771']).catch((e: unknown) => e)) as UpstreamError;
    expect(err).to.be.instanceOf(UpstreamError);
    expect(err.failure).to.equal('timeout');
    expect(err.message).not.to.include(APP_ID);
  });

  it('reports an unreachable host as a network failure', async () => {
    const nowhere = new NtaHoujinClient({
      appId: APP_ID,
      baseUrl: 'http://127.0.0.1:9/4',
      http: { ...FAST, retries: 0 },
    });
    const err = (await nowhere.byNumbers(['1180301018771']).catch((e: unknown) => e)) as UpstreamError;
    expect(err.failure).to.equal('network');
  });

  it('serves repeated questions from its short cache', async () => {
    const cached = client({ ...FAST, cacheTtlMs: 60_000 });
    await cached.byNumbers(['1180301018771']);
    await cached.byNumbers(['1180301018771']);
    expect(standin.requests).to.have.length(1);
  });

  it('LiveRegistry ranks the API page locally and maps failures to 503 source_unavailable', async () => {
    const live = new LiveRegistry(client(), { lookup: () => [] });
    const result = await live.searchByName('鹿島建設株式会社', {}, 5);
    expect(result.candidates[0].corporation.corporate_number).to.equal('8010401006744');
    expect(result.candidates[0].match.mode).to.equal('exact');
    expect(standin.requests[0].query.get('name')).to.equal('鹿島建設');
    standin.faults.alwaysStatus = 503;
    const err = await live.getByNumber('1180301018771').catch((e: unknown) => e);
    expect(err).to.be.instanceOf(SourceUnavailableError);
    expect((err as SourceUnavailableError).status).to.equal(503);
  });
});

describe('NTA invoice-issuer Web-API client', () => {
  let standin: NtaStandin;
  before(async () => {
    standin = await startNtaStandin({
      appId: APP_ID,
      announcements: [
        registration('T5010401067252', 'ソニーグループ株式会社', '東京都港区港南１丁目７番１号'),
        {
          registratedNumber: 'T1010001012570',
          process: '03',
          kind: '2',
          latest: '1',
          registrationDate: '2023-10-01',
          updateDate: '2022-01-26',
          disposalDate: '',
          expireDate: '2022-01-19',
          address: '東京都千代田区大手町１丁目２番１号',
          name: '三井物産グローバル投資株式会社',
        },
      ],
    });
  });
  after(() => standin.close());

  it('reads JSON announcements (type=21), in requests of up to 10 numbers', async () => {
    const client = new NtaInvoiceClient({ appId: APP_ID, baseUrl: standin.invoiceBaseUrl, http: FAST });
    const numbers = [
      'T5010401067252',
      ...Array.from({ length: 11 }, (_, i) => `T70000120500${String(i).padStart(2, '0')}`),
    ];
    const { announcements } = await client.byNumbers(numbers);
    expect(announcements.map((a) => a.registratedNumber)).to.deep.equal(['T5010401067252']);
    expect(standin.requests.filter((r) => r.path === '/1/num')).to.have.length(2);
    expect(standin.requests[0].query.get('type')).to.equal('21');
  });

  it('derives the status on a date from registration, cancellation and expiry dates', () => {
    const a = { registratedNumber: 'T1', registrationDate: '2023-10-01', disposalDate: '', expireDate: '' };
    expect(statusOn(a, '2026-11-22')).to.equal('registered');
    expect(statusOn(a, '2023-09-30')).to.equal('not_registered');
    expect(statusOn({ ...a, disposalDate: '2025-01-01' }, '2026-11-22')).to.equal('cancelled');
    expect(statusOn({ ...a, expireDate: '2025-01-01' }, '2024-12-31')).to.equal('registered');
    expect(statusOn({ ...a, expireDate: '2025-01-01' }, '2025-01-01')).to.equal('expired');
  });
});
