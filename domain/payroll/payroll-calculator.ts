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
 * - income tax uses the monthly table of the calendar year of the pay month.
 */
import { Lifecycle, scoped } from 'tsyringe';
import { applyRate, halfOfRate, roundDeducted, type ExactYen } from './fixed-point';
import { StandardRemunerationTable, type Grade } from './standard-remuneration';
import { MonthlyWithholdingTable, type WithholdingResult } from './withholding';
import { SocialInsuranceRates, type EmploymentInsuranceRates, type PeriodRate } from './premium-rates';
import { addMonths, inSpan, intersectSpans, shiftSpan, type MonthSpan, type YearMonth } from './year-month';

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
  net_pay_jpy: number;
}

@scoped(Lifecycle.ContainerScoped)
export class PayrollCalculator {
  /** Pay months every table covers; computed from the tables, never written by hand. */
  readonly supportedPayMonths: { from: YearMonth; to: YearMonth };

  constructor(
    readonly grades: StandardRemunerationTable,
    readonly rates: SocialInsuranceRates,
    readonly withholding: MonthlyWithholdingTable,
  ) {
    const premiumToPay = (s: MonthSpan) => shiftSpan(s, PREMIUM_MONTH_LAG);
    const span = intersectSpans([
      {
        from: withholding.appliesToPayments.from.slice(0, 7),
        to: withholding.appliesToPayments.to.slice(0, 7),
      },
      premiumToPay(rates.coverage.health),
      premiumToPay(rates.coverage.child_support),
      premiumToPay(rates.coverage.pension),
      premiumToPay(grades.health.valid_premium_months),
      premiumToPay(grades.pension.valid_premium_months),
      rates.coverage.employment_insurance,
    ]);
    if (span.from === null || span.to === null || span.from > span.to) {
      throw new Error('payroll tables: no pay month is covered by every table');
    }
    this.supportedPayMonths = { from: span.from, to: span.to };
  }

  covers(payMonth: YearMonth): boolean {
    return inSpan(payMonth, this.supportedPayMonths);
  }

  calculate(input: PayrollInput): PayrollResult {
    if (!this.covers(input.payMonth)) throw new Error(`pay month ${input.payMonth} is outside the tables`);
    const premiumMonth = addMonths(input.payMonth, -PREMIUM_MONTH_LAG);
    const grades = this.grades.gradesFor(input.monthlySalary);
    const health = this.healthShare(input, premiumMonth, grades.health.monthly_amount);
    const pension = this.pensionShare(input, premiumMonth, grades.pension.monthly_amount);
    const employment = this.employmentInsuranceShare(input);
    const total = health.employee_jpy + pension.employee_jpy + employment.employee_jpy;
    const afterSocialInsurance = input.monthlySalary - total;
    const withholding = this.withholding.taxFor(afterSocialInsurance, input.dependents);
    return {
      input,
      premium_month: premiumMonth,
      grades,
      health,
      pension,
      employment_insurance: employment,
      social_insurance_total_jpy: total,
      after_social_insurance_jpy: afterSocialInsurance,
      withholding,
      net_pay_jpy: afterSocialInsurance - withholding.tax_jpy,
    };
  }

  private healthShare(input: PayrollInput, premiumMonth: YearMonth, standard: number): HealthInsuranceShare {
    const r = this.rates.healthRates(premiumMonth, input.prefCode);
    const child = this.rates.childSupportRate(premiumMonth);
    if (!r || !child) throw new Error(`no health rates for ${premiumMonth} in ${input.prefCode}`);
    const insured = input.age < this.rates.healthInsuredBelowAge;
    const ages = this.rates.nursingCareAges;
    const nursing = insured && input.age >= ages.from && input.age <= ages.to;
    const healthUnits = r.health.units;
    const withNursingUnits = healthUnits + (nursing ? r.nursing_care.units : 0);
    const combined = withNursingUnits + child.units;
    const exact = halfOfRate(insured ? standard : 0, combined);
    // One rounding on the combined rate (MHLW Q&A of 2026-02-12; Kyokai's fee tables likewise
    // give health + nursing as one amount). The payslip split takes each line as the difference
    // of rounded running totals, so the lines add up to the amount actually deducted.
    const total = roundDeducted(exact);
    const healthOnly = roundDeducted(halfOfRate(insured ? standard : 0, healthUnits));
    const healthAndNursing = roundDeducted(halfOfRate(insured ? standard : 0, withNursingUnits));
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
    };
  }

  private pensionShare(input: PayrollInput, premiumMonth: YearMonth, standard: number): PensionShare {
    const rate = this.rates.pensionRate(premiumMonth);
    if (!rate) throw new Error(`no pension rate for ${premiumMonth}`);
    const insured = input.age < this.rates.pensionInsuredBelowAge;
    const exact = halfOfRate(insured ? standard : 0, rate.units);
    return { insured, rate, employee_exact: exact, employee_jpy: roundDeducted(exact) };
  }

  private employmentInsuranceShare(input: PayrollInput): EmploymentInsuranceShare {
    const rates = this.rates.employmentInsuranceRates(input.payMonth, EMPLOYMENT_INSURANCE_KIND);
    if (!rates) throw new Error(`no employment insurance rate for ${input.payMonth}`);
    const exact = applyRate(input.monthlySalary, rates.worker.units);
    return { rates, employee_exact: exact, employee_jpy: roundDeducted(exact) };
  }
}
