/**
 * One month's payroll deductions for an employee insured with Kyokai Kenpo: standard monthly
 * remuneration, health insurance (with nursing care and the child-support contribution),
 * employees' pension, employment insurance and income tax withheld, and the net pay.
 *
 * Conventions (docs/payroll.md explains each):
 * - the month asked for is the PAY month; social-insurance premiums deducted from it are those of
 *   the previous month (翌月徴収), at that premium month's rates;
 * - employment insurance is at the rate of the fiscal year of the pay month (the wage period is
 *   taken to close in the pay month), general business;
 * - income tax uses the monthly table of the calendar year of the pay month;
 * - a month some table does not reach yet is answered with the nearest period, marked provisional.
 */
import { Lifecycle, scoped } from 'tsyringe';
import { applyRate, halfOfRate, roundDeducted, type ExactYen } from './fixed-point';
import type { InForce, PeriodTable, ProvisionalUse } from './periods';
import { StandardRemunerationTable, type Grade } from './standard-remuneration';
import { WithholdingTables, type MonthlyWithholdingTable, type WithholdingResult } from './withholding';
import { SocialInsuranceRates, type EmploymentInsuranceRates, type PeriodRate } from './premium-rates';
import { addMonths, intersectSpans, shiftSpan, type MonthSpan, type YearMonth } from './year-month';

/** Premiums of month M are deducted from the pay of month M + 1. */
export const PREMIUM_MONTH_LAG = 1;
export const EMPLOYMENT_INSURANCE_KIND = 'general' as const;

export interface PayrollInput {
  monthlySalary: number;
  age: number;
  dependents: number;
  /** JIS X 0401 prefecture code of the Kyokai Kenpo branch (the workplace's prefecture). */
  prefCode: string;
  payMonth: YearMonth;
}

export interface HealthInsuranceShare {
  insured: boolean;
  nursing_care_applies: boolean;
  rates: { health: PeriodRate; nursing_care: PeriodRate; child_support: PeriodRate };
  /** The rate the employee's half is taken of: health + nursing care (if it applies) + child support. */
  combined_units: number;
  employee_exact: ExactYen;
  /** Rounded once, on the combined rate. */
  employee_jpy: number;
  /** The same amount split for a payslip; the parts always add up to employee_jpy. */
  parts: { health_jpy: number; nursing_care_jpy: number; child_support_jpy: number };
  /** The alternative convention: health (+ nursing care) and the support contribution rounded each on its own. */
  rounded_separately: { health_and_nursing_care_jpy: number; child_support_jpy: number; total_jpy: number };
}

export interface PensionShare {
  insured: boolean;
  rate: PeriodRate;
  employee_exact: ExactYen;
  employee_jpy: number;
}

export interface EmploymentInsuranceShare {
  rates: EmploymentInsuranceRates;
  employee_exact: ExactYen;
  employee_jpy: number;
}

/** The parts of a payroll answer that each come from a table in force for some month. */
export const PAYROLL_COMPONENTS = [
  'income_tax',
  'health_insurance',
  'child_support',
  'pension',
  'employment_insurance',
  'health_grades',
  'pension_grades',
] as const;
export type PayrollComponent = (typeof PAYROLL_COMPONENTS)[number];

/** Which month a component's table is chosen by. */
export type MonthKey = 'pay_month' | 'premium_month';

/**
 * Income tax: the calendar year of payment (令和N年分 applies to salaries paid in that year).
 * Employment insurance: the fiscal year of the wages, taken to close in the pay month.
 * Premiums and the grade scales: the premium month, a month before the pay month.
 */
const CHOSEN_BY: Record<PayrollComponent, MonthKey> = {
  income_tax: 'pay_month',
  employment_insurance: 'pay_month',
  health_insurance: 'premium_month',
  child_support: 'premium_month',
  pension: 'premium_month',
  health_grades: 'premium_month',
  pension_grades: 'premium_month',
};

/** One table an answer used: which, for which month, and whether it covers that month. */
export interface TableUse {
  component: PayrollComponent;
  table: string;
  keyed_by: MonthKey;
  month: YearMonth;
  table_months: MonthSpan;
  provisional: ProvisionalUse | null;
}

export interface PayrollResult {
  input: PayrollInput;
  premium_month: YearMonth;
  grades: { health: Grade; pension: Grade };
  health: HealthInsuranceShare;
  pension: PensionShare;
  employment_insurance: EmploymentInsuranceShare;
  social_insurance_total_jpy: number;
  /** Salary after social insurance (社会保険料等控除後の給与等の金額); negative when premiums exceed pay. */
  after_social_insurance_jpy: number;
  withholding: WithholdingResult;
  /** The monthly table of the year of payment (or the nearest loaded one, when provisional). */
  income_tax_table: MonthlyWithholdingTable;
  net_pay_jpy: number;
  /** Every table used, in PAYROLL_COMPONENTS order. */
  tables: TableUse[];
  /** True when any table used does not cover its month (a later or earlier period's table was used). */
  provisional: boolean;
}

@scoped(Lifecycle.ContainerScoped)
export class PayrollCalculator {
  /** Pay months every table covers (answers there are confirmed); computed from the tables. */
  readonly confirmedPayMonths: { from: YearMonth; to: YearMonth };
  private readonly componentTables: Record<PayrollComponent, PeriodTable<unknown>>;

  constructor(
    readonly grades: StandardRemunerationTable,
    readonly rates: SocialInsuranceRates,
    readonly withholding: WithholdingTables,
  ) {
    this.componentTables = {
      income_tax: withholding.byPayMonth,
      employment_insurance: rates.employment,
      health_insurance: rates.kyokai,
      child_support: rates.childSupport,
      pension: rates.pension,
      health_grades: grades.health,
      pension_grades: grades.pension,
    };
    const span = intersectSpans(
      PAYROLL_COMPONENTS.map((c) => {
        const { table, keyedBy } = this.tableOf(c);
        return keyedBy === 'premium_month' ? shiftSpan(table.covered, PREMIUM_MONTH_LAG) : table.covered;
      }),
    );
    if (span.from === null || span.to === null || span.from > span.to) {
      throw new Error('payroll tables: no pay month is covered by every table');
    }
    this.confirmedPayMonths = { from: span.from, to: span.to };
  }

  /** The first pay month answered provisionally (some table not yet published for it). */
  get provisionalFrom(): YearMonth {
    return addMonths(this.confirmedPayMonths.to, 1);
  }

  calculate(input: PayrollInput): PayrollResult {
    const premiumMonth = addMonths(input.payMonth, -PREMIUM_MONTH_LAG);
    const grades = this.grades.gradesFor(input.monthlySalary, premiumMonth);
    const kyokai = this.rates.healthRates(premiumMonth, input.prefCode);
    const child = this.rates.childSupportRate(premiumMonth);
    const pensionRate = this.rates.pensionRate(premiumMonth);
    const employmentRates = this.rates.employmentInsuranceRates(input.payMonth, EMPLOYMENT_INSURANCE_KIND);
    const tax = this.withholding.byPayMonth.at(input.payMonth);

    const health = this.healthShare(input, kyokai.value, child.value, grades.health.value.monthly_amount);
    const pension = this.pensionShare(input, pensionRate.value, grades.pension.value.monthly_amount);
    const employment = this.employmentInsuranceShare(input, employmentRates.value);
    const total = health.employee_jpy + pension.employee_jpy + employment.employee_jpy;
    const afterSocialInsurance = input.monthlySalary - total;
    const withholding = tax.value.taxFor(afterSocialInsurance, input.dependents);

    const used: Record<PayrollComponent, InForce<unknown>> = {
      income_tax: tax,
      health_insurance: kyokai,
      child_support: child,
      pension: pensionRate,
      employment_insurance: employmentRates,
      health_grades: grades.health,
      pension_grades: grades.pension,
    };
    const tables = PAYROLL_COMPONENTS.map((c): TableUse => {
      const u = used[c];
      const keyedBy = CHOSEN_BY[c];
      return {
        component: c,
        table: u.label,
        keyed_by: keyedBy,
        month: keyedBy === 'premium_month' ? premiumMonth : input.payMonth,
        table_months: u.months,
        provisional: u.provisional,
      };
    });
    return {
      input,
      premium_month: premiumMonth,
      grades: { health: grades.health.value, pension: grades.pension.value },
      health,
      pension,
      employment_insurance: employment,
      social_insurance_total_jpy: total,
      after_social_insurance_jpy: afterSocialInsurance,
      withholding,
      income_tax_table: tax.value,
      net_pay_jpy: afterSocialInsurance - withholding.tax_jpy,
      tables,
      provisional: tables.some((t) => t.provisional !== null),
    };
  }

  /** The table behind a component and the month it is chosen by. */
  tableOf(c: PayrollComponent): { table: PeriodTable<unknown>; keyedBy: MonthKey } {
    return { table: this.componentTables[c], keyedBy: CHOSEN_BY[c] };
  }

  private healthShare(
    input: PayrollInput,
    r: { health: PeriodRate; nursing_care: PeriodRate },
    child: PeriodRate,
    standard: number,
  ): HealthInsuranceShare {
    const insured = input.age < this.rates.healthInsuredBelowAge;
    const ages = this.rates.nursingCareAges;
    const nursing = insured && input.age >= ages.from && input.age <= ages.to;
    const base = insured ? standard : 0;
    const healthUnits = r.health.units;
    const withNursingUnits = healthUnits + (nursing ? r.nursing_care.units : 0);
    const combined = withNursingUnits + child.units;
    const exact = halfOfRate(base, combined);
    // One rounding on the combined rate (MHLW Q&A of 2026-02-12; Kyokai's fee tables likewise
    // give health + nursing as one amount). The payslip split takes each line as the difference
    // of rounded running totals, so the lines add up to the amount actually deducted.
    const total = roundDeducted(exact);
    const healthOnly = roundDeducted(halfOfRate(base, healthUnits));
    const healthAndNursing = roundDeducted(halfOfRate(base, withNursingUnits));
    const childAlone = roundDeducted(halfOfRate(base, child.units));
    return {
      insured,
      nursing_care_applies: nursing,
      rates: { health: r.health, nursing_care: r.nursing_care, child_support: child },
      combined_units: combined,
      employee_exact: exact,
      employee_jpy: total,
      parts: {
        health_jpy: healthOnly,
        nursing_care_jpy: healthAndNursing - healthOnly,
        child_support_jpy: total - healthAndNursing,
      },
      rounded_separately: {
        health_and_nursing_care_jpy: healthAndNursing,
        child_support_jpy: childAlone,
        total_jpy: healthAndNursing + childAlone,
      },
    };
  }

  private pensionShare(input: PayrollInput, rate: PeriodRate, standard: number): PensionShare {
    const insured = input.age < this.rates.pensionInsuredBelowAge;
    const exact = halfOfRate(insured ? standard : 0, rate.units);
    return { insured, rate, employee_exact: exact, employee_jpy: roundDeducted(exact) };
  }

  private employmentInsuranceShare(
    input: PayrollInput,
    rates: EmploymentInsuranceRates,
  ): EmploymentInsuranceShare {
    const exact = applyRate(input.monthlySalary, rates.worker.units);
    return { rates, employee_exact: exact, employee_jpy: roundDeducted(exact) };
  }
}
