import { injectable } from 'tsyringe';
import { corporationAsOf, type StateAsOfView } from '../../domain/registry/answers/history';
import type {
  DataCoverage,
  EndpointHandler,
  EndpointPayload,
  HandlerContext,
} from '../../core/plugins/contract';
import { NotFoundError } from '../../core/plugins/errors';
import { answering, combinedProvenance } from '../../domain/registry/answers/answers';
import { CorporateRegistry } from '../../domain/registry/sources/corporate-registry';
import { derivedTNumber } from '../../domain/registry/corporate-number';
import type { EdinetView } from '../../domain/registry/answers/edinet-answers';
import { InvoiceRegister, type RegistrationAnswer } from '../../domain/registry/sources/invoice-register';
import { normalizeName, type LegalFormMatch } from '../../domain/registry/search/normalize';
import {
  corporationView,
  formerNamesView,
  type CorporationView,
  type FormerNameView,
} from '../../domain/registry/answers/views';
import type { CompanyByNumberQuery } from './query';

export interface CompanyByNumberPayload extends EndpointPayload {
  corporate_number: string;
  corporation: CorporationView;
  names: {
    legal_name: string;
    name_without_legal_form: string;
    legal_form: LegalFormMatch | null;
    furigana: string | null;
    legal_name_en: string | null;
    former_names: FormerNameView[];
  };
  /** The invoice registration of T + the corporate number (its basis says where it was read). */
  registration: RegistrationAnswer;
  /** The corporation in the FSA's EDINET code list; null when it is not a filer there. */
  edinet: EdinetView | null;
  /** With as_of: the date, since when the state answered held, how much history is held. */
  state_as_of?: StateAsOfView;
}

@injectable()
export class CompanyByNumberHandler implements EndpointHandler<CompanyByNumberQuery, CompanyByNumberPayload> {
  constructor(
    private readonly registry: CorporateRegistry,
    private readonly invoices: InvoiceRegister,
  ) {}

  handle(query: CompanyByNumberQuery, ctx: HandlerContext): Promise<CompanyByNumberPayload> {
    return answering(ctx.log, () => this.answer(query, ctx));
  }

  /** The corporation is looked up in the registry (a miss is 404); the register adds a status. */
  coverage(now: Date): DataCoverage {
    return this.registry.coverage(now);
  }

  private async answer(query: CompanyByNumberQuery, ctx: HandlerContext): Promise<CompanyByNumberPayload> {
    const source = await this.registry.source();
    const current = await source.getByNumber(query.number);
    if (!current || current.status === 'deleted') {
      const { searched } = await this.registry.provenance(source, ctx.now);
      throw new NotFoundError(
        'corporate_number_not_found',
        `No corporation with number ${query.number} in the ${source.kind === 'snapshot' ? 'registry snapshot' : source.kind === 'store' ? 'imported register' : 'NTA register'}.`,
        'The check digit is valid; check the digits against the source document, or find the company with a search by its name.',
        { corporate_number: query.number, _source: source.sourceTag, searched },
      );
    }
    const asOf = query.as_of
      ? corporationAsOf(
          current,
          (await this.registry.history(source, current)).held,
          query.as_of,
          source.sourceTag,
        )
      : null;
    const corporation = asOf?.corporation ?? current;
    const tNumber = derivedTNumber(query.number);
    const registration = (await this.invoices.lookupMany([tNumber], ctx.now, ctx.log)).get(tNumber)!;
    const n = normalizeName(corporation.name);
    const edinet = await this.registry.edinet([query.number]);
    return {
      corporate_number: query.number,
      corporation: corporationView(corporation, source.sourceTag),
      names: {
        legal_name: corporation.name,
        name_without_legal_form: n.core_as_written,
        legal_form: n.legal_form,
        furigana: corporation.furigana || null,
        legal_name_en: corporation.en_name || null,
        former_names: formerNamesView(corporation),
      },
      registration,
      edinet: edinet.of(query.number),
      ...(asOf ? { state_as_of: asOf.state_as_of } : {}),
      _attribution: `${source.attribution}; invoice registration: National Tax Agency qualified invoice issuer publication`,
      _provenance: combinedProvenance(
        edinet.addTo(await this.registry.provenance(source, ctx.now, [query.number]), [query.number]),
        this.invoices.provenance(ctx.now, [registration]),
        'registry',
      ),
    };
  }
}
