/**
 * The maximum grant amount, read only from what the upstream states. subsidy_max_limit is the
 * structured cap (0 when there is no single cap); the texts (subsidy_rate, title, catch phrase,
 * detail) sometimes name other caps. The rules (docs/grants.md):
 * - ok: subsidy_max_limit > 0 and no text names a different cap;
 * - ambiguous_upstream: the texts name a cap that differs from subsidy_max_limit, or name caps
 *   although subsidy_max_limit says there is no single one; the amount is then null and every
 *   stated amount is listed as evidence;
 * - unknown: no cap in the field and none in the texts.
 * A number is never chosen among several, nor computed from a rate.
 */
import type { JgrantsSubsidy } from './jgrants-wire';
import { htmlToText } from './plain-text';

export type AmountStatus = 'ok' | 'ambiguous_upstream' | 'unknown';

export interface StatedAmount {
  amount_jpy: number;
  field: 'subsidy_rate' | 'title' | 'subsidy_catch_phrase' | 'detail';
  excerpt: string;
}

export interface AmountExtraction {
  max_subsidy_amount_jpy: number | null;
  amount_extraction_status: AmountStatus;
  evidence: {
    /** subsidy_max_limit as given (0 = no single cap; null = not given). */
    upstream_max_limit_jpy: number | null;
    /** Cap amounts the texts state. */
    text_amounts: StatedAmount[];
    reason: string;
  };
}

const UNITS: Record<string, number> = { 億: 100_000_000, 千万: 10_000_000, 百万: 1_000_000, 万: 10_000 };
const TOKEN = /((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)(億|千万|百万|万)?/g;

export interface YenAmount {
  amount_jpy: number;
  /** Offsets in the NFKC-folded text. */
  start: number;
  end: number;
}

/**
 * Yen amounts in a text (NFKC-folded first, so ３００万円 reads as 300万円): a number ending in
 * 円, with 億/千万/百万/万 units where written; adjacent parts with falling units (1億5,000万円)
 * read as one amount. Numbers not followed by 円 (1/2, 20名, 令和8年, 100億企業) are not amounts.
 */
export function findYenAmounts(text: string): YenAmount[] {
  const t = text.normalize('NFKC');
  const found: YenAmount[] = [];
  let group: { value: number; start: number; end: number; lastUnit: number } | null = null;
  const close = () => {
    if (group && t[group.end] === '円' && group.value > 0) {
      found.push({ amount_jpy: group.value, start: group.start, end: group.end + 1 });
    }
    group = null;
  };
  for (const m of t.matchAll(TOKEN)) {
    const [whole, digits, unitText] = m;
    const start = m.index ?? 0;
    const unit = unitText ? UNITS[unitText] : 1;
    const value = Math.round(Number(digits.replace(/,/g, '')) * unit);
    if (group && group.end === start && group.lastUnit > 1 && unit < group.lastUnit) {
      group.value += value;
      group.end = start + whole.length;
      group.lastUnit = unit;
    } else {
      close();
      group = { value, start, end: start + whole.length, lastUnit: unit };
    }
  }
  close();
  return found;
}

/** Words that make an amount in free text a cap. */
const CAP_WORDS = /上限|限度|最大|最高/;
/** Clause boundaries in free text: a cap word applies to the amounts of its own clause. */
const CLAUSE_BREAK = /[。■\n【】；;]/;

function excerptAround(text: string, a: YenAmount): string {
  const from = Math.max(0, a.start - 20);
  const to = Math.min(text.length, a.end + 10);
  return `${from > 0 ? '…' : ''}${text.slice(from, to)}${to < text.length ? '…' : ''}`;
}

/** Amounts in free text that sit in a clause with a cap word. */
function capAmountsInProse(text: string): Array<{ amount_jpy: number; excerpt: string }> {
  const t = text.normalize('NFKC');
  const out: Array<{ amount_jpy: number; excerpt: string }> = [];
  for (const a of findYenAmounts(t)) {
    let from = a.start;
    while (from > 0 && !CLAUSE_BREAK.test(t[from - 1])) from--;
    let to = a.end;
    while (to < t.length && !CLAUSE_BREAK.test(t[to])) to++;
    if (CAP_WORDS.test(t.slice(from, to)))
      out.push({ amount_jpy: a.amount_jpy, excerpt: excerptAround(t, a) });
  }
  return out;
}

/** Amounts stated as caps by the texts of a record. */
export function statedCapAmounts(raw: JgrantsSubsidy): StatedAmount[] {
  const out: StatedAmount[] = [];
  const seen = new Set<string>();
  const add = (field: StatedAmount['field'], amount_jpy: number, excerpt: string) => {
    const key = `${field}:${amount_jpy}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ amount_jpy, field, excerpt });
  };
  if (typeof raw.subsidy_rate === 'string') {
    // The rate field is about the rate: any amount in it is a cap or a fixed sum.
    const t = raw.subsidy_rate.normalize('NFKC');
    for (const a of findYenAmounts(t)) add('subsidy_rate', a.amount_jpy, excerptAround(t, a));
  }
  const prose: Array<[StatedAmount['field'], string | null]> = [
    ['title', raw.title ?? null],
    ['subsidy_catch_phrase', raw.subsidy_catch_phrase ?? null],
    ['detail', htmlToText(raw.detail)],
  ];
  for (const [field, text] of prose) {
    if (text) for (const a of capAmountsInProse(text)) add(field, a.amount_jpy, a.excerpt);
  }
  return out;
}

const yen = (n: number) => `${n.toLocaleString('en-US')} yen`;

export function extractMaxAmount(raw: JgrantsSubsidy): AmountExtraction {
  const field =
    typeof raw.subsidy_max_limit === 'number' &&
    Number.isSafeInteger(raw.subsidy_max_limit) &&
    raw.subsidy_max_limit >= 0
      ? raw.subsidy_max_limit
      : null;
  const text_amounts = statedCapAmounts(raw);
  const distinct = [...new Set(text_amounts.map((a) => a.amount_jpy))];
  if (field !== null && field > 0) {
    const others = distinct.filter((a) => a !== field);
    if (others.length === 0) {
      return {
        max_subsidy_amount_jpy: field,
        amount_extraction_status: 'ok',
        evidence: {
          upstream_max_limit_jpy: field,
          text_amounts,
          reason:
            distinct.length > 0
              ? `subsidy_max_limit is ${yen(field)} and the texts state the same cap`
              : `subsidy_max_limit is ${yen(field)}; no text states another cap`,
        },
      };
    }
    return {
      max_subsidy_amount_jpy: null,
      amount_extraction_status: 'ambiguous_upstream',
      evidence: {
        upstream_max_limit_jpy: field,
        text_amounts,
        reason: `subsidy_max_limit is ${yen(field)} but the texts also state ${others.map(yen).join(', ')} (caps by applicant type, per item or per unit); read the guidelines`,
      },
    };
  }
  if (distinct.length > 0) {
    return {
      max_subsidy_amount_jpy: null,
      amount_extraction_status: 'ambiguous_upstream',
      evidence: {
        upstream_max_limit_jpy: field,
        text_amounts,
        reason: `subsidy_max_limit gives no single cap${field === null ? ' (not given)' : ' (0)'} while the texts state ${distinct.map(yen).join(', ')}; read the guidelines`,
      },
    };
  }
  return {
    max_subsidy_amount_jpy: null,
    amount_extraction_status: 'unknown',
    evidence: {
      upstream_max_limit_jpy: field,
      text_amounts,
      reason: `subsidy_max_limit gives no single cap${field === null ? ' (not given)' : ' (0)'} and no text states one`,
    },
  };
}
