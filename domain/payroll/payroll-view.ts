/**
 * The payload fields both payroll endpoints share (calc-by-salary and payroll-summary): every
 * deduction in whole yen, the conventions applied in words a payroll clerk recognises, and with
 * verbose the rates and the exact amounts before rounding.
 */
import type { DataProvenance } from '../../core/plugins/contract';
import { snapshotProvenance, type TableProvenance } from '../shared/data-file';
import { prefectureByCode } from '../shared/prefectures';
import { exactYenText, unitsToPerMilleText, unitsToPercentText } from './fixed-point';
import type { PayrollCalculator, PayrollResult } from './payroll-calculator';
import type { WithholdingResult } from './withholding';

/** Tokyo: the prefecture applied when none is given (said so in every answer). */
export const DEFAULT_PREF_CODE = '13';

export const PAYROLL_ATTRIBUTION =
  "Japan Health Insurance Association (全国健康保険協会, Kyokai Kenpo) prefecture rates, the Japan Pension Service employees' pension rate, MHLW employment insurance rates and the National Tax Agency monthly withholding table for 2026 (令和8年分 月額表 甲欄), with the child and child-rearing support contribution, as transcribed from the sources listed";

export interface PayrollFields {
  monthly_salary: number;
  year_month: string;
  age: number;
  dependents: number;
  prefecture: { code: string; name_ja: string; name_en: string; source: 'query' | 'default' };
  standard_monthly_remuneration: {
    health_insurance: { grade: number; amount_jpy: number };
    employees_pension: { grade: number; amount_jpy: number };
  };
  income_tax_jpy: number;
  health_insurance_jpy: number;
  health_insurance_breakdown: { health_jpy: number; nursing_care_jpy: number; child_support_jpy: number };
  pension_jpy: number;
  employment_insurance_jpy: number;
  social_insurance_total_jpy: number;
  taxable_amount_jpy: number;
  net_pay_jpy: number;
  conventions: {
    pay_month: string;
    premium_month: string;
    premium_month_rule: string;
    health_insurance: string;
    employment_insurance: string;
    income_tax: string;
    standard_remuneration: string;
  };
  notes: string[];
  details?: PayrollDetails;
}

export interface PayrollDetails {
  rates: {
    period_health: string;
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
  rounding: string;
  withholding: WithholdingResult;
}

export function payrollFields(
  r: PayrollResult,
  options: { prefSource: 'query' | 'default'; verbose: boolean },
): PayrollFields {
  const { input, health, pension, employment_insurance: ei, withholding } = r;
  const pref = prefectureByCode(input.prefCode);
  if (!pref) throw new Error(`unknown prefecture code ${input.prefCode}`);
  const fields: PayrollFields = {
    monthly_salary: input.monthlySalary,
    year_month: input.payMonth,
    age: input.age,
    dependents: input.dependents,
    prefecture: { code: pref.code, name_ja: pref.name_ja, name_en: pref.name_en, source: options.prefSource },
    standard_monthly_remuneration: {
      health_insurance: { grade: r.grades.health.grade, amount_jpy: r.grades.health.monthly_amount },
      employees_pension: { grade: r.grades.pension.grade, amount_jpy: r.grades.pension.monthly_amount },
    },
    income_tax_jpy: withholding.tax_jpy,
    health_insurance_jpy: health.employee_jpy,
    health_insurance_breakdown: health.parts,
    pension_jpy: pension.employee_jpy,
    employment_insurance_jpy: ei.employee_jpy,
    social_insurance_total_jpy: r.social_insurance_total_jpy,
    taxable_amount_jpy: withholding.amount_jpy,
    net_pay_jpy: r.net_pay_jpy,
    conventions: {
      pay_month: input.payMonth,
      premium_month: r.premium_month,
      premium_month_rule: `Premiums are deducted a month in arrears (翌月徴収): the pay of ${input.payMonth} bears the health, nursing-care, child-support and pension premiums of ${r.premium_month}, at that month's rates.`,
      health_insurance: `Kyokai Kenpo ${health.rates.health.period} rate of ${pref.name_en} (${pref.name_ja}); health_insurance_jpy is the employee's half of health insurance${health.nursing_care_applies ? ' + nursing care (age 40-64)' : ''}${health.rates.child_support.units > 0 ? ' + the child and child-rearing support contribution' : ''}, rounded once.`,
      employment_insurance: `${ei.rates.business_kind_name}, ${ei.rates.worker.period} worker rate ${unitsToPerMilleText(ei.rates.worker.units)}/1000 of this month's salary (the wage period is taken to close in the pay month).`,
      income_tax: `NTA monthly withholding table for 2026 (令和8年分 月額表), column 甲 (dependants declaration filed), read on the salary after social insurance, the whole salary being taxable (no non-taxable commuting allowance); table method, not the machine-calculation method.`,
      standard_remuneration:
        'Grade of this monthly salary taken as the monthly remuneration; an insurer applies the grade fixed at enrolment, by the yearly determination (April-June average) or by a revision, which can differ.',
    },
    notes: payrollNotes(r),
  };
  if (options.verbose) fields.details = payrollDetails(r);
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
      `The child and child-rearing support contribution is collected from the April 2026 premium; the premium month ${r.premium_month} has none.`,
    );
  }
  if (!pension.insured) {
    notes.push(
      `Age ${input.age}: employees' pension insures employees under 70; no pension premium is deducted.`,
    );
  }
  if (r.withholding.extra_dependants_deduction_jpy > 0 || input.dependents > 7) {
    notes.push(
      `More than 7 dependants: 1,610 yen per extra person is deducted from the 7-person figure (${r.withholding.column_tax_jpy} yen), not below 0.`,
    );
  }
  if (r.net_pay_jpy < 0) {
    notes.push('The premiums on the standard monthly remuneration exceed the salary: net pay is negative.');
  }
  return notes;
}

function payrollDetails(r: PayrollResult): PayrollDetails {
  const { health, pension, employment_insurance: ei } = r;
  return {
    rates: {
      period_health: health.rates.health.period,
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
    rounding:
      'Employee shares withheld from pay: a fraction of 50 sen or less is dropped, more than 50 sen makes a yen. Health insurance, nursing care and the support contribution are rounded once on their combined rate; the breakdown lines are differences of rounded running totals (health; health + nursing; all three), so they add up to the deduction.',
    withholding: r.withholding,
  };
}

/** Provenance of a payroll answer: every table it read, their sources merged. */
export function payrollProvenance(
  calculator: PayrollCalculator,
  extra: TableProvenance[] = [],
): DataProvenance {
  const tables = [
    calculator.withholding.provenance,
    calculator.grades.provenance,
    ...calculator.rates.provenances,
    ...extra,
  ];
  return mergedProvenance(tables, [
    'Official files (NTA 01-07.pdf, Kyokai Kenpo fee tables, MHLW rate leaflets) could not be opened when the tables were built; figures are transcriptions by the sources listed, cross-checked as the data/payroll tables record.',
    'The 2026 withholding rows are a third-party machine extraction of the NTA PDF (fiestared/keiri-tools), checked cell for cell against a second transcription (renjaku/opendata) and against published sample rows and NTA worked examples.',
  ]);
}

export function mergedProvenance(tables: readonly TableProvenance[], notes: string[]): DataProvenance {
  const seen = new Set<string>();
  const sources = tables
    .flatMap((t) => t.sources)
    .filter((s) => {
      const key = `${s.name}|${s.url ?? ''}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  const asOf = tables.map((t) => t.as_of).sort()[0];
  return { ...snapshotProvenance({ sources, as_of: asOf }), notes, kind: 'snapshot' };
}
