import { expect } from 'chai';
import { startTestGateway, type TestGateway } from '../../test/support/gateway';

const PATH = '/preview/v1/local/tax/consumption/rate';

describe('local-consumption-tax (local/tax/consumption/rate)', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ plugins: ['local-consumption-tax'], clock: '2026-11-22T03:00:00Z' });
  });
  after(() => gw.close());

  const at = async (date: string) => {
    const res = await gw.get(`${PATH}?date=${date}`);
    expect(res.status, date).to.equal(200);
    return res.body;
  };

  it('answers that no consumption tax applied before 1989-04-01', async () => {
    const body = await at('1989-03-31');
    expect(body).to.include({
      consumption_tax_applies: false,
      standard_rate: null,
      reduced_rate: null,
      invoice_system: null,
    });
    expect(body.rate_period).to.include({ from: null, to: '1989-03-31' });
    expect(body.note).to.match(/introduced on 1989-04-01/);
  });

  const steps: Array<[string, number, number, number, number | null]> = [
    ['1989-04-01', 3, 3, 0, null],
    ['1997-03-31', 3, 3, 0, null],
    ['1997-04-01', 5, 4, 1, null],
    ['2014-03-31', 5, 4, 1, null],
    ['2014-04-01', 8, 6.3, 1.7, null],
    ['2019-09-30', 8, 6.3, 1.7, null],
    ['2019-10-01', 10, 7.8, 2.2, 8],
    ['2026-11-22', 10, 7.8, 2.2, 8],
  ];
  for (const [date, total, national, local, reduced] of steps) {
    it(`on ${date}: standard ${total}% (${national}% national + ${local}% local)${reduced ? `, reduced ${reduced}%` : ''}`, async () => {
      const body = await at(date);
      expect(body.consumption_tax_applies).to.equal(true);
      expect(body.standard_rate).to.deep.equal({
        total_percent: total,
        national_percent: national,
        local_percent: local,
      });
      if (reduced === null) expect(body.reduced_rate).to.equal(null);
      else
        expect(body.reduced_rate).to.include({
          total_percent: 8,
          national_percent: 6.24,
          local_percent: 1.76,
        });
    });
  }

  it('local consumption tax is 22/78 of the national rate from 2019-10-01 (17/63 before)', async () => {
    const now = await at('2026-01-01');
    expect(Math.round(((now.standard_rate.national_percent * 22) / 78) * 100) / 100).to.equal(
      now.standard_rate.local_percent,
    );
    expect(Math.round(((now.reduced_rate.national_percent * 22) / 78) * 100) / 100).to.equal(
      now.reduced_rate.local_percent,
    );
    const before = await at('2015-01-01');
    expect(Math.round(((before.standard_rate.national_percent * 17) / 63) * 100) / 100).to.equal(
      before.standard_rate.local_percent,
    );
  });

  const phases: Array<[string, string, number | null]> = [
    ['2019-09-30', 'before_itemised_invoice_method', null],
    ['2019-10-01', 'itemised_invoice_method', null],
    ['2023-09-30', 'itemised_invoice_method', null],
    ['2023-10-01', 'qualified_invoice_system', 80],
    ['2026-09-30', 'qualified_invoice_system', 80],
    ['2026-10-01', 'qualified_invoice_system', 70],
    ['2028-09-30', 'qualified_invoice_system', 70],
    ['2028-10-01', 'qualified_invoice_system', 50],
    ['2030-09-30', 'qualified_invoice_system', 50],
    ['2030-10-01', 'qualified_invoice_system', 30],
    ['2031-09-30', 'qualified_invoice_system', 30],
    ['2031-10-01', 'qualified_invoice_system', 0],
  ];
  for (const [date, phase, credit] of phases) {
    it(`invoice phase on ${date}: ${phase}${credit === null ? '' : `, ${credit}% credit for non-registered purchases`}`, async () => {
      const body = await at(date);
      expect(body.invoice_system).to.include({ phase, non_registered_purchase_credit_percent: credit });
      expect(body.invoice_system.qualified_invoice_required).to.equal(phase === 'qualified_invoice_system');
      expect(body.invoice_system.from <= date).to.equal(true);
      expect(body.invoice_system.to === null || date <= body.invoice_system.to).to.equal(true);
    });
  }

  it('states the yearly cap on transitional credit per non-registered supplier: 100,000,000 yen from tax periods starting 2026-10-01', async () => {
    const after = (await at('2026-11-22')).invoice_system;
    expect(after.transitional_credit_cap).to.deep.include({
      yearly_purchases_per_supplier_jpy: 100_000_000,
      tax_periods_starting_from: '2026-10-01',
      previous: { yearly_purchases_per_supplier_jpy: 1_000_000_000, tax_periods_starting_from: '2024-10-01' },
    });
    expect(after.transitional_credit_cap.basis).to.match(/令和8年度/);
    const before = (await at('2025-06-01')).invoice_system;
    expect(before.transitional_credit_cap).to.include({
      yearly_purchases_per_supplier_jpy: 1_000_000_000,
      tax_periods_starting_from: '2024-10-01',
    });
    expect((await at('2031-10-01')).invoice_system.transitional_credit_cap).to.equal(null);
    expect((await at('2020-01-01')).invoice_system.transitional_credit_cap).to.equal(null);
  });

  for (const bad of [
    '2026-02-30',
    '2026-13-01',
    '2026-1-1',
    '20261122',
    '',
    '2025-02-29',
    '2026-11-22T00:00',
  ]) {
    it(`refuses date=${JSON.stringify(bad)} with invalid_date and a hint`, async () => {
      const res = await gw.get(`${PATH}?date=${encodeURIComponent(bad)}`);
      expect(res.status).to.equal(422);
      expect(res.body.correction_hints[0]).to.include({
        parameter: 'date',
        code: 'invalid_date',
        example: '2026-11-22',
      });
    });
  }

  it('accepts 29 February in a leap year', async () => {
    expect((await at('2024-02-29')).standard_rate.total_percent).to.equal(10);
  });

  it('defaults to today in Asia/Tokyo (15:00 UTC on 30 September is 1 October in Japan)', async () => {
    const edge = await startTestGateway({
      plugins: ['local-consumption-tax'],
      clock: '2026-09-30T15:00:00Z',
    });
    try {
      const res = await edge.get(PATH);
      expect(res.body).to.include({ date: '2026-10-01', date_source: 'default_today_asia_tokyo' });
      expect(res.body.invoice_system.non_registered_purchase_credit_percent).to.equal(70);
    } finally {
      await edge.close();
    }
  });

  it('verbose accepts true/false/1/0 and adds the history; other values get 422', async () => {
    for (const v of ['true', '1'])
      expect((await gw.get(`${PATH}?date=2026-01-01&verbose=${v}`)).body.history.rate_periods).to.have.length(
        4,
      );
    for (const v of ['false', '0'])
      expect((await gw.get(`${PATH}?date=2026-01-01&verbose=${v}`)).body.history).to.equal(undefined);
    const res = await gw.get(`${PATH}?verbose=yes`);
    expect(res.status).to.equal(422);
    expect(res.body.correction_hints[0]).to.include({ parameter: 'verbose', code: 'not_a_boolean' });
  });

  it('names its sources and as-of date', async () => {
    const body = await at('2026-11-22');
    expect(body._provenance.kind).to.equal('snapshot');
    expect(body._provenance.sources.length).to.be.greaterThan(3);
    expect(body._attribution).to.match(/National Tax Agency/);
  });
});
