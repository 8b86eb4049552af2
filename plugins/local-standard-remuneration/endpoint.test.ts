import { expect } from 'chai';
import { startTestGateway, type TestGateway } from '../../test/support/gateway';
import { itAnswersEachQuery, type QueryCase } from '../../test/support/query-cases';
import { StandardRemunerationTable } from '../../domain/payroll/standard-remuneration';
import { addMonths } from '../../domain/payroll/year-month';

const PATH = '/preview/v1/local/social-insurance/standard-remuneration';

describe('local-standard-remuneration (local/social-insurance/standard-remuneration)', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ plugins: ['local-standard-remuneration'], clock: '2026-11-22T03:00:00Z' });
  });
  after(() => gw.close());

  const get = (q: string) => gw.get(`${PATH}?${q}`);

  it('answers the health and pension grade of a salary with the bracket bounds (以上/未満)', async () => {
    const res = await get('monthly_salary=300000');
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ monthly_salary: 300000, year_month: '2026-11' });
    expect(res.body.health_insurance).to.deep.equal({
      grade: 22,
      standard_monthly_remuneration_jpy: 300000,
      bracket: { from_jpy: 290000, below_jpy: 310000 },
      grades_in_scale: 50,
      table: 'Health Insurance Act Art. 40 grades 1-50 (from April 2016)',
    });
    expect(res.body.pension).to.deep.equal({
      grade: 19,
      standard_monthly_remuneration_jpy: 300000,
      bracket: { from_jpy: 290000, below_jpy: 310000 },
      grades_in_scale: 32,
      table: "Employees' Pension Insurance Act Art. 20 grades 1-32 (from September 2020)",
    });
    expect(res.body).to.include({ provisional: false });
    expect(res.body.grade_table).to.equal(undefined);
  });

  const cases: Array<[number, number, number, number, number]> = [
    // salary, health grade, health amount, pension grade, pension amount
    [0, 1, 58000, 1, 88000],
    [62999, 1, 58000, 1, 88000],
    [63000, 2, 68000, 1, 88000],
    [92999, 4, 88000, 1, 88000],
    [93000, 5, 98000, 2, 98000],
    [634999, 34, 620000, 31, 620000],
    [635000, 35, 650000, 32, 650000],
    [665000, 36, 680000, 32, 650000],
    [1354999, 49, 1330000, 32, 650000],
    [1355000, 50, 1390000, 32, 650000],
    [99999999, 50, 1390000, 32, 650000],
  ];
  for (const [salary, hg, ha, pg, pa] of cases) {
    it(`${salary} yen: health grade ${hg} (${ha}), pension grade ${pg} (${pa})`, async () => {
      const res = await get(`monthly_salary=${salary}`);
      expect(res.body.health_insurance).to.include({ grade: hg, standard_monthly_remuneration_jpy: ha });
      expect(res.body.pension).to.include({ grade: pg, standard_monthly_remuneration_jpy: pa });
    });
  }

  it('shows open brackets at the ends of the scales', async () => {
    const low = await get('monthly_salary=1000');
    expect(low.body.pension.bracket).to.deep.equal({ from_jpy: 0, below_jpy: 93000 });
    const high = await get('monthly_salary=2000000');
    expect(high.body.health_insurance.bracket).to.deep.equal({ from_jpy: 1355000, below_jpy: null });
    expect(high.body.pension.bracket).to.deep.equal({ from_jpy: 635000, below_jpy: null });
  });

  it('verbose adds both whole grade tables', async () => {
    const res = await get('monthly_salary=300000&verbose=true');
    expect(res.body.grade_table.health_insurance).to.have.length(50);
    expect(res.body.grade_table.pension).to.have.length(32);
    expect(res.body.grade_table.health_insurance[49]).to.deep.equal({
      grade: 50,
      standard_monthly_remuneration_jpy: 1390000,
      bracket: { from_jpy: 1355000, below_jpy: null },
    });
    expect((await get('monthly_salary=300000&verbose=0')).body.grade_table).to.equal(undefined);
  });

  const bounds: QueryCase[] = [
    ['monthly_salary=-1', 422, 'out_of_range'],
    ['monthly_salary=0', 200, null],
    ['monthly_salary=99999999', 200, null],
    ['monthly_salary=100000000', 422, 'out_of_range'],
    ['monthly_salary=1.5', 422, 'not_an_integer'],
    ['monthly_salary=abc', 422, 'not_an_integer'],
    ['', 422, 'missing_required'],
    ['monthly_salary=1&verbose=yes', 422, 'not_a_boolean'],
    ['monthly_salary=1&verbose=1', 200, null],
    ['monthly_salary=1&month=2026-11', 422, 'unknown_parameter'],
  ];
  itAnswersEachQuery(get, bounds);

  it('follows the enacted pension scale changes: grade 33 (680,000) from September 2027, 35 grades from September 2029', async () => {
    const at = async (clock: string, salary: number) => {
      const g = await startTestGateway({ plugins: ['local-standard-remuneration'], clock });
      try {
        return (await g.get(`${PATH}?monthly_salary=${salary}`)).body;
      } finally {
        await g.close();
      }
    };
    const aug = await at('2027-08-31T12:00:00+09:00', 700_000);
    expect(aug.pension).to.include({
      grade: 32,
      standard_monthly_remuneration_jpy: 650_000,
      grades_in_scale: 32,
    });
    const sept = await at('2027-09-01T09:00:00+09:00', 700_000);
    expect(sept).to.include({ year_month: '2027-09', provisional: false });
    expect(sept.pension).to.deep.include({
      grade: 33,
      standard_monthly_remuneration_jpy: 680_000,
      bracket: { from_jpy: 665_000, below_jpy: null },
      grades_in_scale: 33,
    });
    expect(sept.pension.table).to.match(/令和7年法律第74号/);
    const later = await at('2030-01-15T09:00:00+09:00', 2_000_000);
    expect(later.pension).to.include({ grade: 35, standard_monthly_remuneration_jpy: 750_000 });
    // Health grades are unchanged by that law.
    expect(later.health_insurance).to.include({ grade: 50, standard_monthly_remuneration_jpy: 1_390_000 });
  });

  it('before the first loaded pension scale: answers with the earliest scale, provisional, saying why', async () => {
    const first = new StandardRemunerationTable().pension.covered.from!;
    const before = addMonths(first, -1);
    const early = await startTestGateway({
      plugins: ['local-standard-remuneration'],
      clock: `${before}-15T12:00:00+09:00`,
    });
    try {
      const res = await early.get(`${PATH}?monthly_salary=300000`);
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ year_month: before, provisional: true });
      expect(res.body.provisional_reasons).to.have.length(1);
      expect(res.body.provisional_reasons[0])
        .to.match(/pension grade table/)
        .and.include(first);
    } finally {
      await early.close();
    }
  });

  it('names its sources, and that it is a dated snapshot', async () => {
    const res = await get('monthly_salary=300000');
    expect(res.body._attribution).to.match(/Health Insurance Act/);
    expect(res.body._provenance.kind).to.equal('snapshot');
    expect(res.body._provenance.as_of).to.match(/^\d{4}-\d{2}-\d{2}$/);
    expect(res.body._gateway).to.include({
      endpoint_id: 'local-standard-remuneration',
      price_micro_usdc: 10000,
    });
  });
});
