import { expect } from 'chai';
import { startTestGateway, type TestGateway } from '../../test/support/gateway';

const PATH = '/preview/v1/enrich/name-normalize';
const get = (gw: TestGateway, name: string) => gw.get(`${PATH}?name=${encodeURIComponent(name)}`);

describe('enrich-name-normalize (enrich/name-normalize)', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ plugins: ['enrich-name-normalize'] });
  });
  after(() => gw.close());

  it('answers the key, the legal form and where it stands, and both widths', async () => {
    const res = await get(gw, '㈱ｻｶﾀのﾀﾈ');
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ search_key: 'サカタノタネ', name_without_legal_form: 'ｻｶﾀのﾀﾈ' });
    expect(res.body.legal_form).to.include({
      form: '株式会社',
      written: '(株)',
      position: 'before',
      kind_code: '301',
    });
    expect(res.body.widths).to.deep.equal({
      half_width: '(株)サカタのタネ',
      full_width: '（株）サカタのタネ',
    });
  });

  it('finds forms after the name, in katakana, and other kinds of corporation', async () => {
    expect((await get(gw, 'トヨタ自動車カブシキガイシャ')).body.legal_form).to.include({
      form: '株式会社',
      position: 'after',
    });
    expect((await get(gw, '一般社団法人 日本サンプル協会')).body.legal_form).to.include({
      form: '一般社団法人',
      kind_code: null,
    });
    expect((await get(gw, '合同会社サンプル')).body.legal_form).to.include({ kind_code: '305' });
    expect((await get(gw, 'ニッスイ')).body.legal_form).to.equal(null);
  });

  it('gives the English and reading keys of a Latin name', async () => {
    const res = await get(gw, 'Hitachi, Ltd.');
    expect(res.body.english_key).to.equal('hitachi');
    expect(res.body.reading_key).to.be.a('string');
  });

  it('name is required and non-empty; it is a computation without registry lookup', async () => {
    expect((await gw.get(PATH)).body.correction_hints[0]).to.include({ code: 'missing_required' });
    expect((await gw.get(`${PATH}?name=`)).body.correction_hints[0]).to.include({ code: 'empty_value' });
    const only = await get(gw, '株式会社');
    expect(only.status).to.equal(200);
    expect(only.body.search_key).to.equal('');
    expect(only.body._provenance.notes[0]).to.match(/no registry lookup/);
  });
});
