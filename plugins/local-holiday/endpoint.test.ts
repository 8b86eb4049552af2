import { expect } from 'chai';
import { startTestGateway, type TestGateway } from '../../test/support/gateway';

/**
 * The published lists (Cabinet Office announcements as recorded in shared/reference/
 * jp-data-sources.md 1.3): date, kind (N national holiday, S substitute, C citizens' holiday), name.
 */
const PUBLISHED: Record<number, string> = {
  2024: `01-01 N 元日|01-08 N 成人の日|02-11 N 建国記念の日|02-12 S|02-23 N 天皇誕生日|03-20 N 春分の日|04-29 N 昭和の日|05-03 N 憲法記念日|05-04 N みどりの日|05-05 N こどもの日|05-06 S|07-15 N 海の日|08-11 N 山の日|08-12 S|09-16 N 敬老の日|09-22 N 秋分の日|09-23 S|10-14 N スポーツの日|11-03 N 文化の日|11-04 S|11-23 N 勤労感謝の日`,
  2025: `01-01 N 元日|01-13 N 成人の日|02-11 N 建国記念の日|02-23 N 天皇誕生日|02-24 S|03-20 N 春分の日|04-29 N 昭和の日|05-03 N 憲法記念日|05-04 N みどりの日|05-05 N こどもの日|05-06 S|07-21 N 海の日|08-11 N 山の日|09-15 N 敬老の日|09-23 N 秋分の日|10-13 N スポーツの日|11-03 N 文化の日|11-23 N 勤労感謝の日|11-24 S`,
  2026: `01-01 N 元日|01-12 N 成人の日|02-11 N 建国記念の日|02-23 N 天皇誕生日|03-20 N 春分の日|04-29 N 昭和の日|05-03 N 憲法記念日|05-04 N みどりの日|05-05 N こどもの日|05-06 S|07-20 N 海の日|08-11 N 山の日|09-21 N 敬老の日|09-22 C|09-23 N 秋分の日|10-12 N スポーツの日|11-03 N 文化の日|11-23 N 勤労感謝の日`,
  2027: `01-01 N 元日|01-11 N 成人の日|02-11 N 建国記念の日|02-23 N 天皇誕生日|03-21 N 春分の日|03-22 S|04-29 N 昭和の日|05-03 N 憲法記念日|05-04 N みどりの日|05-05 N こどもの日|07-19 N 海の日|08-11 N 山の日|09-20 N 敬老の日|09-23 N 秋分の日|10-11 N スポーツの日|11-03 N 文化の日|11-23 N 勤労感謝の日`,
};
const KIND = { N: 'national_holiday', S: 'substitute_holiday', C: 'citizens_holiday' } as const;
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const weekday = (iso: string) => WEEKDAYS[new Date(`${iso}T12:00:00Z`).getUTCDay()];
const addDays = (iso: string, n: number) =>
  new Date(Date.parse(`${iso}T00:00:00Z`) + n * 86400000).toISOString().slice(0, 10);

describe('local-holiday (local/holiday/jp)', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ plugins: ['local-holiday'], clock: '2026-11-22T03:00:00Z' });
  });
  after(() => gw.close());

  for (const year of [2024, 2025, 2026, 2027]) {
    it(`serves exactly the published ${year} list`, async () => {
      const res = await gw.get(`/preview/v1/local/holiday/jp?year=${year}`);
      expect(res.status).to.equal(200);
      const expected = PUBLISHED[year].split('|').map((row) => {
        const [md, k, name] = row.split(' ');
        return { date: `${year}-${md}`, kind: KIND[k as keyof typeof KIND], name };
      });
      expect(res.body.year).to.equal(year);
      expect(res.body.count).to.equal(expected.length);
      expect(res.body.holidays.map((h: { date: string; kind: string }) => [h.date, h.kind])).to.deep.equal(
        expected.map((e) => [e.date, e.kind]),
      );
      for (const e of expected.filter((x) => x.name)) {
        expect(res.body.holidays.find((h: { date: string }) => h.date === e.date).name_ja).to.equal(e.name);
      }
    });

    it(`${year}: weekdays are right and substitute and citizens' holidays follow Art. 3`, async () => {
      const res = await gw.get(`/preview/v1/local/holiday/jp?year=${year}`);
      const list: Array<{
        date: string;
        weekday: string;
        kind: string;
        substitute_for?: string;
        name_en: string;
      }> = res.body.holidays;
      const byDate = new Map(list.map((h) => [h.date, h]));
      for (const h of list) {
        expect(h.weekday, h.date).to.equal(weekday(h.date));
        expect(h.name_en, h.date).to.be.a('string').and.not.equal('');
        if (h.kind === 'substitute_holiday') {
          const sunday = h.substitute_for!;
          expect(weekday(sunday), `${h.date} replaces a Sunday`).to.equal('Sun');
          expect(byDate.get(sunday)?.kind).to.equal('national_holiday');
          // The nearest following day that is not a national holiday.
          let d = addDays(sunday, 1);
          while (byDate.get(d)?.kind === 'national_holiday') d = addDays(d, 1);
          expect(h.date).to.equal(d);
        }
        if (h.kind === 'citizens_holiday') {
          expect(byDate.get(addDays(h.date, -1))?.kind).to.equal('national_holiday');
          expect(byDate.get(addDays(h.date, 1))?.kind).to.equal('national_holiday');
        }
      }
      // Every Sunday national holiday has its substitute.
      for (const h of list.filter((x) => x.kind === 'national_holiday' && weekday(x.date) === 'Sun')) {
        expect(
          list.some((x) => x.substitute_for === h.date),
          `substitute for ${h.date}`,
        ).to.equal(true);
      }
    });
  }

  it('checks year bounds: 2023 refused, 2024 and 2027 served, 2028 refused, with correction_hints', async () => {
    for (const [year, status] of [
      [2023, 422],
      [2024, 200],
      [2027, 200],
      [2028, 422],
    ] as const) {
      const res = await gw.get(`/preview/v1/local/holiday/jp?year=${year}`);
      expect(res.status, String(year)).to.equal(status);
      if (status === 422) {
        expect(res.body.error).to.equal('invalid_query');
        expect(res.body.correction_hints[0]).to.include({
          parameter: 'year',
          code: 'out_of_range',
          accepted: 'an integer from 2024 to 2027',
        });
      }
    }
  });

  for (const bad of ['abc', '1.5', '1e3', '', '２０２６']) {
    it(`refuses year=${JSON.stringify(bad)} with not_an_integer`, async () => {
      const res = await gw.get(`/preview/v1/local/holiday/jp?year=${encodeURIComponent(bad)}`);
      expect(res.status).to.equal(422);
      expect(res.body.correction_hints[0]).to.include({ parameter: 'year', code: 'not_an_integer' });
    });
  }

  it('refuses a repeated year with 422, not a crash', async () => {
    const res = await gw.get('/preview/v1/local/holiday/jp?year=2025&year=2026');
    expect(res.status).to.equal(422);
    expect(res.body.correction_hints[0]).to.include({ parameter: 'year', code: 'repeated_parameter' });
  });

  it('defaults to the current year in Asia/Tokyo', async () => {
    const newYear = await startTestGateway({ plugins: ['local-holiday'], clock: '2025-12-31T15:30:00Z' });
    try {
      const res = await newYear.get('/preview/v1/local/holiday/jp');
      expect(res.body.year).to.equal(2026);
    } finally {
      await newYear.close();
    }
  });

  it('answers 422 naming the span when the current year has no data and no year is given', async () => {
    const later = await startTestGateway({ plugins: ['local-holiday'], clock: '2028-03-01T00:00:00Z' });
    try {
      const res = await later.get('/preview/v1/local/holiday/jp');
      expect(res.status).to.equal(422);
      expect(res.body.correction_hints[0]).to.include({
        parameter: 'year',
        code: 'year_not_covered',
        accepted: 'an integer from 2024 to 2027',
      });
    } finally {
      await later.close();
    }
  });

  it('treats verbose as a string flag: diagnostics for any value but empty/0/false/no/off', async () => {
    for (const v of ['1', 'yes', 'true', 'anything']) {
      const res = await gw.get(`/preview/v1/local/holiday/jp?year=2026&verbose=${v}`);
      expect(res.body, v).to.include({ year_source: 'query' });
      expect(res.body.diagnostics.coverage, v).to.deep.equal({ first_year: 2024, last_year: 2027 });
      expect(res.body.diagnostics.counts_by_kind).to.deep.equal({
        national_holiday: 16,
        substitute_holiday: 1,
        citizens_holiday: 1,
      });
    }
    for (const v of ['', '0', 'false', 'no', 'off']) {
      const res = await gw.get(`/preview/v1/local/holiday/jp?year=2026&verbose=${v}`);
      expect(res.status).to.equal(200);
      expect(res.body.diagnostics, v).to.equal(undefined);
    }
  });

  it('says where the data came from and that it is a dated snapshot, and that this is a preview', async () => {
    const res = await gw.get('/preview/v1/local/holiday/jp?year=2026');
    expect(res.body._attribution).to.match(/Cabinet Office/);
    expect(res.body._provenance).to.include({ kind: 'snapshot', as_of: '2026-11-23' });
    expect(res.body._gateway).to.include({
      product_id: 'jp-local-pack',
      endpoint_id: 'local-holiday',
      broker_id: 'jp-local-pack-v1-holiday',
      lifecycle: 'paid_open',
      surface: 'preview',
      preview: true,
      price_micro_usdc: 1000,
      price_usdc: '0.001',
    });
    expect(res.body._gateway.notice).to.match(/preview for evaluation only/i);
  });
});
