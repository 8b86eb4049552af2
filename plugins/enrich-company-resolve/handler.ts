import { injectable } from 'tsyringe';
import type {
  DataCoverage,
  DataProvenance,
  EndpointHandler,
  EndpointPayload,
  HandlerContext,
} from '../../core/plugins/contract';
import { InvalidQueryError } from '../../core/plugins/errors';
import { answering, combinedProvenance, requireSearchableName } from '../../domain/registry/answers/answers';
import { CorporateRegistry } from '../../domain/registry/sources/corporate-registry';
import { derivedTNumber, isValidCorporateNumber } from '../../domain/registry/corporate-number';
import type { Corporation } from '../../domain/registry/corporation';
import { CHECK_DIGIT_ACCEPTED } from '../../domain/registry/dto-rules';
import { lookupDomain } from '../../domain/registry/sources/domain-lookup';
import { DomainMap } from '../../domain/registry/sources/domain-map';
import type { EdinetView } from '../../domain/registry/answers/edinet-answers';
import { InvoiceRegister, type RegistrationAnswer } from '../../domain/registry/sources/invoice-register';
import type { NameSearchResult, RegistrySource } from '../../domain/registry/sources/registry-source';
import { candidateView, shortAddressView, type ShortAddressView } from '../../domain/registry/answers/views';
import type { CompanyResolveQuery } from './query';
import { detect } from './detect';

/** Alternates answered besides the best candidate. */
const ALTERNATES = 4;

export interface ResolveCandidate {
  corporate_number_hint: string;
  legal_name: string;
  furigana: string | null;
  legal_name_en: string | null;
  status: Corporation['status'];
  address: ShortAddressView;
  match_mode: string;
  match_reliability: number;
  match_reliability_label: 'high' | 'medium' | 'low';
  t_number_if_registered: string;
  _source: string;
  /** The corporation in the FSA's EDINET code list; null when it is not a filer there. */
  edinet: EdinetView | null;
}

export interface ResolvePayload extends EndpointPayload {
  query: { q: string };
  detected_as: 'corporate_number' | 'registration_number' | 'domain' | 'name';
  best: ResolveCandidate | null;
  alternates: ResolveCandidate[];
  registration?: RegistrationAnswer;
  notes: string[];
}

function byNumberCandidate(c: Corporation, mode: string, source: RegistrySource): ResolveCandidate {
  return {
    corporate_number_hint: c.corporate_number,
    legal_name: c.name,
    furigana: c.furigana || null,
    legal_name_en: c.en_name || null,
    status: c.status,
    address: shortAddressView(c),
    match_mode: mode,
    // Identified by its own number: no ambiguity left.
    match_reliability: 1,
    match_reliability_label: 'high',
    t_number_if_registered: derivedTNumber(c.corporate_number),
    _source: source.sourceTag,
    edinet: null,
  };
}

function slim(v: Omit<ResolveCandidate, 'edinet'>): ResolveCandidate {
  return {
    corporate_number_hint: v.corporate_number_hint,
    legal_name: v.legal_name,
    furigana: v.furigana,
    legal_name_en: v.legal_name_en,
    status: v.status,
    address: v.address,
    match_mode: v.match_mode,
    match_reliability: v.match_reliability,
    match_reliability_label: v.match_reliability_label,
    t_number_if_registered: v.t_number_if_registered,
    _source: v._source,
    edinet: null,
  };
}

@injectable()
export class CompanyResolveHandler implements EndpointHandler<CompanyResolveQuery, ResolvePayload> {
  constructor(
    private readonly registry: CorporateRegistry,
    private readonly domains: DomainMap,
    private readonly invoices: InvoiceRegister,
  ) {}

  handle(query: CompanyResolveQuery, ctx: HandlerContext): Promise<ResolvePayload> {
    return answering(ctx.log, () => this.answer(query, ctx));
  }

  /** Every kind of input resolves to a corporation of the registry: it decides the answer. */
  coverage(now: Date): DataCoverage {
    return this.registry.coverage(now);
  }

  private async answer(query: CompanyResolveQuery, ctx: HandlerContext): Promise<ResolvePayload> {
    const d = detect(query.q);
    const source = await this.registry.source();
    const notes: string[] = [];
    let ranked: ResolveCandidate[] = [];
    let found: NameSearchResult | undefined;
    let registration: RegistrationAnswer | undefined;
    let invoiceProvenance: DataProvenance | undefined;
    if (d.as === 'corporate_number' || d.as === 'registration_number') {
      const valid = isValidCorporateNumber(d.digits);
      if (d.as === 'corporate_number' && !valid) {
        throw new InvalidQueryError(
          'q',
          'check_digit_mismatch',
          'q looks like a corporate number but its first digit is not the check digit of the other twelve',
          CHECK_DIGIT_ACCEPTED,
          '1180301018771',
        );
      }
      if (d.as === 'registration_number') {
        const t = `T${d.digits}`;
        registration = (await this.invoices.lookupMany([t], ctx.now, ctx.log)).get(t);
        invoiceProvenance = this.invoices.provenance(ctx.now, registration ? [registration] : []);
        if (!valid)
          notes.push(
            'The T-number’s digits are not a corporate number (check digit): its holder is not a corporation.',
          );
      }
      const c = valid ? await source.getByNumber(d.digits) : null;
      if (c) ranked = [byNumberCandidate(c, d.as, source)];
      else if (valid)
        notes.push(
          `No corporation with number ${d.digits} in the ${source.kind} registry (what that holds: _provenance.searched).`,
        );
    } else if (d.as === 'domain') {
      const byDomain = await lookupDomain(d.host, source, this.domains, ALTERNATES + 1);
      ranked = byDomain.candidates.map(slim);
      found = byDomain.found;
    } else {
      requireSearchableName(d.name, 'q');
      found = await source.searchByName(d.name, {}, ALTERNATES + 1);
      ranked = found.candidates.map((c) => slim(candidateView(c.match, c.corporation, source.sourceTag)));
    }
    const numbers = ranked.map((r) => r.corporate_number_hint);
    const edinet = await this.registry.edinet(numbers);
    for (const r of ranked) r.edinet = edinet.of(r.corporate_number_hint);
    const registryProv = edinet.addTo(
      await this.registry.provenance(source, ctx.now, numbers, found),
      numbers,
    );
    return {
      query: { q: query.q },
      detected_as: d.as,
      best: ranked[0] ?? null,
      alternates: ranked.slice(1, ALTERNATES + 1),
      ...(registration ? { registration } : {}),
      notes,
      _attribution: source.attribution,
      _provenance: invoiceProvenance
        ? combinedProvenance(registryProv, invoiceProvenance, 'registry')
        : registryProv,
    };
  }
}
