import { expect } from 'chai';
import { isOfficialUrl } from '../../domain/shared/official-hosts';
import { startTestGateway, type TestGateway } from '../../test/support/gateway';
import { itAnswersEachQuery, type QueryCase } from '../../test/support/query-cases';

const PATH = '/preview/v1/local/payroll/calc-by-salary';

describe('local-payroll-calc (local/payroll/calc-by-salary)', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ plugins: ['local-payroll-calc'], clock: '2026-11-22T03:00:00Z' });
  });
  after(() => gw.close());

  const get = (q: string) => gw.get(`${PATH}?${q}`);

  it('answers grades, each deduction, totals and net pay with the rates of the current month, in Tokyo by default', async () => {
    const res = await get('monthly_salary=300000&age=39');
    expect(res.status).to.equal(200);
    const b = res.body;
    expect(b).to.include({
      monthly_salary: 300000,
      year_month: '2026-11',
      year_month_source: 'default_current_month_asia_tokyo',
      dependents: 0,
      age: 39,
      income_tax_jpy: 6320,
      health_insurance_jpy: 15120,
      pension_jpy: 27450,
      employment_insurance_jpy: 1500,
      social_insurance_total_jpy: 44070,
      taxable_amount_jpy: 255930,
      net_pay_jpy: 249610,
    });
    expect(b.prefecture).to.deep.equal({
      code: '13',
      name_ja: '東京都',
      name_en: 'Tokyo',
    });
    expect(b.pref_code_source).to.equal('default_tokyo');
    expect(b.standard_remuneration).to.deep.equal({
      health_insurance: { grade: 22, standard_monthly_remuneration_jpy: 300000 },
      pension: { grade: 19, standard_monthly_remuneration_jpy: 300000 },
    });
    expect(b.health_insurance_breakdown).to.deep.equal({
      health_jpy: 14775,
      nursing_care_jpy: 0,
      child_support_jpy: 345,
    });
    expect(b.conventions).to.include({ pay_month: '2026-11', premium_month: '2026-10' });
    expect(b.conventions.premium_month_rule).to.match(/month in arrears/);
    expect(b.diagnostics).to.equal(undefined);
  });

  it('defaults: age 40 (nursing care applies) and 0 dependants', async () => {
    const b = (await get('monthly_salary=300000')).body;
    expect(b).to.include({ age: 40, dependents: 0, health_insurance_jpy: 17550, income_tax_jpy: 6220 });
    expect(b.health_insurance_breakdown).to.deep.equal({
      health_jpy: 14775,
      nursing_care_jpy: 2430,
      child_support_jpy: 345,
    });
  });

  it('applies the prefecture given (Osaka 10.13%) and says so', async () => {
    const b = (await get('monthly_salary=500000&age=30&pref_code=27&dependents=2')).body;
    expect(b.prefecture).to.deep.equal({ code: '27', name_ja: '大阪府', name_en: 'Osaka' });
    expect(b.pref_code_source).to.equal('query');
    // 500,000 x (10.13 + 0.23)% / 2 = 25,900; pension 45,750; EI 2,500
    expect(b).to.include({ health_insurance_jpy: 25900, pension_jpy: 45750, employment_insurance_jpy: 2500 });
    // 500,000 - 74,150 = 425,850: row 425,000-428,000, 2 dependants: 11,390
    expect(b).to.include({
      taxable_amount_jpy: 425850,
      income_tax_jpy: 11390,
      net_pay_jpy: 500000 - 74150 - 11390,
    });
  });

  it('verbose adds the rates, exact amounts before rounding and the table lookup', async () => {
    const b = (await get('monthly_salary=1030000&age=45&pref_code=01&verbose=true')).body;
    expect(b.diagnostics.rates).to.include({
      health_percent: '10.28',
      nursing_care_percent: '1.62',
      child_support_percent: '0.23',
      health_side_combined_percent: '12.13',
      pension_percent: '18.3',
      employment_insurance_worker_per_mille: '5',
    });
    // grade 44 (1,030,000): 1,030,000 x 12.13% / 2 = 62,469.5 -> 62,469
    expect(b.diagnostics.exact_before_rounding.health_insurance_employee_share).to.equal('62469.5');
    expect(b.health_insurance_jpy).to.equal(62469);
    expect(b.pension_jpy).to.equal(59475);
    expect(b.employment_insurance_jpy).to.equal(5150);
    // 1,030,000 - 127,094 = 902,906: segment from 790,000, 23.483% on 112,906 = 26,513.71598 -> 26,513
    expect(b.taxable_amount_jpy).to.equal(902906);
    expect(b.diagnostics.withholding).to.include({ basis: 'above_table', income_tax_jpy: 81890 + 26513 });
    expect(b.diagnostics.withholding.above_table).to.deep.equal({
      base_tax_jpy: 81890,
      rate_percent: '23.483',
      excess_jpy: 112906,
      excess_tax_exact: '26513.71598',
    });
  });

  it('more than 7 dependants: deducts 1,610 yen per extra person from the 7-person figure, and says so', async () => {
    const b = (await get('monthly_salary=760000&age=30&dependents=10')).body;
    // social insurance: health 760,000 -> grade 38 (750,000): 750,000 x 10.08% / 2 = 37,800;
    // pension 59,475; EI 3,800; A = 658,925 -> row 656,000-659,000, 7 dependants 15,190 - 3 x 1,610
    expect(b.social_insurance_total_jpy).to.equal(37800 + 59475 + 3800);
    expect(b.taxable_amount_jpy).to.equal(658925);
    expect(b.income_tax_jpy).to.equal(15190 - 4830);
    expect(b.notes.join(' ')).to.match(/1,610 yen per extra person/);
  });

  const bounds: QueryCase[] = [
    ['monthly_salary=-1', 422, 'out_of_range'],
    ['monthly_salary=0', 200, null],
    ['monthly_salary=99999999', 200, null],
    ['monthly_salary=100000000', 422, 'out_of_range'],
    ['monthly_salary=3e5', 422, 'not_an_integer'],
    ['dependents=1', 422, 'missing_required'],
    ['monthly_salary=1&dependents=-1', 422, 'out_of_range'],
    ['monthly_salary=1&dependents=0', 200, null],
    ['monthly_salary=1&dependents=10', 200, null],
    ['monthly_salary=1&dependents=11', 422, 'out_of_range'],
    ['monthly_salary=1&age=14', 422, 'out_of_range'],
    ['monthly_salary=1&age=15', 200, null],
    ['monthly_salary=1&age=100', 200, null],
    ['monthly_salary=1&age=101', 422, 'out_of_range'],
    ['monthly_salary=1&pref_code=00', 422, 'unknown_prefecture'],
    ['monthly_salary=1&pref_code=01', 200, null],
    ['monthly_salary=1&pref_code=47', 200, null],
    ['monthly_salary=1&pref_code=48', 422, 'unknown_prefecture'],
    ['monthly_salary=1&pref_code=1', 422, 'unknown_prefecture'],
    ['monthly_salary=1&pref_code=013', 422, 'unknown_prefecture'],
    ['monthly_salary=1&verbose=yes', 422, 'not_a_boolean'],
    ['monthly_salary=1&verbose=0', 200, null],
    ['monthly_salary=1&year_month=2026-05', 422, 'unknown_parameter'],
  ];
  itAnswersEachQuery(get, bounds);

  it('uses the current month in Asia/Tokyo: 15:00 UTC on 31 December 2025 is January 2026', async () => {
    const edge = await startTestGateway({ plugins: ['local-payroll-calc'], clock: '2025-12-31T15:00:00Z' });
    try {
      const b = (await edge.get(`${PATH}?monthly_salary=300000&age=45`)).body;
      expect(b.year_month).to.equal('2026-01');
      expect(b.conventions.premium_month).to.equal('2025-12');
      // FY2025 Tokyo 9.91% + nursing 1.59%, no support contribution; employment insurance 5.5/1000
      expect(b).to.include({ health_insurance_jpy: 17250, employment_insurance_jpy: 1650 });
    } finally {
      await edge.close();
    }
  });

  it('keeps answering in 2027: 200 on 2027-01-02, with the 2027 withholding table', async () => {
    const jan = await startTestGateway({
      plugins: ['local-payroll-calc'],
      clock: '2027-01-02T00:00:00+09:00',
    });
    try {
      const res = await jan.get(`${PATH}?monthly_salary=300000`);
      expect(res.status).to.equal(200);
      expect(res.body.year_month).to.equal('2027-01');
      const tax = res.body.tables_in_force.find((t: { component: string }) => t.component === 'income_tax');
      expect(tax).to.include({ chosen_by: 'pay_month', month: '2027-01', status: 'confirmed' });
      expect(tax.table).to.match(/令和9年分/);
      expect(res.body.conventions.income_tax_rule).to.match(/令和9年分/);
    } finally {
      await jan.close();
    }
  });

  it('past the last published table: still 200, provisional: true, naming the table used and why', async () => {
    const far = await startTestGateway({ plugins: ['local-payroll-calc'], clock: '2031-06-15T00:00:00Z' });
    try {
      const res = await far.get(`${PATH}?monthly_salary=300000`);
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ year_month: '2031-06', provisional: true });
      const reasons = res.body.provisional_reasons.join(' ');
      expect(reasons).to.match(/Income tax withheld: no table for the pay month 2031-06 is loaded yet/);
      expect(reasons).to.match(/Health and nursing-care insurance: no table for the premium month 2031-05/);
      expect(reasons).to.match(/latest known table/);
      const provisional = res.body.tables_in_force.filter(
        (t: { status: string }) => t.status === 'provisional',
      );
      expect(provisional.map((t: { component: string }) => t.component)).to.include.members([
        'income_tax',
        'health_insurance',
        'employment_insurance',
      ]);
      expect(res.body.net_pay_jpy).to.equal(
        300000 - res.body.social_insurance_total_jpy - res.body.income_tax_jpy,
      );
    } finally {
      await far.close();
    }
  });

  it('names the official publishers as sources, and the transcriptions only as cross-checks', async () => {
    const b = (await get('monthly_salary=300000')).body;
    expect(b._attribution)
      .to.match(/National Tax Agency/)
      .and.match(/Kyokai Kenpo/);
    expect(b._provenance.kind).to.equal('snapshot');
    const sources: Array<{ name: string; url?: string }> = b._provenance.sources;
    for (const s of sources) expect(isOfficialUrl(s.url), `${s.name}: ${s.url}`).to.equal(true);
    expect(sources.map((s) => s.url).join(' ')).to.include(
      'www.nta.go.jp/publication/pamph/gensen/zeigakuhyo2026',
    );
    const checked = b._provenance.cross_checked_against.map((s: { name: string }) => s.name).join(' ');
    expect(checked).to.match(/keiri-tools/);
    expect(JSON.stringify(b)).not.to.match(/shared\/|reference\/|team re/i);
    expect(b._gateway).to.include({ endpoint_id: 'local-payroll-calc', price_micro_usdc: 10000 });
  });
});
