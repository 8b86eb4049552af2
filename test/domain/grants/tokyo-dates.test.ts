import { expect } from 'chai';
import {
  addDays,
  daysBetween,
  parseUpstreamInstant,
  tokyoDateOf,
  tokyoDateTime,
} from '../../../domain/grants/tokyo-dates';

const deadline = (utc: string) => tokyoDateOf(parseUpstreamInstant(utc)!);

describe('grants: dates in Asia/Tokyo', () => {
  it('reads the API form without seconds, with milliseconds, and with an offset', () => {
    expect(parseUpstreamInstant('2026-11-30T14:59Z')!.toISOString()).to.equal('2026-11-30T14:59:00.000Z');
    expect(parseUpstreamInstant('2020-02-28T16:41:41.090Z')!.toISOString()).to.equal(
      '2020-02-28T16:41:41.090Z',
    );
    expect(parseUpstreamInstant('2026-12-01T08:59:00+09:00')!.toISOString()).to.equal(
      '2026-11-30T23:59:00.000Z',
    );
    expect(parseUpstreamInstant('2026-12-01T08:59:00+0900')!.toISOString()).to.equal(
      '2026-11-30T23:59:00.000Z',
    );
    // No zone: read as UTC, the form the API documents.
    expect(parseUpstreamInstant('2026-11-30T14:59')!.toISOString()).to.equal('2026-11-30T14:59:00.000Z');
  });

  it('refuses what is not a real date-time instead of guessing', () => {
    for (const bad of [
      '',
      '2026-02-30T00:00Z',
      '2026-13-01T00:00Z',
      '2026-11-30T24:00Z',
      'soon',
      '30/11/2026',
      null,
      undefined,
    ]) {
      expect(parseUpstreamInstant(bad as string), String(bad)).to.equal(null);
    }
  });

  it('takes the deadline date in Japan: 14:59Z is 23:59 the same day, 15:00Z is the next day', () => {
    expect(deadline('2026-11-30T14:59Z')).to.equal('2026-11-30');
    expect(tokyoDateTime(parseUpstreamInstant('2026-11-30T14:59Z')!)).to.equal('2026-11-30T23:59:00+09:00');
    expect(deadline('2026-11-30T15:00Z')).to.equal('2026-12-01');
    // A real record: 2026-10-05T03:00Z is noon on 5 October in Japan.
    expect(tokyoDateTime(parseUpstreamInstant('2026-10-05T03:00Z')!)).to.equal('2026-10-05T12:00:00+09:00');
  });

  it('crosses month and year ends in Japan time, not UTC', () => {
    expect(deadline('2026-10-31T14:59Z')).to.equal('2026-10-31');
    expect(deadline('2026-10-31T15:00Z')).to.equal('2026-11-01');
    expect(deadline('2026-12-31T14:59Z')).to.equal('2026-12-31');
    expect(deadline('2026-12-31T15:00Z')).to.equal('2027-01-01');
    expect(deadline('2028-02-28T15:00Z')).to.equal('2028-02-29');
    expect(deadline('2027-02-28T15:00Z')).to.equal('2027-03-01');
  });

  it('counts calendar days across month, year and leap-day boundaries', () => {
    expect(addDays('2026-11-22', 30)).to.equal('2026-12-22');
    expect(addDays('2026-12-20', 14)).to.equal('2027-01-03');
    expect(addDays('2027-01-05', -14)).to.equal('2026-12-22');
    expect(addDays('2028-02-28', 1)).to.equal('2028-02-29');
    expect(addDays('2027-02-28', 1)).to.equal('2027-03-01');
    expect(daysBetween('2026-12-31', '2027-01-01')).to.equal(1);
    expect(daysBetween('2026-11-22', '2026-11-30')).to.equal(8);
    expect(daysBetween('2026-11-30', '2026-11-22')).to.equal(-8);
    expect(daysBetween('2026-01-01', '2027-01-01')).to.equal(365);
    expect(daysBetween('2028-01-01', '2029-01-01')).to.equal(366);
  });
});
