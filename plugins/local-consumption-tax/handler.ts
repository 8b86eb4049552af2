import { injectable } from 'tsyringe';
import type {
  DataCoverage,
  EndpointHandler,
  EndpointPayload,
  HandlerContext,
} from '../../core/plugins/contract';
import { snapshotProvenance } from '../../domain/shared/data-file';
import { tokyoDate } from '../../domain/shared/tokyo-time';
import {
  CONSUMPTION_TAX_START,
  ConsumptionTaxTable,
  type InvoicePhase,
  type RatePeriod,
  type RateSplit,
  type TransitionalCreditCap,
} from '../../domain/tax/consumption-tax';
import type { ConsumptionTaxQuery } from './query';

/** The invoice-system phase in force: the same fields as each history.invoice_phases entry. */
interface InvoiceSystemView {
  phase: string;
  name_ja: string;
  description: string;
  qualified_invoice_required: boolean;
  non_registered_purchase_credit_percent: number | null;
  from: string;
  to: string | null;
  basis: string;
  transitional_credit_cap: TransitionalCreditCap | null;
}

/** A rate period of the history, named as the rates in force are (standard_rate, reduced_rate). */
interface RatePeriodView {
  from: string;
  to: string | null;
  standard_rate: RateSplit;
  reduced_rate: (RateSplit & { applies_to: string }) | null;
  basis: string;
}

function ratePeriodView(p: RatePeriod): RatePeriodView {
  return { from: p.from, to: p.to, standard_rate: p.standard, reduced_rate: p.reduced, basis: p.basis };
}

export interface ConsumptionTaxPayload extends EndpointPayload {
  date: string;
  date_source: 'query' | 'default_today_asia_tokyo';
  consumption_tax_applies: boolean;
  standard_rate: RateSplit | null;
  reduced_rate: (RateSplit & { applies_to: string }) | null;
  rate_period: { from: string | null; to: string | null; basis: string };
  invoice_system: InvoiceSystemView | null;
  note?: string;
  history?: { rate_periods: RatePeriodView[]; invoice_phases: readonly InvoicePhase[] };
}

@injectable()
export class ConsumptionTaxHandler implements EndpointHandler<ConsumptionTaxQuery, ConsumptionTaxPayload> {
  constructor(private readonly table: ConsumptionTaxTable) {}

  coverage(): DataCoverage {
    return {
      kind: 'snapshot',
      as_of: this.table.provenance.as_of,
      summary: `Consumption-tax rates since 1989 and the qualified-invoice transitional credit schedule as enacted, as of ${this.table.provenance.as_of}; a later amendment is not in it until the table is updated.`,
    };
  }

  handle(query: ConsumptionTaxQuery, ctx: HandlerContext): ConsumptionTaxPayload {
    const date = query.date ?? tokyoDate(ctx.now).iso;
    const rates = this.table.ratesOn(date);
    const phase = this.table.invoicePhaseOn(date);
    const base = {
      date,
      date_source: query.date === undefined ? ('default_today_asia_tokyo' as const) : ('query' as const),
    };
    const tail = {
      ...(query.verbose
        ? {
            history: {
              rate_periods: this.table.ratePeriods.map(ratePeriodView),
              invoice_phases: this.table.invoicePhases,
            },
          }
        : {}),
      _attribution:
        'National Tax Agency (国税庁) and the Consumption Tax Act / Local Tax Act, as summarised in the sources listed',
      _provenance: snapshotProvenance(this.table.provenance),
    };
    if (!rates) {
      return {
        ...base,
        consumption_tax_applies: false,
        standard_rate: null,
        reduced_rate: null,
        rate_period: {
          from: null,
          to: dayBefore(CONSUMPTION_TAX_START),
          basis: 'Before the introduction of consumption tax',
        },
        invoice_system: null,
        note: `No consumption tax applied on ${date}: it was introduced on ${CONSUMPTION_TAX_START} at 3%.`,
        ...tail,
      };
    }
    return {
      ...base,
      consumption_tax_applies: true,
      standard_rate: rates.standard,
      reduced_rate: rates.reduced,
      rate_period: { from: rates.from, to: rates.to, basis: rates.basis },
      invoice_system: phase
        ? {
            phase: phase.phase,
            name_ja: phase.name_ja,
            description: phase.description,
            qualified_invoice_required: phase.qualified_invoice_required,
            non_registered_purchase_credit_percent: phase.non_registered_purchase_credit_percent,
            from: phase.from,
            to: phase.to,
            basis: phase.basis,
            transitional_credit_cap: phase.transitional_credit_cap,
          }
        : null,
      ...tail,
    };
  }
}

function dayBefore(isoDate: string): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}
