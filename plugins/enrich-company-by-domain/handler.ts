import { injectable } from 'tsyringe';
import type { EndpointHandler, EndpointPayload, HandlerContext } from '../../core/plugins/contract';
import { registryProvenance } from '../../domain/registry/answers';
import { CorporateRegistry } from '../../domain/registry/corporate-registry';
import { lookupDomain, type DomainCandidate } from '../../domain/registry/domain-lookup';
import { DomainMap, parseHost, type ParsedHost } from '../../domain/registry/domain-map';
import type { RegistrySourceKind } from '../../domain/registry/registry-source';
import type { CompanyByDomainQuery } from './query';

/** Candidates answered at most. */
const CANDIDATES = 5;

export interface CompanyByDomainPayload extends EndpointPayload {
  input: string;
  host: ParsedHost;
  count: number;
  candidates: DomainCandidate[];
  source: RegistrySourceKind;
}

@injectable()
export class CompanyByDomainHandler implements EndpointHandler<CompanyByDomainQuery, CompanyByDomainPayload> {
  constructor(
    private readonly registry: CorporateRegistry,
    private readonly domains: DomainMap,
  ) {}

  async handle(query: CompanyByDomainQuery, ctx: HandlerContext): Promise<CompanyByDomainPayload> {
    const host = parseHost(query.domain)!;
    const source = await this.registry.source();
    const candidates = await lookupDomain(host, source, this.domains, CANDIDATES);
    const provenance = await registryProvenance(
      source,
      ctx.now,
      candidates.map((c) => c.corporate_number),
    );
    const mapSources = candidates.some((c) => c.match_mode === 'domain_map')
      ? this.domains.provenance.sources
      : [];
    return {
      input: query.domain,
      host,
      count: candidates.length,
      candidates,
      source: source.kind,
      _attribution: `${source.attribution}; domain owners from the public sources of the domain map`,
      _provenance: {
        ...provenance,
        sources: [
          ...provenance.sources,
          ...mapSources.map((s) => ({ name: s.name, ...(s.url ? { url: s.url } : {}) })),
        ],
        notes: [
          ...(provenance.notes ?? []),
          'domain_map: the domain is in data/registry/domains.json with a source naming its operator; domain_label: the domain label matched an English name, a romaji reading, an alias or a name (reliability x 0.85).',
        ],
      },
    };
  }
}
