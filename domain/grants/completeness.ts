/**
 * data_completeness_score: how much of what a buyer needs to act on a grant the upstream record
 * states, from fixed field weights that sum to 1 (docs/grants.md). It measures the record, not
 * the grant: a closed grant with every field stated scores 1.
 */
import type { AmountStatus } from './amounts';

/** Weights in thousandths, so the score is exact to three decimals. */
export const COMPLETENESS_WEIGHTS = Object.freeze({
  deadline: 150,
  max_amount: 150,
  acceptance_start: 50,
  target_area: 100,
  industries: 100,
  employee_limit: 100,
  subsidy_rate: 100,
  description: 100,
  purposes: 50,
  official_page_url: 50,
  contact: 50,
});

export type CompletenessField = keyof typeof COMPLETENESS_WEIGHTS;

export interface CompletenessInput {
  deadline: boolean;
  acceptance_start: boolean;
  target_area: boolean;
  industries: boolean;
  employee_limit: boolean;
  purposes: boolean;
  subsidy_rate: boolean;
  description: boolean;
  official_page_url: boolean;
  contact: boolean;
  amount_status: AmountStatus;
}

export interface Completeness {
  score: number;
  missing: CompletenessField[];
}

/** Full weight for an ok amount, half for an ambiguous one (amounts are stated, no single cap). */
export function completenessOf(input: CompletenessInput): Completeness {
  let total = 0;
  const missing: CompletenessField[] = [];
  for (const field of Object.keys(COMPLETENESS_WEIGHTS) as CompletenessField[]) {
    const weight = COMPLETENESS_WEIGHTS[field];
    if (field === 'max_amount') {
      if (input.amount_status === 'ok') total += weight;
      else if (input.amount_status === 'ambiguous_upstream') total += weight / 2;
      else missing.push(field);
    } else if (input[field]) total += weight;
    else missing.push(field);
  }
  return { score: total / 1000, missing };
}
