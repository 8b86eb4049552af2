import { expect } from 'chai';
import { startTestGateway, type TestGateway } from '../../test/support/gateway';
import { startNtaStandin, type NtaStandin, registration } from '../../test/support/nta-standin';

const PATH = '/preview/v1/local/invoice/issuer-registration-lookup';

describe('local-invoice-lookup (local/invoice/issuer-registration-lookup)', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ plugins: ['local-invoice-lookup'], clock: '2026-11-22T03:00:00Z' });
  });
  after(() => gw.close());

  it('answers a registration seen in a public copy of register data as not confirmed, with the reason and the registry cross-check', async () => {
    const res = await gw.get(`${PATH}?number=T1000020012131`);
    expect(res.status).to.equal(200);
    expect(res.body.registration_number).to.equal('T1000020012131');
    expect(res.body.registration).to.include({
      status: 'registered',
      confirmed: false,
      basis: 'secondary_source',
      legal_name: '苫小牧市',
      registration_date: '2023-10-01',
      seen_on: '2026-07-31',
    });
    expect(res.body.registration.address).to.deep.equal({ line: '北海道苫小牧市旭町４丁目５－６' });
    expect(res.body.registration.reason).to.match(/^not confirmed against the live register: /);
    expect(res.body.registration.sources[0].url).to.match(/^https:\/\/www\.invoice-kohyo\.nta\.go\.jp\//);
    expect(res.body.registration.cross_checked_against.length).to.be.greaterThan(0);
    expect(res.body.corporate_number_check).to.include({ check_digit_valid: true, holder: 'corporation' });
    expect(res.body.corporation).to.include({
      legal_name: '苫小牧市',
      status: 'active',
      closure: null,
      _source: 'registry_snapshot',
    });
    expect(res.body.registry_cross_check).to.equal('found');
    expect(res.body.notes.join(' ')).to.match(/not confirmed against the live register/);
  });

  it('accepts the number without its T and derives T + number, marked not checked', async () => {
    const res = await gw.get(`${PATH}?number=1180301018771`);
    expect(res.body.query).to.deep.equal({ number: '1180301018771', had_t_prefix: false });
    expect(res.body.registration_number).to.equal('T1180301018771');
    expect(res.body.registration).to.include({ status: 'not_checked', confirmed: false, basis: 'derived' });
    expect(res.body.registration.reason).to.match(/^not confirmed against the live register: /);
    expect(res.body.notes.join(' ')).to.match(/not confirmed against the live register/);
  });

  it('says when the digits are not a corporate number (check digit) without refusing: sole proprietors have other numbers', async () => {
    const res = await gw.get(`${PATH}?number=T1234567890123`);
    expect(res.status).to.equal(200);
    expect(res.body.corporate_number_check).to.deep.equal({
      corporate_number: '1234567890123',
      check_digit_valid: false,
      expected_check_digit: 9,
      holder: 'not_a_corporate_number',
    });
    expect(res.body.corporation).to.equal(null);
    expect(res.body.registry_cross_check).to.equal('not_applicable');
  });

  it('notes that a closed corporation’s registration ends with it', async () => {
    const res = await gw.get(`${PATH}?number=T1010001012570`);
    expect(res.body.corporation).to.include({ status: 'closed' });
    expect(res.body.corporation.closure).to.include({ date: '2022-01-19' });
    expect(res.body.notes.join(' ')).to.match(/closed/);
  });

  for (const [bad, why] of [
    ['T501040106725', 'T + 12 digits'],
    ['T50104010672521', 'T + 14 digits'],
    ['t5010401067252', 'a lower-case t'],
    ['TT5010401067252', 'two Ts'],
    ['5010401067252T', 'a trailing T'],
    ['', 'empty'],
  ]) {
    it(`refuses ${why} with 422`, async () => {
      const res = await gw.get(`${PATH}?number=${encodeURIComponent(bad)}`);
      expect(res.status).to.equal(422);
      expect(res.body.correction_hints[0].parameter).to.equal('number');
      expect(res.body.correction_hints[0].code).to.equal('pattern_mismatch');
    });
  }

  it('requires number and has no other parameter', async () => {
    expect((await gw.get(PATH)).body.correction_hints[0]).to.include({
      parameter: 'number',
      code: 'missing_required',
    });
    const extra = await gw.get(`${PATH}?number=T1000020012131&verbose=1`);
    expect(extra.body.correction_hints[0]).to.include({ parameter: 'verbose', code: 'unknown_parameter' });
  });

  describe('with an invoice application id (live, here a local stand-in)', () => {
    let standin: NtaStandin;
    let live: TestGateway;
    before(async () => {
      standin = await startNtaStandin({
        appId: 'inv-id',
        announcements: [
          registration('T1180301018771', 'トヨタ自動車株式会社', '愛知県豊田市トヨタ町１番地'),
          {
            registratedNumber: 'T1010001012570',
            process: '03',
            kind: '2',
            latest: '1',
            registrationDate: '2023-10-01',
            updateDate: '2022-01-26',
            disposalDate: '',
            expireDate: '2024-01-19',
            address: '東京都千代田区大手町１丁目２番１号',
            name: '三井物産グローバル投資株式会社',
          },
        ],
      });
      live = await startTestGateway({
        plugins: ['local-invoice-lookup'],
        clock: '2026-11-22T03:00:00Z',
        env: { NTA_INVOICE_APP_ID: 'inv-id', NTA_INVOICE_BASE_URL: standin.invoiceBaseUrl },
      });
    });
    after(async () => {
      await live.close();
      await standin.close();
    });

    it('confirms a registration from the register, with its dates', async () => {
      const res = await live.get(`${PATH}?number=1180301018771`);
      expect(res.body.registration).to.include({
        status: 'registered',
        confirmed: true,
        basis: 'register_live',
        reason: null,
        registration_date: '2023-10-01',
        legal_name: 'トヨタ自動車株式会社',
      });
      expect(res.body._provenance.kind).to.equal('snapshot');
      expect(res.body._provenance.notes[0]).to.match(/invoice register: live/);
    });

    it('confirms an expiry and a number the register does not hold', async () => {
      expect((await live.get(`${PATH}?number=T1010001012570`)).body.registration).to.include({
        status: 'expired',
        expire_date: '2024-01-19',
      });
      expect((await live.get(`${PATH}?number=T7000012050002`)).body.registration).to.include({
        status: 'not_registered',
        confirmed: true,
      });
    });

    it('answers 503 source_unavailable when the invoice Web-API fails', async () => {
      standin.faults.alwaysStatus = 502;
      try {
        // A number not asked before: answers are cached for a minute.
        const res = await live.get(`${PATH}?number=T4000012090001`);
        expect(res.status).to.equal(503);
        expect(res.body.error).to.equal('source_unavailable');
        expect(res.text).not.to.include('inv-id');
      } finally {
        delete standin.faults.alwaysStatus;
      }
    });
  });
});
