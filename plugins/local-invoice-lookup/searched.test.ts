/**
 * What a T-number lookup says it searched: the dated invoice list decides (its size and date, from
 * the data file), the registry is noted, and every registration from it is confirmed: false with the
 * reason; on the live NTA invoice Web-API (a stand-in) the register confirms or denies.
 */
import { expect } from 'chai';
import { snapshotRecords } from '../../domain/registry/sources/snapshot-registry';
import { startTestGateway, type TestGateway, type TestResponse } from '../../test/support/gateway';
import { registration, startNtaStandin, type NtaStandin } from '../../test/support/nta-standin';
import {
  INVOICE_AS_OF,
  INVOICE_FILE,
  INVOICE_ROWS,
  invoiceIdWarnings,
  ownWords,
  SEARCHED_CLOCK,
} from '../../test/support/registry-searched';

const TAIL = '/preview/v1/local/invoice/issuer-registration-lookup';
const statusOf = (body: { endpoints: Array<{ endpoint_id: string; data: object }> }) =>
  body.endpoints.find((e) => e.endpoint_id === 'local-invoice-lookup')!.data;

describe('local-invoice-lookup: what an answer searched', () => {
  let gw: TestGateway;
  const logs: string[] = [];
  const answers: TestResponse[] = [];
  const get = async (number: string) => {
    const res = await gw.get(`${TAIL}?number=${number}`);
    answers.push(res);
    return res;
  };
  before(async () => {
    gw = await startTestGateway({ plugins: ['local-invoice-lookup'], clock: SEARCHED_CLOCK, logs });
  });
  after(() => gw.close());

  it('a T-number lookup is decided by the invoice list: its size and date, the registry noted', async () => {
    const res = await get('T1000020012131');
    expect(res.body._provenance.searched).to.include({
      kind: 'snapshot',
      as_of: INVOICE_AS_OF,
      records: INVOICE_ROWS,
      unit: 'invoice registrations',
      complete: false,
    });
    expect(res.body._provenance.notes.join('\n')).to.match(/Corporate registry: A curated sample of \d+/);
  });

  it('registrations from the dated list are confirmed: false with the reason; derived ones too', async () => {
    for (const row of INVOICE_FILE.registrations) {
      const res = await get(row.registration_number);
      expect(res.body.registration, row.registration_number).to.include({
        status: 'registered',
        confirmed: false,
        basis: 'secondary_source',
      });
      expect(res.body.registration.reason).to.match(/^not confirmed against the live register: /);
    }
    const derived = await get('T7010401022916');
    expect(derived.body.registration).to.include({ confirmed: false, basis: 'derived' });
    expect(derived.body.registration.reason).to.match(/^not confirmed against the live register: /);
  });

  it('/product-status.json states the same: kind, date and size of the invoice list', async () => {
    expect(statusOf((await gw.get('/product-status.json')).body)).to.deep.include({
      kind: 'snapshot',
      as_of: INVOICE_AS_OF,
      records: { count: INVOICE_ROWS, unit: 'invoice registrations', complete: false },
    });
  });

  it('no answer names a repository or ../shared file, or an operator setting; the operator is told once, in the log', () => {
    expect(answers.length).to.be.greaterThan(2);
    const found = ownWords(answers);
    expect(found, found.join('\n')).to.deep.equal([]);
    const warnings = invoiceIdWarnings(logs);
    expect(warnings).to.have.length(1);
    expect(warnings[0].level).to.equal(40);
  });
});

describe('local-invoice-lookup on the live NTA invoice Web-API (a stand-in)', () => {
  let standin: NtaStandin;
  let live: TestGateway;
  before(async () => {
    standin = await startNtaStandin({
      appId: 'live-id',
      records: snapshotRecords(),
      announcements: [registration('T1180301018771', 'トヨタ自動車株式会社', '愛知県豊田市トヨタ町１番地')],
    });
    live = await startTestGateway({
      plugins: ['local-invoice-lookup'],
      clock: SEARCHED_CLOCK,
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

  it('the live invoice register confirms (or denies) a registration; the dated list is not used', async () => {
    const toyota = await live.get(`${TAIL}?number=1180301018771`);
    expect(toyota.body.registration).to.include({
      status: 'registered',
      confirmed: true,
      basis: 'register_live',
      reason: null,
    });
    expect(toyota.body._provenance.searched).to.include({
      kind: 'live',
      records: null,
      unit: 'invoice registrations',
      complete: true,
    });
    // In the dated list, but the live register does not hold it: the register decides.
    const listed = await live.get(`${TAIL}?number=T1000020012131`);
    expect(listed.body.registration).to.include({ status: 'not_registered', confirmed: true, reason: null });
  });

  it('/product-status.json says live', async () => {
    expect(statusOf((await live.get('/product-status.json')).body)).to.include({ kind: 'live' });
  });
});
