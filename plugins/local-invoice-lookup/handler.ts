import { injectable } from 'tsyringe';
import type {
  DataCoverage,
  EndpointHandler,
  EndpointPayload,
  HandlerContext,
} from '../../core/plugins/contract';
import { SourceUnavailableError } from '../../core/plugins/errors';
import { answering, combinedProvenance, logUnavailable } from '../../domain/registry/answers/answers';
import { CorporateRegistry } from '../../domain/registry/sources/corporate-registry';
import {
  checkDigitOf,
  isValidCorporateNumber,
  parseRegistrationNumber,
} from '../../domain/registry/corporate-number';
import type { Corporation } from '../../domain/registry/corporation';
import { kindLabel, type CodeLabel } from '../../domain/registry/corporation';
import { InvoiceRegister, type RegistrationAnswer } from '../../domain/registry/sources/invoice-register';
import { closureView, type ClosureView } from '../../domain/registry/answers/views';
import type { InvoiceLookupQuery } from './query';

export interface InvoiceLookupPayload extends EndpointPayload {
  registration_number: string;
  query: { number: string; had_t_prefix: boolean; as_of?: string };
  registration: RegistrationAnswer;
  corporate_number_check: {
    /** The 13 digits of the registration number, read as a corporate number. */
    corporate_number: string;
    check_digit_valid: boolean;
    expected_check_digit: number;
    /**
     * individual: the register says a sole proprietor holds it (no corporate number); corporation:
     * a valid corporate number; not_a_corporate_number: the digits fail the check digit.
     */
    holder: 'individual' | 'corporation' | 'not_a_corporate_number';
  };
  corporation: {
    corporate_number: string;
    legal_name: string;
    kind: CodeLabel | null;
    status: Corporation['status'];
    closure: ClosureView;
    _source: string;
  } | null;
  registry_cross_check: 'found' | 'not_found' | 'not_applicable' | 'unavailable';
  notes: string[];
}

@injectable()
export class InvoiceLookupHandler implements EndpointHandler<InvoiceLookupQuery, InvoiceLookupPayload> {
  constructor(
    private readonly registry: CorporateRegistry,
    private readonly invoices: InvoiceRegister,
  ) {}

  handle(query: InvoiceLookupQuery, ctx: HandlerContext): Promise<InvoiceLookupPayload> {
    return answering(ctx.log, () => this.answer(query, ctx));
  }

  /** The registration is decided by the invoice register; the registry is only a cross-check. */
  coverage(now: Date): DataCoverage {
    return this.invoices.coverage(now);
  }

  private async answer(query: InvoiceLookupQuery, ctx: HandlerContext): Promise<InvoiceLookupPayload> {
    const parsed = parseRegistrationNumber(query.number)!;
    const validCorporate = isValidCorporateNumber(parsed.digits);
    const registration = (
      await this.invoices.lookupMany([parsed.tNumber], ctx.now, ctx.log, query.as_of)
    ).get(parsed.tNumber)!;
    const individual = registration.registrant_kind === 'individual';
    const notes: string[] = [];
    let corporation: Corporation | null = null;
    let crossCheck: InvoiceLookupPayload['registry_cross_check'] = 'not_applicable';
    let registryProv;
    let registrySource: string | null = null;
    if (individual) {
      notes.push(
        'The register says a sole proprietor holds this registration: an individual has no corporate number, so the corporate registry was not consulted.',
      );
    } else if (validCorporate) {
      try {
        const source = await this.registry.source();
        registrySource = source.sourceTag;
        corporation = await source.getByNumber(parsed.digits);
        crossCheck = corporation ? 'found' : 'not_found';
        registryProv = await this.registry.provenance(source, ctx.now, corporation ? [parsed.digits] : []);
      } catch (err) {
        if (!(err instanceof SourceUnavailableError)) throw err;
        logUnavailable(ctx.log, err);
        crossCheck = 'unavailable';
        notes.push(`The corporate registry could not be reached for the cross-check: ${err.message}`);
      }
    } else {
      notes.push(
        'The 13 digits fail the corporate-number check digit: this is not a corporation’s number (registration numbers of sole proprietors and other non-corporations are assigned separately).',
      );
    }
    if (corporation && corporation.status !== 'active') {
      notes.push(
        `The corporation is ${corporation.status} (${corporation.close_date || 'date not given'}); a registration ends with it.`,
      );
    }
    if (registration.reason) notes.push(`Registration ${registration.reason}`);
    if (registration.on_date) notes.push(`On ${registration.on_date.date}: ${registration.on_date.note}`);
    const invoiceProv = this.invoices.provenance(ctx.now, [registration]);
    return {
      registration_number: parsed.tNumber,
      query: {
        number: query.number,
        had_t_prefix: parsed.hadPrefix,
        ...(query.as_of ? { as_of: query.as_of } : {}),
      },
      registration,
      corporate_number_check: {
        corporate_number: parsed.digits,
        check_digit_valid: validCorporate,
        expected_check_digit: checkDigitOf(parsed.digits.slice(1)),
        holder: individual ? 'individual' : validCorporate ? 'corporation' : 'not_a_corporate_number',
      },
      corporation:
        corporation && registrySource
          ? {
              corporate_number: corporation.corporate_number,
              legal_name: corporation.name,
              kind: kindLabel(corporation.kind),
              status: corporation.status,
              closure: closureView(corporation),
              _source: registrySource,
            }
          : null,
      registry_cross_check: crossCheck,
      notes,
      _attribution:
        'National Tax Agency qualified invoice issuer publication (適格請求書発行事業者公表サイト) and corporate-number data (国税庁法人番号公表サイト)',
      _provenance: registryProv ? combinedProvenance(registryProv, invoiceProv, 'invoice') : invoiceProv,
    };
  }
}
