/**
 * Consumption tax rates and qualified-invoice-system phases by date, from data/tax. Date-keyed
 * so that an enacted change (e.g. a new food rate) is one more row, not new code.
 */
import { Lifecycle, scoped } from 'tsyringe';
import { loadDataFile, type TableProvenance } from '../shared/data-file';

export interface RateSplit {
  total_percent: number;
  national_percent: number;
  local_percent: number;
}

export interface RatePeriod {
  from: string;
  to: string | null;
  standard: RateSplit;
  reduced: (RateSplit & { applies_to: string }) | null;
  basis: string;
}

export interface InvoicePhase {
  from: string;
  to: string | null;
  phase: string;
  name_ja: string;
  description: string;
  qualified_invoice_required: boolean;
  /** Share of the deemed input tax creditable on purchases from non-registered businesses. */
  non_registered_purchase_credit_percent: number | null;
  basis: string;
  /**
   * The yearly cap on purchases from one non-registered supplier that can take the transitional
   * credit; it applies by the buyer's tax period (start date), not by the purchase date.
   */
  transitional_credit_cap: TransitionalCreditCap | null;
}

export interface TransitionalCreditCap {
  yearly_purchases_per_supplier_jpy: number;
  tax_periods_starting_from: string;
  basis: string;
  previous?: { yearly_purchases_per_supplier_jpy: number; tax_periods_starting_from: string };
}

interface ConsumptionTaxFile {
  rate_periods: RatePeriod[];
  invoice_phases: InvoicePhase[];
}

export const CONSUMPTION_TAX_TABLE = 'tax/consumption-tax.json';
/** The day consumption tax was introduced. */
export const CONSUMPTION_TAX_START = '1989-04-01';

function covering<T extends { from: string; to: string | null }>(
  rows: readonly T[],
  date: string,
): T | undefined {
  return rows.find((r) => r.from <= date && (r.to === null || date <= r.to));
}

@scoped(Lifecycle.ContainerScoped)
export class ConsumptionTaxTable {
  readonly provenance: TableProvenance;
  readonly ratePeriods: readonly RatePeriod[];
  readonly invoicePhases: readonly InvoicePhase[];

  constructor() {
    const file = loadDataFile<ConsumptionTaxFile>(CONSUMPTION_TAX_TABLE);
    this.provenance = file.provenance;
    this.ratePeriods = file.rate_periods;
    this.invoicePhases = file.invoice_phases;
  }

  /** The rates in force on a YYYY-MM-DD date; undefined before consumption tax existed. */
  ratesOn(date: string): RatePeriod | undefined {
    return covering(this.ratePeriods, date);
  }

  invoicePhaseOn(date: string): InvoicePhase | undefined {
    return covering(this.invoicePhases, date);
  }

  /** The transitional-credit steps of the qualified invoice system, in order. */
  transitionalSchedule(): InvoicePhase[] {
    return this.invoicePhases.filter((p) => p.non_registered_purchase_credit_percent !== null);
  }
}
