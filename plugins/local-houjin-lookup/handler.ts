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
import { RELIABILITY_SCALE, type MatchMode } from '../../domain/registry/search/reliability';
import {
  candidateView,
  normalizedNameView,
  type CandidateView,
  type NormalizedNameView,
} from '../../domain/registry/answers/views';
import type { Prefecture } from '../../domain/shared/prefectures';
import type { HoujinLookupQuery } from './query';

export interface HoujinLookupPayload extends EndpointPayload {
  query: { name: string; pref: Prefecture | null; limit: number };
  count: number;
  has_more: PageLinks['has_more'];
  next_cursor: PageLinks['next_cursor'];
  candidates: Array<CandidateView & { edinet: EdinetView | null }>;
  diagnostics?: {
    normalized: NormalizedNameView;
    found_by_mode: Record<MatchMode, number>;
    reliability_scale: typeof RELIABILITY_SCALE;
  };
}

@injectable()
export class HoujinLookupHandler implements EndpointHandler<HoujinLookupQuery, HoujinLookupPayload> {
  constructor(private readonly registry: CorporateRegistry) {}

  handle(query: HoujinLookupQuery, ctx: HandlerContext): Promise<HoujinLookupPayload> {
    return answering(ctx.log, () => this.answer(query, ctx));
  }

  coverage(now: Date): DataCoverage {
    return this.registry.coverage(now);
  }

  private async answer(query: HoujinLookupQuery, ctx: HandlerContext): Promise<HoujinLookupPayload> {
    const scope = pageScope('local-houjin-lookup', { name: query.name, pref: query.pref ?? null });
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
    const payload: HoujinLookupPayload = {
      query: { name: query.name, pref: pref ?? null, limit: query.limit },
      count: candidates.length,
      ...pageLinks(scope, skip, numbers, found.more),
      candidates: candidates.map((c) => ({
        ...candidateView(c.match, c.corporation, source.sourceTag),
        edinet: edinet.of(c.corporation.corporate_number),
      })),
      _attribution: source.attribution,
      _provenance: edinet.addTo(await this.registry.provenance(source, ctx.now, numbers, found), numbers),
    };
    if (query.verbose === true) {
      payload.diagnostics = {
        normalized: normalizedNameView(report.query),
        found_by_mode: report.found,
        reliability_scale: RELIABILITY_SCALE,
      };
    }
    return payload;
  }
}
