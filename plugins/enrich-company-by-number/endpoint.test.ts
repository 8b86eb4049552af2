import { expect } from 'chai';
import { startTestGateway, type TestGateway } from '../../test/support/gateway';

const PATH = '/preview/v1/enrich/company-by-number';

describe('enrich-company-by-number (enrich/company-by-number)', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ plugins: ['enrich-company-by-number'], clock: '2026-11-22T03:00:00Z' });
  });
  after(() => gw.close());

  it('answers the structured record: names in every script, kind label, address with post code, T-number status', async () => {
    const res = await gw.get(`${PATH}?number=4000012090001`);
    expect(res.status).to.equal(200);
    expect(res.body.names).to.deep.equal({
      legal_name: '経済産業省',
      name_without_legal_form: '経済産業省',
      legal_form: null,
      furigana: 'ケイザイサンギョウショウ',
      legal_name_en: 'Ministry of Economy, Trade and Industry',
      former_names: [],
    });
    expect(res.body.corporation.kind).to.include({ code: '101', name_ja: '国の機関' });
    expect(res.body.corporation).to.include({ legal_name: '経済産業省', _source: 'registry_snapshot' });
    expect(res.body.corporation.address).to.include({
      post_code: '1000013',
      city_code: '101',
      prefecture_code: '13',
    });
    expect(res.body.corporation.t_number_if_registered).to.equal('T4000012090001');
    expect(res.body.registration).to.include({
      registration_number: 'T4000012090001',
      confirmed: false,
      basis: 'derived',
    });
  });

  it('gives the legal form and its position, former names and the registration, not confirmed without the register', async () => {
    const res = await gw.get(`${PATH}?number=5010401067252`);
    expect(res.body.names.legal_form).to.include({ form: '株式会社', position: 'after' });
    expect(res.body.names.name_without_legal_form).to.equal('ソニーグループ');
    expect(res.body.names.former_names).to.deep.equal([
      { legal_name: 'ソニー株式会社', furigana: null, until: '2021-04-01' },
    ]);
    expect(res.body.names.former_names).to.deep.equal(res.body.corporation.former_names);
    expect(res.body.registration).to.include({ status: 'not_checked', confirmed: false });
    expect(res.body.registration.reason).to.match(/^not confirmed against the live register: /);
  });

  it('a registration seen in a public copy of register data is registered but not confirmed, with the reason', async () => {
    const res = await gw.get(`${PATH}?number=1000020012131`);
    expect(res.body.corporation.address).to.include({ street_number: '旭町４丁目５－６', city_code: '213' });
    expect(res.body.registration).to.include({
      status: 'registered',
      confirmed: false,
      basis: 'secondary_source',
      seen_on: '2026-07-31',
    });
    expect(res.body.registration.reason).to.match(/^not confirmed against the live register: /);
    expect(res.body.registration.address).to.deep.equal({ line: '北海道苫小牧市旭町４丁目５－６' });
  });

  it('status and history of a closed corporation', async () => {
    const res = await gw.get(`${PATH}?number=1700150032564`);
    expect(res.body.corporation.kind).to.include({ code: '499' });
    expect(res.body.corporation.closure.cause).to.include({ code: '31' });
  });

  it('422 on a wrong check digit or shape, 404 on an unknown valid number', async () => {
    expect((await gw.get(`${PATH}?number=4000012090002`)).body.correction_hints[0]).to.include({
      code: 'check_digit_mismatch',
    });
    expect((await gw.get(`${PATH}?number=400001209000`)).body.correction_hints[0]).to.include({
      code: 'pattern_mismatch',
    });
    expect((await gw.get(PATH)).body.correction_hints[0]).to.include({ code: 'missing_required' });
    const unknown = await gw.get(`${PATH}?number=7123456789012`);
    expect(unknown.status).to.equal(404);
    expect(unknown.body.error).to.equal('corporate_number_not_found');
  });
});
