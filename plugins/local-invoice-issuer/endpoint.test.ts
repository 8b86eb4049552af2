import { expect } from 'chai';
import { startTestGateway, type TestGateway } from '../../test/support/gateway';
import { withQuery } from '../../test/support/query-cases';
import { startNtaStandin, type NtaStandin, registration } from '../../test/support/nta-standin';

const PATH = '/preview/v1/local/invoice/issuer-by-name';
const q = (params: Record<string, string | number>) => withQuery(PATH, params);

describe('local-invoice-issuer (local/invoice/issuer-by-name)', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ plugins: ['local-invoice-issuer'], clock: '2026-11-22T03:00:00Z' });
  });
  after(() => gw.close());

  it('gives each candidate its T-number; a registration in the dated list of register copies is not confirmed, with the reason', async () => {
    const res = await gw.get(q({ name: '苫小牧市' }));
    expect(res.status).to.equal(200);
    const c = res.body.candidates[0];
    expect(c).to.include({
      corporate_number_hint: '1000020012131',
      t_number_if_registered: 'T1000020012131',
      match_mode: 'exact',
    });
    expect(c.registration).to.include({ status: 'registered', confirmed: false, basis: 'secondary_source' });
    expect(c.registration.reason).to.match(/^not confirmed against the live register: /);
    expect(c.registration.sources.length).to.be.greaterThan(0);
    expect(c.registration).to.include({ registration_number: 'T1000020012131', legal_name: '苫小牧市' });
  });

  it('marks a derived T-number as not checked (confirmed: false)', async () => {
    const res = await gw.get(q({ name: '鹿島建設' }));
    expect(res.body.candidates[0]).to.include({ t_number_if_registered: 'T8010401006744' });
    expect(res.body.candidates[0].registration).to.include({
      status: 'not_checked',
      confirmed: false,
      basis: 'derived',
    });
  });

  it('limit: 0 and 51 refused, 1 and 50 served', async () => {
    for (const [limit, status] of [
      [0, 422],
      [1, 200],
      [50, 200],
      [51, 422],
    ] as const) {
      const res = await gw.get(q({ name: '株式会社日立', limit }));
      expect(res.status, String(limit)).to.equal(status);
      if (status === 200) expect(res.body.candidates.length).to.be.at.most(limit);
      else expect(res.body.correction_hints[0]).to.include({ parameter: 'limit', code: 'out_of_range' });
    }
  });

  it('name is required and non-empty', async () => {
    expect((await gw.get(PATH)).body.correction_hints[0]).to.include({
      parameter: 'name',
      code: 'missing_required',
    });
    expect((await gw.get(q({ name: '' }))).body.correction_hints[0]).to.include({
      parameter: 'name',
      code: 'empty_value',
    });
    expect((await gw.get(q({ name: '（株）' }))).body.correction_hints[0]).to.include({
      code: 'legal_form_only',
    });
  });

  it('verbose is a string flag', async () => {
    expect((await gw.get(q({ name: '日立', verbose: 'yes' }))).body.diagnostics.rules).to.have.length(3);
    expect((await gw.get(q({ name: '日立', verbose: 'off' }))).body.diagnostics).to.equal(undefined);
  });

  describe('with an invoice application id (live, here a local stand-in)', () => {
    let standin: NtaStandin;
    let live: TestGateway;
    before(async () => {
      standin = await startNtaStandin({
        appId: 'inv-id',
        announcements: [registration('T8010401006744', '鹿島建設株式会社', '東京都港区元赤坂一丁目３番１号')],
      });
      live = await startTestGateway({
        plugins: ['local-invoice-issuer'],
        clock: '2026-11-22T03:00:00Z',
        env: { NTA_INVOICE_APP_ID: 'inv-id', NTA_INVOICE_BASE_URL: standin.invoiceBaseUrl },
      });
    });
    after(async () => {
      await live.close();
      await standin.close();
    });

    it('confirms registrations with the register, and says which are not registered', async () => {
      const res = await live.get(q({ name: '建設' }));
      const kajima = res.body.candidates.find(
        (c: { corporate_number_hint: string }) => c.corporate_number_hint === '8010401006744',
      );
      expect(kajima.registration).to.include({
        status: 'registered',
        confirmed: true,
        basis: 'register_live',
        registration_date: '2023-10-01',
      });
      const others = res.body.candidates.filter(
        (c: { corporate_number_hint: string }) => c.corporate_number_hint !== '8010401006744',
      );
      for (const c of others)
        expect(c.registration).to.include({ status: 'not_registered', confirmed: true });
      expect(standin.requests.filter((r) => r.path === '/1/num')).to.have.length(1);
    });
  });
});
