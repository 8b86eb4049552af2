/**
 * The payload fields the payroll endpoints share (one month's deductions, at the current month
 * or at a chosen one): every deduction in whole yen, the conventions applied in words a payroll
 * clerk recognises, and with verbose the rates and the exact amounts before rounding.
 */
import type { DataCoverage, DataProvenance, SourceRef } from '../../core/plugins/contract';
import { provenanceForPeriods, snapshotProvenance, type TableProvenance } from '../shared/data-file';
import { prefectureByCode } from '../shared/prefectures';
import { exactYenText, unitsToPerMilleText, unitsToPercentText } from './fixed-point';
import type { PayrollCalculator, PayrollComponent, PayrollResult, TableUse } from './payroll-calculator';
import type { WithholdingResult } from './withholding';

/** Tokyo: the prefecture applied when none is given (said so in every answer). */
export const DEFAULT_PREF_CODE = '13';

export const PAYROLL_ATTRIBUTION =
  "National Tax Agency (国税庁) monthly withholding tables (源泉徴収税額表 月額表 甲欄) of the year of payment, Japan Health Insurance Association (全国健康保険協会, Kyokai Kenpo) prefecture rates, Japan Pension Service (日本年金機構) employees' pension rate and grade tables, MHLW (厚生労働省) employment insurance rates and the Children and Families Agency (こども家庭庁) child and child-rearing support contribution, each for the month it applies to";

export interface PayrollFields {
  monthly_salary: number;
  year_month: string;
  age: number;
  dependents: number;
  prefecture: { code: string; name_ja: string; name_en: string };
  /** Whether pref_code was given (query) or Tokyo was assumed (default_tokyo). */
  pref_code_source: PrefCodeSource;
  /** The grade of each insurance and its standard monthly remuneration (as standard-remuneration answers). */
  standard_remuneration: {
    health_insurance: { grade: number; standard_monthly_remuneration_jpy: number };
    pension: { grade: number; standard_monthly_remuneration_jpy: number };
  };
  income_tax_jpy: number;
  health_insurance_jpy: number;
  health_insurance_breakdown: { health_jpy: number; nursing_care_jpy: number; child_support_jpy: number };
  pension_jpy: number;
  employment_insurance_jpy: number;
  social_insurance_total_jpy: number;
  taxable_amount_jpy: number;
  net_pay_jpy: number;
  /** True when some table used does not cover its month yet (or any more): see provisional_reasons. */
  provisional: boolean;
  /** Why the answer is provisional: which table was applied in place of the one not yet published. */
  provisional_reasons: string[];
  /** Every table applied, the month it was chosen for and the months it covers. */
  tables_in_force: TableInForceView[];
  conventions: {
    pay_month: string;
    premium_month: string;
    premium_month_rule: string;
    health_insurance_rule: string;
    employment_insurance_rule: string;
    child_support_rounding_rule: string;
    income_tax_rule: string;
    standard_remuneration_rule: string;
  };
  notes: string[];
  /** With verbose. */
  diagnostics?: PayrollDiagnostics;
}

export type PrefCodeSource = 'query' | 'default_tokyo';

export interface TableInForceView {
  component: PayrollComponent;
  table: string;
  /** Tables are chosen by the pay month (income tax, employment insurance) or the premium month. */
  chosen_by: 'pay_month' | 'premium_month';
  month: string;
  /** The months the table applies to (YYYY-MM; null: open-ended). */
  applies: { from: string | null; to: string | null };
  status: 'confirmed' | 'provisional';
}

/** The withholding-table lookup, in the payload's vocabulary (withholding.ts WithholdingResult). */
export interface WithholdingView {
  income_tax_jpy: number;
  /** Which part of the table gave the figure. */
  basis: WithholdingResult['basis'];
  /** The amount the table is read on: salary after social insurance (never below 0). */
  taxable_amount_jpy: number;
  /** The table row (from_jpy <= amount < below_jpy), or the segment above the table. */
  bracket: { from_jpy: number; below_jpy: number | null };
  above_table?: WithholdingResult['above_table'];
  /** The dependents column read (at most 7) and, with more than 7, the deduction taken from it. */
  column_dependents: number;
  column_tax_jpy: number;
  extra_dependents_deduction_jpy: number;
}

export function withholdingView(w: WithholdingResult): WithholdingView {
  return {
    income_tax_jpy: w.tax_jpy,
    basis: w.basis,
    taxable_amount_jpy: w.amount_jpy,
    bracket: { from_jpy: w.bracket.from, below_jpy: w.bracket.below },
    ...(w.above_table ? { above_table: w.above_table } : {}),
    column_dependents: w.column_dependants,
    column_tax_jpy: w.column_tax_jpy,
    extra_dependents_deduction_jpy: w.extra_dependants_deduction_jpy,
  };
}

export interface PayrollDiagnostics {
  rates: {
    health_insurance_period: string;
    health_percent: string;
    nursing_care_percent: string | null;
    child_support_percent: string;
    health_side_combined_percent: string;
    pension_percent: string;
    employment_insurance_worker_per_mille: string;
    employment_insurance_employer_per_mille: string;
    employment_insurance_period: string;
  };
  exact_before_rounding: {
    health_insurance_employee_share: string;
    pension_employee_share: string;
    employment_insurance_employee_share: string;
  };
  rounding_rule: string;
  /** The amounts under the alternative convention: the support contribution rounded on its own. */
  alternative_rounding: {
    rounding_rule: string;
    health_and_nursing_care_jpy: number;
    child_support_jpy: number;
    health_insurance_jpy: number;
    difference_jpy: number;
  };
  withholding: WithholdingView;
}

export function payrollFields(
  r: PayrollResult,
  options: { prefSource: PrefCodeSource; verbose: boolean },
): PayrollFields {
  const { input, health, pension, employment_insurance: ei, withholding } = r;
  const pref = prefectureByCode(input.prefCode);
  if (!pref) throw new Error(`unknown prefecture code ${input.prefCode}`);
  const fields: PayrollFields = {
    monthly_salary: input.monthlySalary,
    year_month: input.payMonth,
    age: input.age,
    dependents: input.dependents,
    prefecture: { code: pref.code, name_ja: pref.name_ja, name_en: pref.name_en },
    pref_code_source: options.prefSource,
    standard_remuneration: {
      health_insurance: {
        grade: r.grades.health.grade,
        standard_monthly_remuneration_jpy: r.grades.health.monthly_amount,
      },
      pension: {
        grade: r.grades.pension.grade,
        standard_monthly_remuneration_jpy: r.grades.pension.monthly_amount,
      },
    },
    income_tax_jpy: withholding.tax_jpy,
    health_insurance_jpy: health.employee_jpy,
    health_insurance_breakdown: health.parts,
    pension_jpy: pension.employee_jpy,
    employment_insurance_jpy: ei.employee_jpy,
    social_insurance_total_jpy: r.social_insurance_total_jpy,
    taxable_amount_jpy: withholding.amount_jpy,
    net_pay_jpy: r.net_pay_jpy,
    provisional: r.provisional,
    provisional_reasons: provisionalReasons(r.tables),
    tables_in_force: r.tables.map(tableView),
    conventions: {
      pay_month: input.payMonth,
      premium_month: r.premium_month,
      premium_month_rule: `Premiums are deducted a month in arrears (翌月徴収): the pay of ${input.payMonth} bears the health, nursing-care, child-support and pension premiums of ${r.premium_month}, at that month's rates.`,
      health_insurance_rule: `Kyokai Kenpo ${health.rates.health.period} rate of ${pref.name_en} (${pref.name_ja}); health_insurance_jpy is the employee's half of health insurance${health.nursing_care_applies ? ' + nursing care (age 40-64)' : ''}${health.rates.child_support.units > 0 ? ' + the child and child-rearing support contribution' : ''}, rounded once.`,
      employment_insurance_rule: `${ei.rates.business_kind_name}, ${ei.rates.worker.period} worker rate ${unitsToPerMilleText(ei.rates.worker.units)}/1000 of this month's salary (the wage period is taken to close in the pay month).`,
      child_support_rounding_rule: CHILD_SUPPORT_ROUNDING,
      income_tax_rule: `${r.income_tax_table.title} (dependents declaration filed), chosen by the calendar year of payment, read on the salary after social insurance, the whole salary being taxable (no non-taxable commuting allowance); table method, not the machine-calculation method.`,
      standard_remuneration_rule:
        'Grade of this monthly salary taken as the monthly remuneration; an insurer applies the grade fixed at enrolment, by the yearly determination (April-June average) or by a revision, which can differ.',
    },
    notes: payrollNotes(r),
  };
  if (options.verbose) fields.diagnostics = payrollDiagnostics(r);
  return fields;
}

function payrollNotes(r: PayrollResult): string[] {
  const { input, health, pension } = r;
  const notes: string[] = [];
  if (!health.insured) {
    notes.push(
      `Age ${input.age}: from 75 an employee is insured by 後期高齢者医療, not Kyokai Kenpo; no health, nursing-care or support premium is deducted from pay.`,
    );
  } else if (!health.nursing_care_applies) {
    notes.push(
      `Age ${input.age}: nursing-care insurance is deducted only for ages 40 to 64 (legally from the month of the day before the 40th birthday to the month before that of the day before the 65th).`,
    );
  }
  if (health.insured && health.rates.child_support.units === 0) {
    notes.push(
      `The child and child-rearing support contribution is collected from the premium of ${r.health.rates.child_support.period.replace(/^before (\S+).*$/, '$1')}; the premium month ${r.premium_month} has none.`,
    );
  }
  if (!pension.insured) {
    notes.push(
      `Age ${input.age}: employees' pension insures employees under 70; no pension premium is deducted.`,
    );
  }
  if (
    r.withholding.extra_dependants_deduction_jpy > 0 ||
    input.dependents > r.income_tax_table.dependantsInTable
  ) {
    notes.push(
      `More than ${r.income_tax_table.dependantsInTable} dependents: ${r.income_tax_table.deductionPerExtraDependant.toLocaleString('en-US')} yen per extra person is deducted from the ${r.income_tax_table.dependantsInTable}-person figure (${r.withholding.column_tax_jpy} yen), not below 0.`,
    );
  }
  if (r.net_pay_jpy < 0) {
    notes.push('The premiums on the standard monthly remuneration exceed the salary: net pay is negative.');
  }
  return notes;
}

function payrollDiagnostics(r: PayrollResult): PayrollDiagnostics {
  const { health, pension, employment_insurance: ei } = r;
  return {
    rates: {
      health_insurance_period: health.rates.health.period,
      health_percent: unitsToPercentText(health.rates.health.units),
      nursing_care_percent: health.nursing_care_applies
        ? unitsToPercentText(health.rates.nursing_care.units)
        : null,
      child_support_percent: unitsToPercentText(health.rates.child_support.units),
      health_side_combined_percent: unitsToPercentText(health.combined_units),
      pension_percent: unitsToPercentText(pension.rate.units),
      employment_insurance_worker_per_mille: unitsToPerMilleText(ei.rates.worker.units),
      employment_insurance_employer_per_mille: unitsToPerMilleText(ei.rates.employer_units),
      employment_insurance_period: ei.rates.worker.period,
    },
    exact_before_rounding: {
      health_insurance_employee_share: exactYenText(health.employee_exact),
      pension_employee_share: exactYenText(pension.employee_exact),
      employment_insurance_employee_share: exactYenText(ei.employee_exact),
    },
    rounding_rule:
      'Employee shares withheld from pay: a fraction of 50 sen or less is dropped, more than 50 sen makes a yen. Health insurance, nursing care and the support contribution are rounded once on their combined rate; the breakdown lines are differences of rounded running totals (health; health + nursing; all three), so they add up to the deduction.',
    alternative_rounding: {
      rounding_rule:
        'Not applied: health insurance (with nursing care) and the support contribution each rounded on its own, as some payroll software does; shown so the difference can be checked.',
      health_and_nursing_care_jpy: health.rounded_separately.health_and_nursing_care_jpy,
      child_support_jpy: health.rounded_separately.child_support_jpy,
      health_insurance_jpy: health.rounded_separately.total_jpy,
      difference_jpy: health.rounded_separately.total_jpy - health.employee_jpy,
    },
    withholding: withholdingView(r.withholding),
  };
}

export const CHILD_SUPPORT_ROUNDING =
  'The child and child-rearing support contribution is rounded together with health insurance (and nursing care): the standard monthly remuneration times the combined rate, halved, then one 50-sen rounding, as the MHLW / Children and Families Agency Q&A on the support contribution of 2026-02-12 answers; with verbose, diagnostics.alternative_rounding shows the amount if each were rounded separately.';

const COMPONENT_NAMES: Record<PayrollComponent, string> = {
  income_tax: 'Income tax withheld',
  health_insurance: 'Health and nursing-care insurance',
  child_support: 'Child and child-rearing support contribution',
  pension: "Employees' pension rate",
  employment_insurance: 'Employment insurance',
  health_grades: 'Health-insurance grade table',
  pension_grades: "Employees' pension grade table",
};

/** When the publisher makes the next period's table known (for the provisional reason). */
const NEXT_PUBLICATION: Record<PayrollComponent, string> = {
  income_tax: "the NTA publishes each year's monthly table in the autumn of the year before",
  health_insurance:
    "Kyokai Kenpo announces each fiscal year's prefecture rates in February, for premiums from March",
  child_support: "the government sets each fiscal year's support-contribution rate before April",
  pension: 'the rate changes only by law',
  employment_insurance: "MHLW announces each fiscal year's rates before April",
  health_grades: 'the grade table changes only by law',
  pension_grades:
    'the grade table changes by law (the 2025 pension reform raises the ceiling from September 2027)',
};

function monthsText(a: { from: string | null; to: string | null }): string {
  return `${a.from ?? 'the start'} to ${a.to ?? 'now'}`;
}

/** What a period label belongs to, where the label alone ("FY2026 (令和8年度)") does not say. */
const TABLE_NAMES: Partial<Record<PayrollComponent, string>> = {
  health_insurance: 'Kyokai Kenpo health and nursing-care rates',
  child_support: 'Child and child-rearing support contribution rate',
  pension: "Employees' pension rate",
  employment_insurance: 'Employment insurance rates',
};

function tableName(t: TableUse): string {
  const name = TABLE_NAMES[t.component];
  return name ? `${name}, ${t.table}` : t.table;
}

function tableView(t: TableUse): TableInForceView {
  return {
    component: t.component,
    table: tableName(t),
    chosen_by: t.keyed_by,
    month: t.month,
    applies: { from: t.table_months.from, to: t.table_months.to },
    status: t.provisional ? 'provisional' : 'confirmed',
  };
}

/** Why each table that does not cover its month was applied (empty when all are confirmed). */
export function provisionalReasons(uses: readonly TableUse[]): string[] {
  return uses.flatMap(provisionalReason);
}

function provisionalReason(t: TableUse): string[] {
  if (!t.provisional) return [];
  const month = `${t.keyed_by === 'premium_month' ? 'premium month' : 'pay month'} ${t.month}`;
  const name = COMPONENT_NAMES[t.component];
  if (t.provisional.reason === 'after_last_table') {
    return [
      `${name}: no table for the ${month} is loaded yet (${NEXT_PUBLICATION[t.component]}); the latest known table, ${tableName(t)} (${monthsText(t.table_months)}), was applied. Recompute when the new table is published.`,
    ];
  }
  return [
    `${name}: no table for the ${month} is loaded (the earliest loaded starts ${t.table_months.from}); ${tableName(t)} was applied, which may differ from what applied in that month.`,
  ];
}

/** What every payroll table's notes say about how its figures were checked, in one sentence. */
const PAYROLL_CHECK_NOTE =
  'The official files named in sources could not be opened when the tables were built: every figure was checked against the independent transcriptions in cross_checked_against (each withholding-table cell against two per year, each Kyokai rate against at least two full lists).';

/**
 * Provenance of payroll answers: the documents of the tables an answer used, for the periods it
 * used them (issue 29: an answer for one month cites that month's rate documents, not every
 * fiscal year's), official sources first, the transcriptions they were checked against
 * separately. One block per combination of periods, built on first use.
 */
export class PayrollProvenance {
  private readonly byPeriods = new Map<string, DataProvenance>();
  /** The table of each component but income tax (its table is the year's: PayrollResult says which). */
  private readonly tables: Record<Exclude<PayrollComponent, 'income_tax'>, TableProvenance>;
  /** The oldest as-of date of the tables (when they were last checked against their sources). */
  readonly asOf: string;

  constructor(
    calculator: PayrollCalculator,
    private readonly extra: TableProvenance[] = [],
  ) {
    const { rates, grades } = calculator;
    this.tables = {
      health_insurance: rates.provenance.health,
      child_support: rates.provenance.child_support,
      pension: rates.provenance.pension,
      employment_insurance: rates.provenance.employment_insurance,
      health_grades: grades.provenance,
      pension_grades: grades.provenance,
    };
    const all = [
      ...calculator.withholding.tables.map((t) => t.provenance),
      ...Object.values(this.tables),
      ...extra,
    ];
    this.asOf = all.map((p) => p.as_of).sort()[0];
  }

  for(r: PayrollResult): DataProvenance {
    const key = r.tables.map((t) => `${t.component}\u0000${t.table}`).join('\u0000');
    let provenance = this.byPeriods.get(key);
    if (!provenance) {
      const used = new Map<TableProvenance, Set<string>>();
      for (const t of r.tables) {
        const table = t.component === 'income_tax' ? r.income_tax_table.provenance : this.tables[t.component];
        let labels = used.get(table);
        if (!labels) used.set(table, (labels = new Set()));
        labels.add(t.table);
      }
      const tables = [...used].map(([table, labels]) => provenanceForPeriods(table, labels));
      provenance = mergedProvenance([...tables, ...this.extra], [PAYROLL_CHECK_NOTE]);
      this.byPeriods.set(key, provenance);
    }
    return provenance;
  }
}

function mergedProvenance(tables: readonly TableProvenance[], notes: string[] = []): DataProvenance {
  const unique = (refs: SourceRef[]) => {
    const seen = new Set<string>();
    return refs.filter((s) => {
      const key = `${s.name}|${s.url ?? ''}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  };
  const sources = unique(tables.flatMap((t) => t.sources));
  const checked = unique(tables.flatMap((t) => t.cross_checked_against ?? []));
  const asOf = tables.map((t) => t.as_of).sort()[0];
  return {
    ...snapshotProvenance({ sources, as_of: asOf, cross_checked_against: checked }),
    ...(notes.length > 0 ? { notes } : {}),
    kind: 'snapshot',
  };
}

/** What the payroll tables cover, for the discovery documents. */
export function payrollCoverage(calculator: PayrollCalculator, asOf: string): DataCoverage {
  const { from, to } = calculator.confirmedPayMonths;
  return {
    kind: 'snapshot',
    as_of: asOf,
    periods: { unit: 'pay_month', confirmed: { from, to }, provisional_from: calculator.provisionalFrom },
    summary: `Official tables by effective date: pay months ${from} to ${to} are computed with the tables in force; from ${calculator.provisionalFrom} answers use the latest published tables and say provisional: true, with the reason.`,
  };
}
