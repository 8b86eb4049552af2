import { expect } from 'chai';
import {
  IsBoolean,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { Doc, IsCalendarDate, ToBool, ToInt } from '../../../core/plugins/query-rules';
import { QuerySpec } from '../../../core/plugins/query-spec';

class SampleQuery {
  @Doc({ description: 'count' })
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(50)
  limit!: number;

  @Doc({ description: 'flag' })
  @IsOptional()
  @ToBool()
  @IsBoolean()
  verbose: boolean = false;

  @Doc({ description: 'prefecture', example: '13' })
  @IsOptional()
  @Matches(/^(0[1-9]|[1-3][0-9]|4[0-7])$/)
  pref_code?: string;

  @Doc({ description: 'date' })
  @IsOptional()
  @IsCalendarDate()
  date?: string;

  @Doc({ description: 'label' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(5)
  label?: string;
}

const spec = new QuerySpec(SampleQuery, { limit: '10' });
const codeOf = (raw: Record<string, unknown>, param: string) => {
  const r = spec.parse(raw);
  if (r.ok) return 'ok';
  return r.problems.find((p) => p.parameter === param)?.code ?? 'ok';
};

describe('query parsing (QuerySpec)', () => {
  it('derives parameters, bounds, defaults and examples from the DTO', () => {
    const limit = spec.param('limit')!;
    expect(limit).to.deep.include({ required: true, example: '10', accepted: 'an integer from 1 to 50' });
    expect(limit.schema).to.include({ type: 'integer', minimum: 1, maximum: 50 });
    expect(spec.param('verbose')!.defaultValue).to.equal(false);
    expect(spec.param('pref_code')!.example).to.equal('13');
  });

  it('accepts decimal integer text and JSON numbers alike', () => {
    expect(spec.parse({ limit: '7' })).to.deep.include({ ok: true });
    const r = spec.parse({ limit: 7 });
    expect(r.ok && (r.value as SampleQuery).limit).to.equal(7);
  });

  for (const bad of ['1.5', '1e3', 'abc', '', ' 5', '0x10', '5 ', '+']) {
    it(`refuses ${JSON.stringify(bad)} as an integer`, () => {
      expect(codeOf({ limit: bad }, 'limit')).to.equal('not_an_integer');
    });
  }

  it('checks bounds exactly: one below, at, and one above each end', () => {
    expect(codeOf({ limit: '0' }, 'limit')).to.equal('out_of_range');
    expect(codeOf({ limit: '1' }, 'limit')).to.equal('ok');
    expect(codeOf({ limit: '50' }, 'limit')).to.equal('ok');
    expect(codeOf({ limit: '51' }, 'limit')).to.equal('out_of_range');
  });

  it('accepts true/false/1/0 as booleans and nothing else', () => {
    for (const [text, value] of [
      ['true', true],
      ['false', false],
      ['1', true],
      ['0', false],
      ['TRUE', true],
    ] as const) {
      const r = spec.parse({ limit: '1', verbose: text });
      expect(r.ok && (r.value as SampleQuery).verbose, text).to.equal(value);
    }
    for (const bad of ['yes', '', '2', 'on'])
      expect(codeOf({ limit: '1', verbose: bad }, 'verbose'), bad).to.equal('not_a_boolean');
  });

  it('reports a missing required parameter with an example of a valid value', () => {
    const r = spec.parse({});
    expect(r.ok).to.equal(false);
    if (!r.ok) {
      expect(r.problems).to.have.length(1);
      expect(r.problems[0]).to.include({ parameter: 'limit', code: 'missing_required', example: '10' });
      expect(r.problems[0].hint).to.equal('Add limit, e.g. limit=10.');
    }
  });

  it('reports a repeated parameter instead of crashing', () => {
    expect(codeOf({ limit: ['1', '2'] }, 'limit')).to.equal('repeated_parameter');
  });

  it('reports unknown parameters with the closest known name', () => {
    const r = spec.parse({ limit: '1', limt: '3' });
    expect(r.ok).to.equal(false);
    if (!r.ok) {
      expect(r.problems[0]).to.include({ parameter: 'limt', code: 'unknown_parameter' });
      expect(r.problems[0].hint).to.match(/Did you mean limit\?/);
    }
  });

  it('refuses objects and null as parameter values', () => {
    expect(codeOf({ limit: { a: 1 } }, 'limit')).to.equal('not_a_scalar');
    expect(codeOf({ limit: null }, 'limit')).to.equal('not_a_scalar');
  });

  it('reports JSON objects with a constructor or __proto__ member as wrong values, without throwing', () => {
    // class-transformer took an own `constructor` member for the object's class: a 500 (found by fuzzing).
    const body = new QuerySpec(SampleQuery, { limit: '10' }, { json: true });
    for (const text of [
      '{"constructor":{"prototype":{}}}',
      '{"constructor":1}',
      '{"a":[{"constructor":{}}]}',
      '{"__proto__":{"constructor":1}}',
    ]) {
      const r = body.parse({ limit: 5, label: JSON.parse(text) });
      expect(r.ok, text).to.equal(false);
      if (!r.ok)
        expect(
          r.problems.map((p) => [p.parameter, p.code]),
          text,
        ).to.deep.equal([['label', 'not_a_string']]);
    }
  });

  it('checks patterns, calendar dates and lengths', () => {
    expect(codeOf({ limit: '1', pref_code: '48' }, 'pref_code')).to.equal('pattern_mismatch');
    expect(codeOf({ limit: '1', pref_code: '01' }, 'pref_code')).to.equal('ok');
    expect(codeOf({ limit: '1', date: '2026-02-30' }, 'date')).to.equal('invalid_date');
    expect(codeOf({ limit: '1', date: '2024-02-29' }, 'date')).to.equal('ok');
    expect(codeOf({ limit: '1', date: '2025-02-29' }, 'date')).to.equal('invalid_date');
    expect(codeOf({ limit: '1', label: '' }, 'label')).to.equal('too_short');
    expect(codeOf({ limit: '1', label: 'abcdef' }, 'label')).to.equal('too_long');
  });

  it('gives every problem an accepted text and a hint', () => {
    const r = spec.parse({ limit: 'x', verbose: 'maybe', pref_code: '99', zzz: '1' });
    expect(r.ok).to.equal(false);
    if (!r.ok) {
      expect(r.problems).to.have.length(4);
      for (const p of r.problems) expect(p.accepted).to.be.a('string').and.not.equal('');
      for (const p of r.problems) expect(p.hint).to.be.a('string').and.not.equal('');
    }
  });
});
