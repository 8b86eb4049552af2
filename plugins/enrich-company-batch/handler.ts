import { injectable } from 'tsyringe';
import type {
  DataCoverage,
  EndpointHandler,
  EndpointPayload,
  HandlerContext,
} from '../../core/plugins/contract';
import { answering } from '../../domain/registry/answers/answers';
import { CorporateRegistry } from '../../domain/registry/sources/corporate-registry';
import { normalizeName } from '../../domain/registry/search/normalize';
import type { NameSearchResult } from '../../domain/registry/sources/registry-source';
import { candidateView, type CandidateView } from '../../domain/registry/answers/views';
import type { EdinetView } from '../../domain/registry/answers/edinet-answers';
import { splitNames, type CompanyBatchQuery } from './query';

export interface BatchResult {
  /** The name of the request this result answers. */
  name: string;
  best: (CandidateView & { edinet: EdinetView | null }) | null;
  /** Corporations found in all for this name (before keeping the best). */
  total_matched: number;
  note?: string;
}

export interface CompanyBatchPayload extends EndpointPayload {
  count: number;
  resolved: number;
  results: BatchResult[];
}

@injectable()
export class CompanyBatchHandler implements EndpointHandler<CompanyBatchQuery, CompanyBatchPayload> {
  constructor(private readonly registry: CorporateRegistry) {}

  handle(query: CompanyBatchQuery, ctx: HandlerContext): Promise<CompanyBatchPayload> {
    return answering(ctx.log, () => this.answer(query, ctx));
  }

  coverage(now: Date): DataCoverage {
    return this.registry.coverage(now);
  }

  private async answer(query: CompanyBatchQuery, ctx: HandlerContext): Promise<CompanyBatchPayload> {
    const source = await this.registry.source();
    const results: BatchResult[] = [];
    // The live name search reads one page per name: the answer reports the least complete one.
    let leastComplete: NameSearchResult | undefined;
    for (const name of splitNames(query.names)) {
      if (normalizeName(name).key === '') {
        results.push({
          name,
          best: null,
          total_matched: 0,
          note: 'only a legal form: nothing to search for',
        });
        continue;
      }
      const found = await source.searchByName(name, {}, 1);
      const { report, candidates } = found;
      if (found.pages && (!leastComplete?.pages || found.pages.total > leastComplete.pages.total))
        leastComplete = found;
      const top = candidates[0];
      results.push({
        name,
        best: top ? { ...candidateView(top.match, top.corporation, source.sourceTag), edinet: null } : null,
        total_matched: report.matches.length,
      });
    }
    const numbers = results.flatMap((r) => (r.best ? [r.best.corporate_number_hint] : []));
    // One lookup for every name's best candidate.
    const edinet = await this.registry.edinet(numbers);
    for (const r of results) if (r.best) r.best.edinet = edinet.of(r.best.corporate_number_hint);
    return {
      count: results.length,
      resolved: numbers.length,
      results,
      _attribution: source.attribution,
      _provenance: edinet.addTo(
        await this.registry.provenance(source, ctx.now, numbers, leastComplete),
        numbers,
      ),
    };
  }
}
