/**
 * match_reliability: how likely a candidate is the corporation the caller meant, on 0..1.
 *
 *   reliability = base(mode) x coverage x 1 / (1 + 0.5 (n - 1)) x 0.9 if closed x 0.9 if former name
 *
 * - base: exact 0.97, alias 0.90, reading (whole reading or English name) 0.80, prefix 0.72,
 *   reading prefix 0.60, partial 0.55;
 * - coverage (prefix and partial only): 0.5 + 0.5 x (query key length / matched key length);
 * - n: how many corporations the same mode found (after the prefecture filter; counted up to
 *   COUNT_CAP, 200, where the factor is already 0.01): a name many corporations share says little
 *   about which one was meant. For an exact match on a current name, n counts only corporations
 *   bearing that name now (a renamed corporation's old name does not dilute its present holder);
 * - closed registrations and matches on a former name count a little less.
 *
 * Labels: high >= 0.75 (an exact match of a unique name, a unique alias or reading), medium
 * >= 0.45, low below (a partial match, or any match shared by many).
 */

export type MatchMode = 'exact' | 'alias' | 'reading' | 'prefix' | 'partial';
export type ReliabilityLabel = 'high' | 'medium' | 'low';

export const MODE_ORDER: readonly MatchMode[] = ['exact', 'alias', 'reading', 'prefix', 'partial'];

export const BASE = {
  exact: 0.97,
  alias: 0.9,
  reading: 0.8,
  prefix: 0.72,
  reading_prefix: 0.6,
  partial: 0.55,
} as const;

export const HIGH_AT = 0.75;
export const MEDIUM_AT = 0.45;

export interface ReliabilityInput {
  base: keyof typeof BASE;
  /** Query key length / matched key length, for prefix and partial matches. */
  coverage?: number;
  /** Corporations found by the same mode. */
  found: number;
  closed: boolean;
  formerName: boolean;
}

export interface Reliability {
  value: number;
  label: ReliabilityLabel;
  factors: { base: number; coverage: number; ambiguity: number; status: number; former_name: number };
}

export function reliability(input: ReliabilityInput): Reliability {
  const base = BASE[input.base];
  const coverage = input.coverage === undefined ? 1 : 0.5 + 0.5 * Math.min(1, Math.max(0, input.coverage));
  const ambiguity = 1 / (1 + 0.5 * (Math.max(1, input.found) - 1));
  const status = input.closed ? 0.9 : 1;
  const former = input.formerName ? 0.9 : 1;
  const value = Math.round(base * coverage * ambiguity * status * former * 1000) / 1000;
  return {
    value,
    label: labelOf(value),
    factors: {
      base,
      coverage: round3(coverage),
      ambiguity: round3(ambiguity),
      status,
      former_name: former,
    },
  };
}

export function labelOf(value: number): ReliabilityLabel {
  return value >= HIGH_AT ? 'high' : value >= MEDIUM_AT ? 'medium' : 'low';
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}

/** The scale in words, for answers that carry it (verbose) and for docs. */
export const RELIABILITY_SCALE = {
  formula:
    'base_by_mode(mode) x coverage_factor x 1/(1 + 0.5 (n - 1)) x 0.9 if closed x 0.9 if a former name; n = corporations found by the same mode (exact matches on a current name: corporations bearing that name now)',
  base_by_mode: BASE,
  coverage_factor: 'prefix and partial only: 0.5 + 0.5 x query key length / matched key length',
  label_thresholds: { high: `>= ${HIGH_AT}`, medium: `>= ${MEDIUM_AT}`, low: `< ${MEDIUM_AT}` },
};
