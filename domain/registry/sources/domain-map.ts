/**
 * Web domains to corporations: the curated map in data/registry/domains.json (each entry with the
 * documents showing who operates the domain: official ones in `sources`, other public pages in
 * `cross_checked_against`, for no register of domains exists), and the registrable label of any host name, to
 * be matched against English and romaji names. Host names are read from a bare host or a URL;
 * scheme, www., port, path and case are ignored; internationalised names (日本語.jp) are accepted
 * and compared in their ASCII (punycode) form.
 */
import { domainToASCII, domainToUnicode } from 'node:url';
import { Lifecycle, scoped } from 'tsyringe';
import type { SearchedData, SourceRef } from '../../../core/plugins/contract';
import { loadDataFile, type TableProvenance } from '../../shared/data-file';

export const DOMAIN_TABLE = 'registry/domains.json';

export interface DomainEntry {
  domain: string;
  corporate_number: string;
  /** Official documents (a government body's own site for go.jp domains); may be empty. */
  sources: SourceRef[];
  cross_checked_against: SourceRef[];
}

export interface ParsedHost {
  /** ASCII (punycode) host, lower case, without www. */
  ascii: string;
  /** The same host in Unicode (differs for internationalised names). */
  unicode: string;
  /** The registrable domain (hitachi.co.jp for www.hitachi.co.jp). */
  registrable: string;
  /** The label that names the owner (hitachi), in Unicode. */
  label: string;
}

// Second-level domains under .jp that are not the owner's name (co.jp, go.jp, lg.jp ...).
const JP_SECOND_LEVEL = new Set(['co', 'or', 'ne', 'ac', 'ad', 'ed', 'go', 'gr', 'lg']);
const HOST_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** Reads the host of a domain or URL; undefined when it is not one. */
export function parseHost(input: string): ParsedHost | undefined {
  let text = input.normalize('NFKC').trim();
  if (text === '' || /\s/.test(text)) return undefined;
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) text = `http://${text}`;
  let host: string;
  try {
    host = new URL(text).hostname;
  } catch {
    return undefined;
  }
  host = host.replace(/\.$/, '').toLowerCase();
  const ascii = domainToASCII(host);
  if (!ascii || !ascii.includes('.')) return undefined;
  const labels = ascii.replace(/^www\./, '').split('.');
  if (
    labels.length < 2 ||
    !labels.every((l) => HOST_LABEL.test(l)) ||
    /^\d+$/.test(labels[labels.length - 1])
  ) {
    return undefined;
  }
  const n = labels.length;
  const jpSecond = n >= 3 && labels[n - 1] === 'jp' && JP_SECOND_LEVEL.has(labels[n - 2]);
  const registrableLabels = jpSecond ? labels.slice(n - 3) : labels.slice(n - 2);
  const cleaned = labels.join('.');
  return {
    ascii: cleaned,
    unicode: domainToUnicode(cleaned),
    registrable: registrableLabels.join('.'),
    label: domainToUnicode(registrableLabels[0]),
  };
}

@scoped(Lifecycle.ContainerScoped)
export class DomainMap {
  readonly provenance: TableProvenance;
  readonly size: number;
  private readonly byDomain: Map<string, DomainEntry[]>;

  constructor() {
    const file = loadDataFile<{ domains: DomainEntry[] }>(DOMAIN_TABLE);
    this.provenance = file.provenance;
    this.byDomain = new Map();
    this.size = file.domains.length;
    for (const entry of file.domains) {
      if (entry.sources.length + entry.cross_checked_against.length === 0) {
        throw new Error(`data/${DOMAIN_TABLE}: ${entry.domain} names no document showing its operator`);
      }
      const key = domainToASCII(entry.domain.toLowerCase());
      this.byDomain.set(key, [...(this.byDomain.get(key) ?? []), entry]);
    }
  }

  /** What a domain-map lookup searched: a short curated list, not a register of domains. */
  searched(): SearchedData {
    return {
      kind: 'snapshot',
      as_of: this.provenance.as_of,
      records: this.size,
      unit: 'domains',
      complete: false,
      note: `The domain map holds ${this.size} domains whose operator a document names (as of ${this.provenance.as_of}); other domains are matched by their label against names, readings and aliases only.`,
    };
  }

  /** Entries for the host itself or any parent domain of it (jpn.nec.com -> nec.com). */
  lookup(host: ParsedHost): DomainEntry[] {
    const labels = host.ascii.split('.');
    for (let i = 0; i < labels.length - 1; i++) {
      const hit = this.byDomain.get(labels.slice(i).join('.'));
      if (hit) return hit;
    }
    return [];
  }
}
