import { expect } from 'chai';
import { startTestGateway, type TestGateway } from '../../test/support/gateway';
import { itAnswersEachQuery, type QueryCase } from '../../test/support/query-cases';
import { PayrollCalculator } from '../../domain/payroll/payroll-calculator';
import { SocialInsuranceRates } from '../../domain/payroll/premium-rates';
import { StandardRemunerationTable } from '../../domain/payroll/standard-remuneration';
import { WithholdingTables } from '../../domain/payroll/withholding';
import { addMonths } from '../../domain/payroll/year-month';

/** The same tables the gateway loads, to state which months are confirmed without writing them down. */
const calculator = new PayrollCalculator(
  new StandardRemunerationTable(),
  new SocialInsuranceRates(),
  new WithholdingTables(),
);

const PATH = '/preview/v1/local/combined/payroll-summary';

describe('local-payroll-summary (local/combined/payroll-summary)', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ plugins: ['local-payroll-summary'], clock: '2026-11-22T03:00:00Z' });
  });
  after(() => gw.close());

  const get = (q: string) => gw.get(`${PATH}?${q}`);

  describe('worked example (docs/payroll.md): Tokyo, general business, 300,000 yen, May 2026 pay', () => {
    it('under 40: 14,775 + 345 health, 27,450 pension, 1,500 employment, tax 6,320', async () => {
      const res = await get('monthly_salary=300000&age=39&year_month=2026-05&pref_code=13');
      expect(res.status).to.equal(200);
      expect(res.body).to.include({
        monthly_salary: 300000,
        year_month: '2026-05',
        year_month_source: 'query',
        health_insurance_jpy: 15120,
        pension_jpy: 27450,
        employment_insurance_jpy: 1500,
        social_insurance_total_jpy: 44070,
        taxable_amount_jpy: 255930,
        income_tax_jpy: 6320,
        net_pay_jpy: 249610,
      });
      expect(res.body.health_insurance_breakdown).to.deep.equal({
        health_jpy: 14775,
        nursing_care_jpy: 0,
        child_support_jpy: 345,
      });
      expect(res.body.standard_remuneration).to.deep.equal({
        health_insurance: { grade: 22, standard_monthly_remuneration_jpy: 300000 },
        pension: { grade: 19, standard_monthly_remuneration_jpy: 300000 },
      });
    });

    it('40-64: health + nursing 17,205 + support 345, total 46,500, tax 6,220', async () => {
      const b = (await get('monthly_salary=300000&age=45&year_month=2026-05&pref_code=13')).body;
      expect(b).to.include({
        health_insurance_jpy: 17550,
        pension_jpy: 27450,
        employment_insurance_jpy: 1500,
        social_insurance_total_jpy: 46500,
        taxable_amount_jpy: 253500,
        income_tax_jpy: 6220,
        net_pay_jpy: 300000 - 46500 - 6220,
      });
      expect(
        b.health_insurance_breakdown.health_jpy + b.health_insurance_breakdown.nursing_care_jpy,
      ).to.equal(17205);
    });
  });

  it('every yen adds up: net = salary - health - pension - employment insurance - income tax', async () => {
    for (const q of [
      'monthly_salary=187654&age=52&dependents=1&pref_code=41&year_month=2026-02',
      'monthly_salary=1234567&age=66&dependents=3&pref_code=15&year_month=2026-09',
      'monthly_salary=99999999&age=71&dependents=10&pref_code=47&year_month=2026-12',
    ]) {
      const b = (await get(q)).body;
      const social = b.health_insurance_jpy + b.pension_jpy + b.employment_insurance_jpy;
      expect(b.social_insurance_total_jpy, q).to.equal(social);
      expect(b.net_pay_jpy, q).to.equal(b.monthly_salary - social - b.income_tax_jpy);
      const parts = b.health_insurance_breakdown;
      expect(parts.health_jpy + parts.nursing_care_jpy + parts.child_support_jpy, q).to.equal(
        b.health_insurance_jpy,
      );
    }
  });

  describe('the month each FY2026 change takes effect, before and after', () => {
    const at = async (ym: string, extra = '') =>
      (await get(`monthly_salary=300000&age=45&pref_code=13&year_month=${ym}${extra}`)).body;

    it('health and nursing rates: FY2025 (9.91% + 1.59%) in the March pay, FY2026 (9.85% + 1.62%) from April', async () => {
      const march = await at('2026-03', '&verbose=true');
      const april = await at('2026-04', '&verbose=true');
      expect(march.conventions.premium_month).to.equal('2026-02');
      expect(march.diagnostics.rates).to.include({ health_percent: '9.91', nursing_care_percent: '1.59' });
      expect(march.health_insurance_jpy).to.equal(17250);
      expect(april.diagnostics.rates).to.include({ health_percent: '9.85', nursing_care_percent: '1.62' });
      expect(april.health_insurance_jpy).to.equal(17205);
    });

    it('child and child-rearing support contribution: none in the April pay, 0.23% from the May pay', async () => {
      const april = await at('2026-04');
      const may = await at('2026-05');
      expect(april.health_insurance_breakdown.child_support_jpy).to.equal(0);
      expect(april.notes.join(' ')).to.match(/premium of 2026-04/);
      expect(may.health_insurance_breakdown.child_support_jpy).to.equal(345);
    });

    it('employment insurance: 5.5/1000 in the March pay, 5/1000 from April', async () => {
      expect((await at('2026-03')).employment_insurance_jpy).to.equal(1650);
      expect((await at('2026-04')).employment_insurance_jpy).to.equal(1500);
    });
  });

  it('every pay month 2025-01 to 2027-12 answers 200, each component from the table in force for its month', async () => {
    const confirmedTo = calculator.confirmedPayMonths.to;
    for (let m = '2025-01'; m <= '2027-12'; m = addMonths(m, 1)) {
      const res = await get(`monthly_salary=412345&age=45&dependents=2&pref_code=27&year_month=${m}`);
      expect(res.status, m).to.equal(200);
      const b = res.body;
      for (const t of b.tables_in_force) {
        const covers =
          (t.applies.from === null || t.month >= t.applies.from) &&
          (t.applies.to === null || t.month <= t.applies.to);
        expect(t.status, `${m} ${t.component}`).to.equal(covers ? 'confirmed' : 'provisional');
        expect(t.month, `${m} ${t.component}`).to.equal(t.chosen_by === 'pay_month' ? m : addMonths(m, -1));
      }
      const tax = b.tables_in_force.find((t: { component: string }) => t.component === 'income_tax');
      expect(tax.status, `${m} income tax`).to.equal('confirmed');
      expect(b.provisional, m).to.equal(m > confirmedTo);
      expect(b.provisional_reasons.length > 0, m).to.equal(m > confirmedTo);
    }
  });

  describe('to the yen in 2025, 2026 and 2027: Tokyo, 300,000 yen, under 40, no dependants', () => {
    // Each line worked by hand from the published figures: standard remuneration 300,000 (health
    // grade 22, pension grade 19); health = 300,000 x (Tokyo rate + support rate) / 2; pension
    // 300,000 x 18.3% / 2 = 27,450; employment insurance = 300,000 x worker rate; tax = the row
    // 254,000-257,000 (or 251,000-254,000) of the monthly table of the year of payment, column 0.
    const cases: Array<[string, number, number, number, number, string]> = [
      // pay month, health, employment, after social insurance, tax, why
      ['2025-01', 14_970, 1_800, 255_780, 6_750, 'premium 2024-12: FY2024 9.98%; FY2024 6/1000; 令和7年分'],
      ['2025-03', 14_970, 1_800, 255_780, 6_750, 'premium 2025-02: still FY2024; wages of FY2024'],
      ['2025-04', 14_865, 1_650, 256_035, 6_750, 'premium 2025-03: FY2025 9.91%; FY2025 5.5/1000'],
      ['2026-03', 14_865, 1_650, 256_035, 6_320, 'premium 2026-02: FY2025; 令和8年分'],
      ['2026-04', 14_775, 1_500, 256_275, 6_320, 'premium 2026-03: FY2026 9.85%; FY2026 5/1000'],
      ['2026-05', 15_120, 1_500, 255_930, 6_320, 'premium 2026-04: + support 0.23%'],
      ['2026-12', 15_120, 1_500, 255_930, 6_320, 'same rates, last month of 令和8年分'],
      ['2027-01', 15_120, 1_500, 255_930, 6_160, 'only the withholding table changes: 令和9年分'],
      ['2027-03', 15_120, 1_500, 255_930, 6_160, 'last confirmed month'],
    ];
    for (const [month, health, employment, after, tax, why] of cases) {
      it(`${month}: health ${health}, employment ${employment}, tax ${tax} (${why})`, async () => {
        const b = (await get(`monthly_salary=300000&age=30&year_month=${month}`)).body;
        expect(b).to.include({
          health_insurance_jpy: health,
          pension_jpy: 27_450,
          employment_insurance_jpy: employment,
          taxable_amount_jpy: after,
          income_tax_jpy: tax,
          net_pay_jpy: after - tax,
          provisional: false,
        });
      });
    }
  });

  it('the pay months from when answers are provisional are those after the last confirmed table', async () => {
    const first = calculator.provisionalFrom;
    const b = (await get(`monthly_salary=300000&year_month=${first}`)).body;
    expect(b.provisional).to.equal(true);
    expect(b.provisional_reasons.join(' ')).to.match(/was applied/);
    const before = (await get(`monthly_salary=300000&year_month=${addMonths(first, -1)}`)).body;
    expect(before.provisional).to.equal(false);
  });

  it("adds the month's working days and national holidays", async () => {
    const sept = (await get('monthly_salary=300000&year_month=2026-09')).body.calendar;
    expect(sept.working_days).to.equal(19);
    expect(sept.holidays.map((h: { date: string; kind: string }) => [h.date, h.kind])).to.deep.equal([
      ['2026-09-21', 'national_holiday'],
      ['2026-09-22', 'citizens_holiday'],
      ['2026-09-23', 'national_holiday'],
    ]);
    const may = (await get('monthly_salary=300000&year_month=2026-05')).body.calendar;
    expect(may.working_days).to.equal(18);
    expect(may.holidays).to.have.length(4);
    const dec = (await get('monthly_salary=300000&year_month=2026-12')).body.calendar;
    expect(dec).to.include({ working_days: 23 });
    expect(dec.holidays).to.deep.equal([]);
  });

  it('defaults year_month to the current month in Asia/Tokyo and the prefecture to Tokyo, saying so', async () => {
    const b = (await get('monthly_salary=300000')).body;
    expect(b).to.include({ year_month: '2026-11', year_month_source: 'default_current_month_asia_tokyo' });
    expect(b.prefecture).to.include({ code: '13' });
    expect(b.pref_code_source).to.equal('default_tokyo');
    expect(b.calendar.working_days).to.equal(19);
    // 2027-01-02 in Tokyo: the default month moves into 2027 and is answered.
    const later = await startTestGateway({
      plugins: ['local-payroll-summary'],
      clock: '2027-01-02T00:00:00+09:00',
    });
    try {
      const res = await later.get(`${PATH}?monthly_salary=300000`);
      expect(res.status).to.equal(200);
      expect(res.body).to.include({
        year_month: '2027-01',
        year_month_source: 'default_current_month_asia_tokyo',
      });
      expect(res.body.calendar.holidays.map((h: { date: string }) => h.date)).to.include('2027-01-01');
    } finally {
      await later.close();
    }
  });

  it('states its premium-month convention', async () => {
    const b = (await get('monthly_salary=300000&year_month=2026-07')).body;
    expect(b.conventions).to.include({ pay_month: '2026-07', premium_month: '2026-06' });
    expect(b.conventions.premium_month_rule).to.match(/翌月徴収/);
    expect(b.conventions.employment_insurance_rule).to.match(/General business/);
    expect(b.conventions.income_tax_rule).to.match(/column 甲/);
  });

  it('states the support-contribution rounding, and with verbose the amount if rounded separately', async () => {
    // Aomori 9.85%, grade 7 (110,000): health half 5,417.5 and support half 126.5; rounded together
    // 110,000 x 10.08% / 2 = 5,544.0 -> 5,544; each on its own 5,417 + 126 = 5,543.
    const b = (await get('monthly_salary=110000&age=30&pref_code=02&year_month=2026-05&verbose=true')).body;
    expect(b.conventions.child_support_rounding_rule).to.match(/rounded together with health insurance/);
    expect(b.conventions.child_support_rounding_rule).to.match(/2026-02-12/);
    expect(b.health_insurance_jpy).to.equal(5544);
    expect(b.diagnostics.alternative_rounding).to.include({
      health_and_nursing_care_jpy: 5417,
      child_support_jpy: 126,
      health_insurance_jpy: 5543,
      difference_jpy: -1,
    });
    const plain = (await get('monthly_salary=110000&age=30&pref_code=02&year_month=2026-05')).body;
    expect(plain.conventions.child_support_rounding_rule).to.equal(b.conventions.child_support_rounding_rule);
    expect(plain.diagnostics).to.equal(undefined);
  });

  const bounds: QueryCase[] = [
    ['monthly_salary=-1', 422, 'out_of_range'],
    ['monthly_salary=0', 200, null],
    ['monthly_salary=99999999', 200, null],
    ['monthly_salary=100000000', 422, 'out_of_range'],
    ['age=30', 422, 'missing_required'],
    ['monthly_salary=1&age=14', 422, 'out_of_range'],
    ['monthly_salary=1&age=15', 200, null],
    ['monthly_salary=1&age=100', 200, null],
    ['monthly_salary=1&age=101', 422, 'out_of_range'],
    ['monthly_salary=1&dependents=-1', 422, 'out_of_range'],
    ['monthly_salary=1&dependents=0', 200, null],
    ['monthly_salary=1&dependents=10', 200, null],
    ['monthly_salary=1&dependents=11', 422, 'out_of_range'],
    ['monthly_salary=1&dependents=two', 422, 'not_an_integer'],
    ['monthly_salary=1&pref_code=00', 422, 'unknown_prefecture'],
    ['monthly_salary=1&pref_code=01', 200, null],
    ['monthly_salary=1&pref_code=47', 200, null],
    ['monthly_salary=1&pref_code=48', 422, 'unknown_prefecture'],
    ['monthly_salary=1&year_month=2026-13', 422, 'invalid_year_month'],
    ['monthly_salary=1&year_month=2026-1', 422, 'invalid_year_month'],
    ['monthly_salary=1&year_month=2026-11-01', 422, 'invalid_year_month'],
    ['monthly_salary=1&year_month=0000-01', 422, 'invalid_year_month'],
    ['monthly_salary=1&year_month=0001-01', 200, null],
    ['monthly_salary=1&year_month=9999-12', 200, null],
    ['monthly_salary=1&verbose=maybe', 422, 'not_a_boolean'],
    ['monthly_salary=1&verbose=true', 200, null],
  ];
  itAnswersEachQuery(get, bounds);

  it('carries the spec fields as integers, the attribution and a dated-snapshot provenance', async () => {
    const b = (await get('monthly_salary=412345&age=41&dependents=2&pref_code=23&year_month=2026-10')).body;
    for (const f of [
      'monthly_salary',
      'income_tax_jpy',
      'health_insurance_jpy',
      'pension_jpy',
      'employment_insurance_jpy',
      'net_pay_jpy',
    ]) {
      expect(Number.isInteger(b[f]), f).to.equal(true);
    }
    expect(b.year_month).to.match(/^\d{4}-\d{2}$/);
    expect(b._attribution).to.match(/Cabinet Office/);
    expect(b._provenance.kind).to.equal('snapshot');
    expect(b._gateway).to.include({
      endpoint_id: 'local-payroll-summary',
      price_micro_usdc: 15000,
      preview: true,
    });
  });
});
