/**
 * Social-insurance rates by month, from data/payroll: Kyokai Kenpo health insurance by prefecture,
 * nursing-care insurance, the child and child-rearing support contribution, employees' pension
 * and employment insurance. Every lookup is keyed by month and says which period's table it used;
 * a month outside every loaded period gets the nearest one, marked provisional (periods.ts).
 */
import { Lifecycle, scoped } from 'tsyringe';
import { loadDataFile, type TableProvenance } from '../shared/data-file';
import { perMilleToUnits, percentToUnits } from './fixed-point';
import { PeriodTable, type InForce, type Period } from './periods';
import { addMonths, type MonthSpan, type YearMonth } from './year-month';

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

type KyokaiPeriod = KyokaiFile['periods'][number];
type EmploymentPeriod = EmploymentInsuranceFile['periods'][number];

export const KYOKAI_TABLE = 'payroll/kyokai-kenpo-rates.json';
export const CHILD_SUPPORT_TABLE = 'payroll/child-support-contribution.json';
export const PENSION_TABLE = 'payroll/employees-pension.json';
export const EMPLOYMENT_INSURANCE_TABLE = 'payroll/employment-insurance-rates.json';

@scoped(Lifecycle.ContainerScoped)
export class SocialInsuranceRates {
  /** The provenance of each rate table, by the component it prices. */
  readonly provenance: {
    health: TableProvenance;
    child_support: TableProvenance;
    pension: TableProvenance;
    employment_insurance: TableProvenance;
  };
  /** Ages: Kyokai insures below this age; nursing care applies within these ages (both included). */
  readonly healthInsuredBelowAge: number;
  readonly nursingCareAges: { from: number; to: number };
  readonly pensionInsuredBelowAge: number;
  /** Kyokai health and nursing-care rates by premium month. */
  readonly kyokai: PeriodTable<KyokaiPeriod>;
  /** Support-contribution percent by premium month; 0 before it was first collected. */
  readonly childSupport: PeriodTable<string>;
  /** Employees'-pension percent by premium month. */
  readonly pension: PeriodTable<string>;
  /** Employment-insurance rates by wage month (fiscal years). */
  readonly employment: PeriodTable<EmploymentPeriod>;
  private readonly businessKinds: Record<BusinessKind, string>;

  constructor() {
    const kyokai = loadDataFile<KyokaiFile>(KYOKAI_TABLE);
    const child = loadDataFile<ChildSupportFile>(CHILD_SUPPORT_TABLE);
    const pension = loadDataFile<PensionFile>(PENSION_TABLE);
    const employment = loadDataFile<EmploymentInsuranceFile>(EMPLOYMENT_INSURANCE_TABLE);
    this.provenance = {
      health: kyokai.provenance,
      child_support: child.provenance,
      pension: pension.provenance,
      employment_insurance: employment.provenance,
    };
    this.healthInsuredBelowAge = kyokai.insured_below_age;
    this.nursingCareAges = kyokai.nursing_care_ages;
    this.pensionInsuredBelowAge = pension.insured_below_age;
    this.businessKinds = employment.business_kinds;
    for (const p of kyokai.periods) {
      if (Object.keys(p.health_percent_by_prefecture).length !== 47) {
        throw new Error(`${KYOKAI_TABLE}: ${p.label} does not have a rate for each of the 47 prefectures`);
      }
    }
    if (child.periods[0]?.premium_months.from !== child.first_premium_month) {
      throw new Error(`${CHILD_SUPPORT_TABLE}: the first period must start at first_premium_month`);
    }
    this.kyokai = new PeriodTable(
      KYOKAI_TABLE,
      kyokai.periods.map((p) => ({ label: p.label, months: p.premium_months, value: p })),
    );
    // Before its first month the contribution did not exist: known to be zero, so a confirmed period.
    const notYet: Period<string> = {
      label: `before ${child.first_premium_month} (not yet collected)`,
      months: { from: null, to: addMonths(child.first_premium_month, -1) },
      value: '0',
    };
    this.childSupport = new PeriodTable(CHILD_SUPPORT_TABLE, [
      notYet,
      ...child.periods.map((p) => ({ label: p.label, months: p.premium_months, value: p.percent })),
    ]);
    this.pension = new PeriodTable(
      PENSION_TABLE,
      pension.periods.map((p) => ({ label: p.label, months: p.premium_months, value: p.percent })),
    );
    this.employment = new PeriodTable(
      EMPLOYMENT_INSURANCE_TABLE,
      employment.periods.map((p) => ({ label: p.label, months: p.wage_months, value: p })),
    );
  }

  /** Health and nursing-care rates of a premium month in a prefecture (JIS code). */
  healthRates(premiumMonth: YearMonth, prefCode: string): InForce<HealthRates> {
    const p = this.kyokai.at(premiumMonth);
    const health = p.value.health_percent_by_prefecture[prefCode];
    if (health === undefined) throw new Error(`no Kyokai rate for prefecture ${prefCode}`);
    return {
      ...p,
      value: {
        health: { units: percentToUnits(health), period: p.label },
        nursing_care: { units: percentToUnits(p.value.nursing_care_percent), period: p.label },
      },
    };
  }

  childSupportRate(premiumMonth: YearMonth): InForce<PeriodRate> {
    return asRate(this.childSupport.at(premiumMonth));
  }

  pensionRate(premiumMonth: YearMonth): InForce<PeriodRate> {
    return asRate(this.pension.at(premiumMonth));
  }

  /** Employment-insurance rates for wages of a month (by their closing date) and a business kind. */
  employmentInsuranceRates(wageMonth: YearMonth, kind: BusinessKind): InForce<EmploymentInsuranceRates> {
    const p = this.employment.at(wageMonth);
    const r = p.value.per_mille[kind];
    return {
      ...p,
      value: {
        business_kind: kind,
        business_kind_name: this.businessKinds[kind],
        worker: { units: perMilleToUnits(r.worker), period: p.label },
        employer_units: perMilleToUnits(r.employer),
        total_units: perMilleToUnits(r.total),
      },
    };
  }
}

function asRate(p: InForce<string>): InForce<PeriodRate> {
  return { ...p, value: { units: percentToUnits(p.value), period: p.label } };
}
