/** Calendar months written YYYY-MM, and month arithmetic on them. */

export type YearMonth = string;

/** A span of months, both ends included; null means open-ended. */
export interface MonthSpan {
  from: YearMonth | null;
  to: YearMonth | null;
}

function index(ym: YearMonth): number {
  return Number(ym.slice(0, 4)) * 12 + Number(ym.slice(5, 7)) - 1;
}

function fromIndex(i: number): YearMonth {
  return `${String(Math.floor(i / 12)).padStart(4, '0')}-${String((i % 12) + 1).padStart(2, '0')}`;
}

export function addMonths(ym: YearMonth, n: number): YearMonth {
  return fromIndex(index(ym) + n);
}

export function inSpan(ym: YearMonth, span: MonthSpan): boolean {
  return (span.from === null || ym >= span.from) && (span.to === null || ym <= span.to);
}

/** Shifts both ends of a span by n months. */
export function shiftSpan(span: MonthSpan, n: number): MonthSpan {
  return {
    from: span.from === null ? null : addMonths(span.from, n),
    to: span.to === null ? null : addMonths(span.to, n),
  };
}

/** The months common to every span (YYYY-MM text compares in calendar order). */
export function intersectSpans(spans: readonly MonthSpan[]): MonthSpan {
  let from: YearMonth | null = null;
  let to: YearMonth | null = null;
  for (const s of spans) {
    if (s.from !== null && (from === null || s.from > from)) from = s.from;
    if (s.to !== null && (to === null || s.to < to)) to = s.to;
  }
  return { from, to };
}

/**
 * The span covered by consecutive periods; throws when periods overlap or leave a gap, because a
 * gap would silently answer with no rate for the months in it.
 */
export function contiguousSpan(periods: ReadonlyArray<MonthSpan>, what: string): MonthSpan {
  for (let i = 1; i < periods.length; i++) {
    const prev = periods[i - 1].to;
    if (prev === null || periods[i].from !== addMonths(prev, 1)) {
      throw new Error(`${what}: period ${i} does not follow period ${i - 1} without gap or overlap`);
    }
  }
  return { from: periods[0].from, to: periods[periods.length - 1].to };
}
