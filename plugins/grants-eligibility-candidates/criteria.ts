/**
 * How a company profile compares with what a grant's jGrants record states. Each criterion is
 * met, not_met or not_checked, with the reason in words. This is a screening aid: it reads only
 * the structured conditions jGrants publishes, never the guidelines, and decides nothing.
 */
import type { Prefecture } from '../../domain/shared/prefectures';
import { areaMatch } from '../../domain/grants/areas';
import type { RecordLevel } from '../../domain/grants/catalogue';
import type { GrantRecord } from '../../domain/grants/grant-record';
import { employeesFit, foldText, type Term } from '../../domain/grants/taxonomy';

export interface CompanyProfile {
  pref: Prefecture;
  industry?: Term;
  employees?: number;
  capital_jpy?: number;
  purpose?: Term;
}

/** The criteria a grant is compared on, in the order the answer explains them. */
export const CRITERION_NAMES = [
  'accepting_applications',
  'target_area',
  'area_detail',
  'industry',
  'employees',
  'capital',
  'purpose',
] as const;
export type CriterionName = (typeof CRITERION_NAMES)[number];

export type CriterionStatus = 'met' | 'not_met' | 'not_checked';

export interface CriterionResult {
  criterion: CriterionName;
  status: CriterionStatus;
  /** A stated condition of the grant (a failure leaves the grant out); purpose is a preference. */
  condition: boolean;
  reason: string;
}

/** Weights of the criteria in fit_score (accepting_applications is met by every candidate). */
export const CRITERION_WEIGHTS: Record<Exclude<CriterionName, 'accepting_applications'>, number> = {
  target_area: 3,
  industry: 2,
  employees: 2,
  capital: 1,
  area_detail: 1,
  purpose: 1,
};

const yen = (n: number) => `${n.toLocaleString('en-US')} yen`;

function hasLabel(labels: string[], label: string): boolean {
  const want = foldText(label);
  return labels.some((l) => foldText(l) === want);
}

/**
 * The criteria for one grant. On a list-level record (live search item) the industry and purpose
 * lists are not known yet: they come out not_checked and are evaluated again on the detail.
 */
export function evaluateCriteria(
  r: GrantRecord,
  p: CompanyProfile,
  level: RecordLevel = 'detail',
): CriterionResult[] {
  const out: CriterionResult[] = [];
  const add = (criterion: CriterionName, status: CriterionStatus, condition: boolean, reason: string) =>
    out.push({ criterion, status, condition, reason });

  if (r.status === 'open') {
    add(
      'accepting_applications',
      'met',
      true,
      `accepting applications until ${r.acceptance.end_at ?? r.deadline_date} (Japan time)`,
    );
  } else {
    add('accepting_applications', 'not_met', true, `not accepting applications now (status ${r.status})`);
  }

  const area = areaMatch(r.target_areas, p.pref.code);
  if (area === 'nationwide') add('target_area', 'met', true, 'open to applicants nationwide (全国)');
  else if (area === 'prefecture')
    add(
      'target_area',
      'met',
      true,
      `targets ${r.target_areas.prefectures.join(', ')}, which includes ${p.pref.name_ja}`,
    );
  else if (area === 'no') {
    add(
      'target_area',
      'not_met',
      true,
      `targets ${r.target_areas.prefectures.join(', ')}, not ${p.pref.name_ja}`,
    );
  } else {
    add(
      'target_area',
      'not_checked',
      true,
      `targets ${r.target_areas.text ?? 'an unstated area'}; jGrants does not list which prefectures that covers`,
    );
  }
  if (r.target_areas.detail) {
    add(
      'area_detail',
      'not_checked',
      true,
      `the grant narrows its area in words: 「${r.target_areas.detail}」; check the business qualifies`,
    );
  }

  if (!p.industry) add('industry', 'not_checked', true, 'no industry in the profile');
  else if (!r.industries) {
    add(
      'industry',
      'not_checked',
      true,
      level === 'list' ? 'industries not read yet' : 'jGrants lists no industries for this grant',
    );
  } else if (hasLabel(r.industries.labels, p.industry.name_ja)) {
    add(
      'industry',
      'met',
      true,
      `lists ${p.industry.name_ja} among ${r.industries.labels.length} industries`,
    );
  } else {
    add(
      'industry',
      'not_met',
      true,
      `does not list ${p.industry.name_ja} (lists ${r.industries.labels.join(', ')})`,
    );
  }

  if (p.employees === undefined) add('employees', 'not_checked', true, 'no employee count in the profile');
  else if (!r.employee_limit)
    add('employees', 'not_checked', true, 'jGrants states no employee condition for this grant');
  else {
    const fit = employeesFit(r.employee_limit, p.employees);
    const limit = r.employee_limit.text;
    if (fit === undefined)
      add(
        'employees',
        'not_checked',
        true,
        `the employee condition 「${limit}」 is not in a form this service reads`,
      );
    else if (r.employee_limit.unrestricted)
      add('employees', 'met', true, 'no employee-count condition (従業員数の制約なし)');
    else if (fit) add('employees', 'met', true, `${limit} admits ${p.employees} employees`);
    else add('employees', 'not_met', true, `${limit} does not admit ${p.employees} employees`);
  }

  add(
    'capital',
    'not_checked',
    true,
    p.capital_jpy === undefined
      ? 'no capital in the profile, and jGrants publishes no capital condition as data; limits such as the SME definition are in the call guidelines (公募要領)'
      : `capital ${yen(p.capital_jpy)} cannot be compared: jGrants publishes no capital condition as data; limits such as the SME definition are in the call guidelines (公募要領)`,
  );

  if (!p.purpose) add('purpose', 'not_checked', false, 'no purpose in the profile');
  else if (!r.purposes) {
    add(
      'purpose',
      'not_checked',
      false,
      level === 'list' ? 'purposes not read yet' : 'jGrants lists no purposes for this grant',
    );
  } else if (hasLabel(r.purposes.labels, p.purpose.name_ja)) {
    add('purpose', 'met', false, `lists the purpose ${p.purpose.name_ja}`);
  } else {
    add(
      'purpose',
      'not_met',
      false,
      `its purposes (${r.purposes.labels.join(', ')}) do not include ${p.purpose.name_ja}`,
    );
  }
  return out;
}

/** The first stated condition the profile fails (the grant is then left out), if any. */
export function failedCondition(results: CriterionResult[]): CriterionResult | undefined {
  return results.find((c) => c.condition && c.status === 'not_met');
}

/** Share of the criteria weight the profile is seen to meet; unchecked criteria count against it. */
export function fitScore(results: CriterionResult[]): number {
  let met = 0;
  let total = 0;
  for (const c of results) {
    if (c.criterion === 'accepting_applications') continue;
    const w = CRITERION_WEIGHTS[c.criterion];
    total += w;
    if (c.status === 'met') met += w;
  }
  return total === 0 ? 0 : Math.round((met / total) * 1000) / 1000;
}

/** One sentence a reviewer can read: what fits, what could not be checked, what to do. */
export function whyListed(results: CriterionResult[]): string {
  const names = (s: CriterionStatus) =>
    results
      .filter((c) => c.status === s && c.criterion !== 'accepting_applications')
      .map((c) => c.criterion.replace('_', ' '));
  const met = names('met');
  const notMet = names('not_met');
  const unchecked = names('not_checked');
  const parts = [
    `Listed for review: the stated conditions ${met.length > 0 ? `on ${met.join(', ')} fit the profile` : 'do not exclude the profile'}`,
  ];
  if (notMet.length > 0) parts.push(`it differs on ${notMet.join(', ')}`);
  if (unchecked.length > 0) parts.push(`${unchecked.join(', ')} could not be checked`);
  return `${parts.join('; ')}. Confirm every condition in the call guidelines before applying; this is not an eligibility decision.`;
}
