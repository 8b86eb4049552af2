import { expect } from 'chai';
import { normaliseGrant } from '../../../domain/grants/grant-record';
import { areaMatch, readTargetAreas } from '../../../domain/grants/areas';
import { readEmployeeLimit, employeesFit, findIndustry, findPurpose } from '../../../domain/grants/taxonomy';
import { IDS, snapshotItem } from '../../support/grants-snapshot';

const NOW = new Date('2026-11-22T03:00:00Z');

describe('grants: normalisation of a jGrants record', () => {
  it('builds the spec 2.4 fields from a real record', () => {
    const r = normaliseGrant(snapshotItem(IDS.okinawaWage), NOW);
    expect(r).to.deep.include({
      grant_id: 'a0WJ200000CDe6cMAD',
      title: '【沖縄】令和８年度中小企業最低賃金引上げ支援対策費補助金（業務改善助成金）',
      deadline_date: '2026-11-30',
      max_subsidy_amount_jpy: 6_000_000,
      amount_extraction_status: 'ok',
      status: 'open',
      days_until_deadline: 8,
      subsidy_rate: '３／４～４／５',
      official_page_url: 'https://www.jgrants-portal.go.jp/subsidy/a0WJ200000CDe6cMAD',
    });
    expect(r.acceptance).to.deep.equal({
      start_at: '2026-09-01T00:00:00+09:00',
      end_at: '2026-11-30T23:59:00+09:00',
      start_date: '2026-09-01',
      end_date: '2026-11-30',
      timezone: 'Asia/Tokyo',
    });
    expect(r.target_areas).to.include({ nationwide: false, text: '沖縄県' });
    expect(r.target_areas.prefecture_codes).to.deep.equal(['47']);
    expect(r.purposes).to.deep.equal({ labels: ['設備整備・IT導入をしたい'], slugs: ['equipment_it'] });
    expect(r.industries!.labels).to.have.length(19);
    expect(r.industries!.slugs).to.not.include('government');
  });

  it('status follows the request time: open, closed after the instant, upcoming before the start', () => {
    const item = snapshotItem(IDS.kumamotoWage); // 2026-09-01 00:00 to 2026-11-30 23:59 JST
    expect(normaliseGrant(item, new Date('2026-11-30T14:58:59Z')).status).to.equal('open');
    expect(normaliseGrant(item, new Date('2026-11-30T15:00:00Z')).status).to.equal('closed');
    expect(normaliseGrant(item, new Date('2026-08-31T14:59:59Z')).status).to.equal('upcoming');
    expect(normaliseGrant(item, new Date('2026-12-01T00:00:00Z')).days_until_deadline).to.equal(-1);
    expect(normaliseGrant({ id: 'x' }, NOW).status).to.equal('unknown');
  });

  it('reads several prefectures, with and without spaces around "/"', () => {
    const r = normaliseGrant(snapshotItem(IDS.craftsFourPrefectures), NOW);
    expect(r.target_areas.prefecture_codes).to.deep.equal(['15', '16', '17', '18']);
    expect(r.target_areas.prefectures).to.deep.equal(['新潟県', '富山県', '石川県', '福井県']);
    expect(r.target_areas.detail).to.equal('新潟県/福井県/石川県、富山県');
  });

  it('keeps a nationwide grant’s narrowing text (成田空港)', () => {
    const r = normaliseGrant(snapshotItem(IDS.naritaNoCapAreaDetail), NOW);
    expect(r.target_areas.nationwide).to.equal(true);
    expect(r.target_areas.detail).to.match(/^成田国際空港の区域において/);
    expect(r.project_end_date).to.equal('2026-09-30');
  });

  it('turns the HTML description into text (entities decoded)', () => {
    const r = normaliseGrant(snapshotItem(IDS.maSmallSellerOk), NOW);
    expect(r.description).to.include('事業承継・M&A補助金(16次公募)');
    expect(r.description).to.not.include('&amp;');
    const clinical = normaliseGrant(snapshotItem(IDS.tokyoClinical50000), NOW);
    expect(clinical.description).to.include('<目的>');
  });

  it('finds an inquiry section in a description as contact', () => {
    const r = normaliseGrant(
      {
        id: 'x1',
        detail: '<p>■目的・概要 補助します。</p><p>■問合せ先 東京都保健医療局 ０３－５３２０－４４２７</p>',
      },
      NOW,
    );
    expect(r.contact.inquiry_text).to.equal('東京都保健医療局 ０３－５３２０－４４２７');
    expect(r.missing_fields).to.not.include('contact');
  });

  it('reads employee conditions in jGrants’ forms and nothing else', () => {
    expect(readEmployeeLimit('300名以下')).to.include({ max_employees: 300, understood: true });
    expect(readEmployeeLimit('901名以上')).to.include({ min_employees: 901, understood: true });
    expect(readEmployeeLimit('従業員数の制約なし')).to.include({ unrestricted: true });
    expect(readEmployeeLimit('常時使用する従業員が少ないこと')).to.include({ understood: false });
    expect(readEmployeeLimit('')).to.equal(null);
    const limit = readEmployeeLimit('20名以下')!;
    expect([employeesFit(limit, 20), employeesFit(limit, 21)]).to.deep.equal([true, false]);
    expect(employeesFit(readEmployeeLimit('901名以上')!, 900)).to.equal(false);
    expect(employeesFit(readEmployeeLimit('謎')!, 10)).to.equal(undefined);
  });

  it('accepts industries and purposes as slugs or jGrants labels, width-insensitively', () => {
    expect(findIndustry('manufacturing')?.name_ja).to.equal('製造業');
    expect(findIndustry('サービス業(他に分類されないもの)')?.slug).to.equal('other_services');
    expect(findPurpose('設備整備・IT導入をしたい')?.slug).to.equal('equipment_it');
    expect(findIndustry('software')).to.equal(undefined);
  });
});

describe('grants: target areas', () => {
  it('says unknown, not no, for a region-wide grant', () => {
    const region = readTargetAreas('九州・沖縄地方', null);
    expect(areaMatch(region, '47')).to.equal('unknown');
    expect(areaMatch(readTargetAreas('全国', null), '47')).to.equal('nationwide');
    expect(areaMatch(readTargetAreas('沖縄県', null), '47')).to.equal('prefecture');
    expect(areaMatch(readTargetAreas('鳥取県', null), '47')).to.equal('no');
  });
});
