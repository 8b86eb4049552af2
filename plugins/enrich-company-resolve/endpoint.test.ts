import { expect } from 'chai';
import { startTestGateway, type TestGateway } from '../../test/support/gateway';

const PATH = '/preview/v1/enrich/company-resolve';
const get = (gw: TestGateway, q: string) => gw.get(`${PATH}?q=${encodeURIComponent(q)}`);

describe('enrich-company-resolve (enrich/company-resolve)', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ plugins: ['enrich-company-resolve'], clock: '2026-11-22T03:00:00Z' });
  });
  after(() => gw.close());

  it('detects a corporate number (spaces and hyphens allowed) and answers it with reliability 1', async () => {
    for (const q of ['1130001011420', '1130-0010-11420', ' 1130001011420 ']) {
      const res = await get(gw, q);
      expect(res.body.detected_as, q).to.equal('corporate_number');
      expect(res.body.best).to.include({
        corporate_number_hint: '1130001011420',
        legal_name: '任天堂株式会社',
        match_reliability: 1,
      });
    }
  });

  it('detects a T-number and answers the registration too', async () => {
    const res = await get(gw, 'T5010401067252');
    expect(res.body.detected_as).to.equal('registration_number');
    expect(res.body.query).to.deep.equal({ q: 'T5010401067252' });
    expect(res.body.best).to.include({
      legal_name: 'ソニーグループ株式会社',
      match_mode: 'registration_number',
      t_number_if_registered: 'T5010401067252',
    });
    expect(res.body.best.address).to.include({ prefecture_name: '東京都' });
    expect(res.body.registration).to.include({ confirmed: false, basis: 'derived' });
    expect(res.body.registration.reason).to.match(/^not confirmed against the live register: /);
  });

  it('detects a domain or URL', async () => {
    const res = await get(gw, 'https://jpn.nec.com/');
    expect(res.body.detected_as).to.equal('domain');
    expect(res.body.best).to.include({ legal_name: '日本電気株式会社', match_mode: 'domain_map' });
  });

  it('detects a name, including English names with dots and commas, and answers alternates', async () => {
    const english = await get(gw, 'Sekisui House,Ltd.');
    expect(english.body.detected_as).to.equal('name');
    expect(english.body.best.corporate_number_hint).to.equal('8120001059652');
    const kana = await get(gw, 'さくら');
    expect(kana.body.detected_as).to.equal('name');
    const partial = await get(gw, '建設');
    expect(partial.body.best.match_mode).to.equal('partial');
    expect(partial.body.alternates.length).to.equal(2);
    expect(partial.body.alternates.length).to.be.at.most(4);
  });

  it('refuses a 13-digit number with a wrong check digit (422), answers an unknown valid one with no best', async () => {
    const bad = await get(gw, '1130001011421');
    expect(bad.status).to.equal(422);
    expect(bad.body.correction_hints[0]).to.include({ parameter: 'q', code: 'check_digit_mismatch' });
    const unknown = await get(gw, '7123456789012');
    expect(unknown.status).to.equal(200);
    expect(unknown.body.best).to.equal(null);
    expect(unknown.body.notes[0]).to.match(/No corporation/);
  });

  it('q is required and non-empty', async () => {
    expect((await gw.get(PATH)).body.correction_hints[0]).to.include({
      parameter: 'q',
      code: 'missing_required',
    });
    expect((await gw.get(`${PATH}?q=`)).body.correction_hints[0]).to.include({
      parameter: 'q',
      code: 'empty_value',
    });
    expect((await get(gw, '㈱')).body.correction_hints[0]).to.include({
      parameter: 'q',
      code: 'legal_form_only',
    });
  });
});
