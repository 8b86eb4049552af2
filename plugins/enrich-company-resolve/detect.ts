/** What a resolve query is: a corporate number, a T-number, a domain or URL, or a name. */
import { parseHost, type ParsedHost } from '../../domain/registry/sources/domain-map';

export type Detected =
  | { as: 'corporate_number'; digits: string }
  | { as: 'registration_number'; digits: string }
  | { as: 'domain'; host: ParsedHost }
  | { as: 'name'; name: string };

// A domain is typed without spaces or Japanese punctuation and ends in a letter TLD; names with
// dots ("Co., Ltd.") have spaces or commas and stay names.
const DOMAIN_LIKE = /^(https?:\/\/)?[^\s,、，]+\.[^\s,.、，]{2,}(\/\S*)?$/i;

export function detect(input: string): Detected {
  const q = input.normalize('NFKC').trim();
  const compact = q.replace(/[\s-]/g, '');
  if (/^[0-9]{13}$/.test(compact)) return { as: 'corporate_number', digits: compact };
  if (/^T[0-9]{13}$/i.test(compact)) return { as: 'registration_number', digits: compact.slice(1) };
  if (DOMAIN_LIKE.test(q)) {
    const host = parseHost(q);
    if (host && /[a-z]/.test(host.ascii.split('.').pop() ?? '')) return { as: 'domain', host };
  }
  return { as: 'name', name: input };
}
