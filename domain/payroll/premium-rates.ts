/**
 * Social-insurance rates by month, from data/payroll: Kyokai Kenpo health insurance by prefecture,
 * nursing-care insurance, the child and child-rearing support contribution, employees' pension
 * and employment insurance. Every lookup is keyed by month; a month outside a table is answered
 * with undefined, never with another period's rate.
 */
import { Lifecycle, scoped } from 'tsyringe';
import { loadDataFile, type TableProvenance } from '../shared/data-file';
import { perMilleToUnits, percentToUnits } from './fixed-point';
import { contiguousSpan, inSpan, type MonthSpan, type YearMonth } from './year-month';

interface KyokaiFile {
  insured_below_age: number;
  nursing_care_ages: { from: number; to: number };
  periods: Array<{
    label: string;
    premium_months: MonthSpan;
    nursing_care_percent: string;
    health_percent_by_prefecture: Record<string, string>;
  }>;
}

interface ChildSupportFile {
  first_premium_month: YearMonth;
  periods: Array<{ label: string; premium_months: MonthSpan; percent: string }>;
}

interface PensionFile {
  insured_below_age: number;
  periods: Array<{ label: string; premium_months: MonthSpan; percent: string }>;
}

export type BusinessKind = 'general' | 'agriculture_forestry_fishery_sake' | 'construction';

interface EmploymentInsuranceFile {
  business_kinds: Record<BusinessKind, string>;
  periods: Array<{
    label: string;
    wage_months: MonthSpan;
    per_mille: Record<BusinessKind, { worker: string; employer: string; total: string }>;
  }>;
}

/** A rate in units of 0.001% with the period it belongs to. */
export interface PeriodRate {
  units: number;
  period: string;
}

export interface HealthRates {
  health: PeriodRate;
  nursing_care: PeriodRate;
}

export interface EmploymentInsuranceRates {
  business_kind: BusinessKind;
  business_kind_name: string;
  worker: PeriodRate;
  employer_units: number;
  total_units: number;
}

export const KYOKAI_TABLE = 'payroll/kyokai-kenpo-rates.json';
export const CHILD_SUPPORT_TABLE = 'payroll/child-support-contribution.json';
export const PENSION_TABLE = 'payroll/employees-pension.json';
export const EMPLOYMENT_INSURANCE_TABLE = 'payroll/employment-insurance-rates.json';

@scoped(Lifecycle.ContainerScoped)
export class SocialInsuranceRates {
  readonly provenances: readonly TableProvenance[];
  /** Ages: Kyokai insures below this age; nursing care applies within these ages (both included). */
  readonly healthInsuredBelowAge: number;
  readonly nursingCareAges: { from: number; to: number };
  readonly pensionInsuredBelowAge: number;
  readonly childSupportFirstMonth: YearMonth;
  /** Premium months (health, nursing, pension, child support) and wage months (employment insurance) covered. */
  readonly coverage: {
    health: MonthSpan;
    child_support: MonthSpan;
    pension: MonthSpan;
    employment_insurance: MonthSpan;
  };
  private readonly kyokai: KyokaiFile;
  private readonly childSupport: ChildSupportFile;
  private readonly pensionFile: PensionFile;
  private readonly employment: EmploymentInsuranceFile;

  constructor() {
    const kyokai = loadDataFile<KyokaiFile>(KYOKAI_TABLE);
    const child = loadDataFile<ChildSupportFile>(CHILD_SUPPORT_TABLE);
    const pension = loadDataFile<PensionFile>(PENSION_TABLE);
    const employment = loadDataFile<EmploymentInsuranceFile>(EMPLOYMENT_INSURANCE_TABLE);
    this.kyokai = kyokai;
    this.childSupport = child;
    this.pensionFile = pension;
    this.employment = employment;
    this.provenances = [kyokai.provenance, child.provenance, pension.provenance, employment.provenance];
    this.healthInsuredBelowAge = kyokai.insured_below_age;
    this.nursingCareAges = kyokai.nursing_care_ages;
    this.pensionInsuredBelowAge = pension.insured_below_age;
    this.childSupportFirstMonth = child.first_premium_month;
    for (const p of kyokai.periods) {
      if (Object.keys(p.health_percent_by_prefecture).length !== 47) {
        throw new Error(`${KYOKAI_TABLE}: ${p.label} does not have a rate for each of the 47 prefectures`);
      }
    }
    const childSpan = contiguousSpan(
      child.periods.map((p) => p.premium_months),
      CHILD_SUPPORT_TABLE,
    );
    if (childSpan.from !== child.first_premium_month) {
      throw new Error(`${CHILD_SUPPORT_TABLE}: the first period must start at first_premium_month`);
    }
    this.coverage = {
      health: contiguousSpan(
        kyokai.periods.map((p) => p.premium_months),
        KYOKAI_TABLE,
      ),
      // Before its first month the contribution did not exist: known to be zero, so covered.
      child_support: { from: null, to: childSpan.to },
      pension: contiguousSpan(
        pension.periods.map((p) => p.premium_months),
        PENSION_TABLE,
      ),
      employment_insurance: contiguousSpan(
        employment.periods.map((p) => p.wage_months),
        EMPLOYMENT_INSURANCE_TABLE,
      ),
    };
  }

  /** Health and nursing-care rates of a premium month in a prefecture (JIS code). */
  healthRates(premiumMonth: YearMonth, prefCode: string): HealthRates | undefined {
    const p = this.kyokai.periods.find((x) => inSpan(premiumMonth, x.premium_months));
    const health = p?.health_percent_by_prefecture[prefCode];
    if (!p || health === undefined) return undefined;
    return {
      health: { units: percentToUnits(health), period: p.label },
      nursing_care: { units: percentToUnits(p.nursing_care_percent), period: p.label },
    };
  }

  /** The support-contribution rate of a premium month: 0 before it existed; undefined past the table. */
  childSupportRate(premiumMonth: YearMonth): PeriodRate | undefined {
    if (premiumMonth < this.childSupportFirstMonth) {
      return { units: 0, period: `before ${this.childSupportFirstMonth} (not yet collected)` };
    }
    const p = this.childSupport.periods.find((x) => inSpan(premiumMonth, x.premium_months));
    return p && { units: percentToUnits(p.percent), period: p.label };
  }

  pensionRate(premiumMonth: YearMonth): PeriodRate | undefined {
    const p = this.pensionFile.periods.find((x) => inSpan(premiumMonth, x.premium_months));
    return p && { units: percentToUnits(p.percent), period: p.label };
  }

  /** Employment-insurance rates for wages of a month (by their closing date) and a business kind. */
  employmentInsuranceRates(wageMonth: YearMonth, kind: BusinessKind): EmploymentInsuranceRates | undefined {
    const p = this.employment.periods.find((x) => inSpan(wageMonth, x.wage_months));
    if (!p) return undefined;
    const r = p.per_mille[kind];
    return {
      business_kind: kind,
      business_kind_name: this.employment.business_kinds[kind],
      worker: { units: perMilleToUnits(r.worker), period: p.label },
      employer_units: perMilleToUnits(r.employer),
      total_units: perMilleToUnits(r.total),
    };
  }
}
