import { decodeCursor, pageLinks, pageScope, type PageLinks } from '../../core/plugins/page-cursor';
import { injectable } from 'tsyringe';
import type {
  DataCoverage,
  EndpointHandler,
  EndpointPayload,
  HandlerContext,
} from '../../core/plugins/contract';
import { answering } from '../../domain/registry/answers/answers';
import { CorporateRegistry } from '../../domain/registry/sources/corporate-registry';
import type { EdinetView } from '../../domain/registry/answers/edinet-answers';
import type { MatchMode } from '../../domain/registry/search/reliability';
import { candidateView, type CandidateView } from '../../domain/registry/answers/views';
import type { Prefecture } from '../../domain/shared/prefectures';
import type { CompanyByNameQuery } from './query';

export interface CompanyByNameCandidate extends CandidateView {
  edinet: EdinetView | null;
}

export interface CompanyByNamePayload extends EndpointPayload {
  query: { name: string; search_key: string; pref: Prefecture | null; limit: number };
  count: number;
  has_more: PageLinks['has_more'];
  next_cursor: PageLinks['next_cursor'];
  candidates: CompanyByNameCandidate[];
  found_by_mode: Record<MatchMode, number>;
}

@injectable()
export class CompanyByNameHandler implements EndpointHandler<CompanyByNameQuery, CompanyByNamePayload> {
  constructor(private readonly registry: CorporateRegistry) {}

  handle(query: CompanyByNameQuery, ctx: HandlerContext): Promise<CompanyByNamePayload> {
    return answering(ctx.log, () => this.answer(query, ctx));
  }

  coverage(now: Date): DataCoverage {
    return this.registry.coverage(now);
  }

  private async answer(query: CompanyByNameQuery, ctx: HandlerContext): Promise<CompanyByNamePayload> {
    const scope = pageScope('enrich-company-by-name', { name: query.name, pref: query.pref ?? null });
    const skip = decodeCursor(scope, query.cursor);
    const {
      source,
      prefecture: pref,
      report,
      candidates,
      found,
    } = await this.registry.searchByName(query.name, query.pref, query.limit, { skip });
    const numbers = candidates.map((c) => c.corporation.corporate_number);
    const edinet = await this.registry.edinet(numbers);
    return {
      query: { name: query.name, search_key: report.query.key, pref: pref ?? null, limit: query.limit },
      count: candidates.length,
      ...pageLinks(scope, skip, numbers, found.more),
      candidates: candidates.map((c) => ({
        ...candidateView(c.match, c.corporation, source.sourceTag),
        edinet: edinet.of(c.corporation.corporate_number),
      })),
      found_by_mode: report.found,
      _attribution: source.attribution,
      _provenance: edinet.addTo(await this.registry.provenance(source, ctx.now, numbers, found), numbers),
    };
  }
}
