import { decodeCursor, pageLinks, pageScope, type PageLinks } from '../../core/plugins/page-cursor';
import { injectable } from 'tsyringe';
import type {
  DataCoverage,
  EndpointHandler,
  EndpointPayload,
  HandlerContext,
} from '../../core/plugins/contract';
import { answering, combinedProvenance } from '../../domain/registry/answers/answers';
import { CorporateRegistry } from '../../domain/registry/sources/corporate-registry';
import { derivedTNumber } from '../../domain/registry/corporate-number';
import { InvoiceRegister, type RegistrationAnswer } from '../../domain/registry/sources/invoice-register';
import { candidateView, type CandidateView } from '../../domain/registry/answers/views';
import type { InvoiceIssuerQuery } from './query';

export interface IssuerCandidate extends CandidateView {
  /** The registration of t_number_if_registered; its basis says where it was read. */
  registration: RegistrationAnswer;
}

export interface InvoiceIssuerPayload extends EndpointPayload {
  query: { name: string; limit: number; as_of?: string };
  count: number;
  has_more: PageLinks['has_more'];
  next_cursor: PageLinks['next_cursor'];
  candidates: IssuerCandidate[];
  diagnostics?: { rules: string[] };
}

@injectable()
export class InvoiceIssuerHandler implements EndpointHandler<InvoiceIssuerQuery, InvoiceIssuerPayload> {
  constructor(
    private readonly registry: CorporateRegistry,
    private readonly invoices: InvoiceRegister,
  ) {}

  handle(query: InvoiceIssuerQuery, ctx: HandlerContext): Promise<InvoiceIssuerPayload> {
    return answering(ctx.log, () => this.answer(query, ctx));
  }

  /** Candidates come from the registry's name search: it decides what an answer holds. */
  coverage(now: Date): DataCoverage {
    return this.registry.coverage(now);
  }

  private async answer(query: InvoiceIssuerQuery, ctx: HandlerContext): Promise<InvoiceIssuerPayload> {
    const scope = pageScope('local-invoice-issuer', { name: query.name });
    const skip = decodeCursor(scope, query.cursor);
    const { source, candidates, found } = await this.registry.searchByName(
      query.name,
      undefined,
      query.limit,
      {
        skip,
      },
    );
    const tNumbers = candidates.map((c) => derivedTNumber(c.corporation.corporate_number));
    const registrations = await this.invoices.lookupMany(tNumbers, ctx.now, ctx.log, query.as_of);
    const payload: InvoiceIssuerPayload = {
      query: { name: query.name, limit: query.limit, ...(query.as_of ? { as_of: query.as_of } : {}) },
      count: candidates.length,
      ...pageLinks(
        scope,
        skip,
        candidates.map((c) => c.corporation.corporate_number),
        found.more,
      ),
      candidates: candidates.map((c, i) => ({
        ...candidateView(c.match, c.corporation, source.sourceTag),
        registration: registrations.get(tNumbers[i])!,
      })),
      _attribution: `${source.attribution}; invoice registrations: National Tax Agency qualified invoice issuer publication (適格請求書発行事業者公表サイト)`,
      _provenance: combinedProvenance(
        await this.registry.provenance(
          source,
          ctx.now,
          candidates.map((c) => c.corporation.corporate_number),
          found,
        ),
        this.invoices.provenance(ctx.now, [...registrations.values()]),
        'registry',
      ),
    };
    if (query.verbose === true) {
      payload.diagnostics = {
        rules: [
          'Candidates come from the corporate registry by name (five modes, ranked by match_reliability).',
          "A corporation's registration number, if it registered, is T + its corporate number (t_number_if_registered).",
          this.invoices.live
            ? 'Each t_number_if_registered was checked against the NTA invoice-issuer Web-API (confirmed: true).'
            : 'Not confirmed against the live register: each t_number_if_registered was looked up in a dated list of registrations seen in public copies of NTA register data (status registered, confirmed: false); any other is derived only (status not_checked, confirmed: false). registration.reason says which.',
        ],
      };
    }
    return payload;
  }
}
