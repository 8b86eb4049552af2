import { injectable } from 'tsyringe';
import type { EndpointHandler, EndpointPayload, HandlerContext } from '../../core/plugins/contract';
import { isFlagOn } from '../../core/plugins/query-rules';
import { combinedProvenance, registryProvenance } from '../../domain/registry/answers';
import { CorporateRegistry } from '../../domain/registry/corporate-registry';
import { derivedTNumber } from '../../domain/registry/corporate-number';
import { InvoiceRegister, type RegistrationAnswer } from '../../domain/registry/invoice-register';
import type { RegistrySourceKind } from '../../domain/registry/registry-source';
import { candidateView, type CandidateView } from '../../domain/registry/views';
import type { InvoiceIssuerQuery } from './query';

export interface IssuerCandidate extends CandidateView {
  t_number: string;
  registration: RegistrationAnswer;
}

export interface InvoiceIssuerPayload extends EndpointPayload {
  query: { name: string; limit: number };
  count: number;
  candidates: IssuerCandidate[];
  registry_source: RegistrySourceKind;
  invoice_source: 'live' | 'snapshot';
  diagnostics?: { how: string[] };
}

@injectable()
export class InvoiceIssuerHandler implements EndpointHandler<InvoiceIssuerQuery, InvoiceIssuerPayload> {
  constructor(
    private readonly registry: CorporateRegistry,
    private readonly invoices: InvoiceRegister,
  ) {}

  async handle(query: InvoiceIssuerQuery, ctx: HandlerContext): Promise<InvoiceIssuerPayload> {
    const { source, candidates } = await this.registry.searchByName(query.name, undefined, query.limit);
    const tNumbers = candidates.map((c) => derivedTNumber(c.corporation.corporate_number));
    const registrations = await this.invoices.lookupMany(tNumbers, ctx.now);
    const payload: InvoiceIssuerPayload = {
      query: { name: query.name, limit: query.limit },
      count: candidates.length,
      candidates: candidates.map((c, i) => ({
        ...candidateView(c.match, c.corporation, source.sourceTag),
        t_number: tNumbers[i],
        registration: registrations.get(tNumbers[i])!,
      })),
      registry_source: source.kind,
      invoice_source: this.invoices.live ? 'live' : 'snapshot',
      _attribution: `${source.attribution}; invoice registrations: National Tax Agency qualified invoice issuer publication (適格請求書発行事業者公表サイト)`,
      _provenance: combinedProvenance(
        await registryProvenance(
          source,
          ctx.now,
          candidates.map((c) => c.corporation.corporate_number),
        ),
        this.invoices.provenance(ctx.now),
      ),
    };
    if (isFlagOn(query.verbose)) {
      payload.diagnostics = {
        how: [
          'Candidates come from the corporate registry by name (five modes, ranked by match_reliability).',
          "A corporation's registration number, if it registered, is T + its corporate number (t_number).",
          this.invoices.live
            ? 'Each t_number was checked against the NTA invoice-issuer Web-API (confirmed: true).'
            : 'Each t_number was checked against the dated list of confirmed registrations; any other is derived only (confirmed: false, status not_checked). Set NTA_INVOICE_APP_ID to check the register.',
        ],
      };
    }
    return payload;
  }
}
