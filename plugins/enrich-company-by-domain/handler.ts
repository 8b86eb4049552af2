import { injectable } from 'tsyringe';
import type {
  DataCoverage,
  EndpointHandler,
  EndpointPayload,
  HandlerContext,
  SourceRef,
} from '../../core/plugins/contract';
import { answering } from '../../domain/registry/answers/answers';
import { CorporateRegistry } from '../../domain/registry/sources/corporate-registry';
import { lookupDomain, type DomainCandidate } from '../../domain/registry/sources/domain-lookup';
import { DomainMap, parseHost, type ParsedHost } from '../../domain/registry/sources/domain-map';
import type { EdinetView } from '../../domain/registry/answers/edinet-answers';
import type { CompanyByDomainQuery } from './query';

/** Candidates answered at most. */
const CANDIDATES = 5;

export interface CompanyByDomainPayload extends EndpointPayload {
  query: { domain: string };
  host: ParsedHost;
  count: number;
  candidates: Array<DomainCandidate & { edinet: EdinetView | null }>;
}

const ref = (s: SourceRef): SourceRef => ({ name: s.name, ...(s.url ? { url: s.url } : {}) });

function unique(refs: SourceRef[]): SourceRef[] {
  return [...new Map(refs.map((s) => [`${s.name}|${s.url ?? ''}`, ref(s)])).values()];
}

@injectable()
export class CompanyByDomainHandler implements EndpointHandler<CompanyByDomainQuery, CompanyByDomainPayload> {
  constructor(
    private readonly registry: CorporateRegistry,
    private readonly domains: DomainMap,
  ) {}

  handle(query: CompanyByDomainQuery, ctx: HandlerContext): Promise<CompanyByDomainPayload> {
    return answering(ctx.log, () => this.answer(query, ctx));
  }

  /** Label matches search the registry; the short domain map only adds known operators. */
  coverage(now: Date): DataCoverage {
    return this.registry.coverage(now);
  }

  private async answer(query: CompanyByDomainQuery, ctx: HandlerContext): Promise<CompanyByDomainPayload> {
    const host = parseHost(query.domain)!;
    const source = await this.registry.source();
    const { candidates, found } = await lookupDomain(host, source, this.domains, CANDIDATES);
    const numbers = candidates.map((c) => c.corporate_number_hint);
    const edinet = await this.registry.edinet(numbers);
    const provenance = edinet.addTo(await this.registry.provenance(source, ctx.now, numbers, found), numbers);
    const mapped = candidates.filter((c) => c.match_mode === 'domain_map');
    const mapSources = mapped.flatMap((c) => c.domain_sources ?? []);
    const mapChecks = mapped.flatMap((c) => c.domain_cross_checked_against ?? []);
    const checks = unique([...(provenance.cross_checked_against ?? []), ...mapChecks]);
    return {
      query: { domain: query.domain },
      host,
      count: candidates.length,
      candidates: candidates.map((c) => ({ ...c, edinet: edinet.of(c.corporate_number_hint) })),
      _attribution: `${source.attribution}; domain operators from the documents listed with each domain_map candidate`,
      _provenance: {
        ...provenance,
        sources: unique([...provenance.sources, ...mapSources]),
        ...(checks.length > 0 ? { cross_checked_against: checks } : {}),
        notes: [
          ...(provenance.notes ?? []),
          this.domains.searched().note,
          'domain_map: the domain (or a parent domain) is in the domain map with a document naming its operator; domain_label: the domain label matched an English name, a romaji reading, an alias or a name (reliability x 0.85).',
        ],
      },
    };
  }
}
