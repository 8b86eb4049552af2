/**
 * A client address in one textual form, so that the same client counts once however its address
 * is written: IPv4 as dotted decimal (also when it arrives IPv4-mapped, `::ffff:a.b.c.d` or
 * `::ffff:0a0b:0c0d`), IPv6 in the RFC 5952 form (lowercase, no leading zeros, the longest run of
 * zero groups as `::`, the form Node gives a socket's address), without a zone (`%eth0`) and
 * without a port a proxy may have added (`[2001:db8::1]:443`, `203.0.113.7:443`). An IPv6
 * address also gives its /64: one subscriber's usual allocation, where every address is the same
 * client for a limit. Text that is no address is kept as it is (and counts as one client).
 */
import { isIP } from 'node:net';

export interface ClientAddress {
  kind: 'ipv4' | 'ipv6' | 'other';
  /** The normalised address (or the text as given, for `other`). */
  address: string;
  /** IPv6 only: the /64 the address belongs to, e.g. `2001:db8:1:2::/64`. */
  prefix64?: string;
}

const IPV4_WITH_PORT = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/;
const BRACKETED = /^\[([^\]]+)\](?::\d{1,5})?$/;

export function parseClientAddress(text: string): ClientAddress {
  let t = text.trim();
  const bracketed = BRACKETED.exec(t);
  if (bracketed) t = bracketed[1];
  const withPort = IPV4_WITH_PORT.exec(t);
  if (withPort) t = withPort[1];
  const zone = t.indexOf('%');
  if (zone > 0 && isIP(t.slice(0, zone)) === 6) t = t.slice(0, zone);
  switch (isIP(t)) {
    case 4:
      return { kind: 'ipv4', address: t };
    case 6: {
      const g = ipv6Groups(t);
      if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) {
        return { kind: 'ipv4', address: `${g[6] >> 8}.${g[6] & 255}.${g[7] >> 8}.${g[7] & 255}` };
      }
      return {
        kind: 'ipv6',
        address: formatIpv6(g),
        prefix64: `${formatIpv6([...g.slice(0, 4), 0, 0, 0, 0])}/64`,
      };
    }
    default:
      return { kind: 'other', address: text };
  }
}

/** The eight 16-bit groups of an IPv6 address that net.isIP accepted (zone already removed). */
function ipv6Groups(text: string): number[] {
  const parse = (part: string): number[] => {
    if (part === '') return [];
    const out: number[] = [];
    for (const piece of part.split(':')) {
      if (piece.includes('.')) {
        const [a, b, c, d] = piece.split('.').map(Number);
        out.push((a << 8) | b, (c << 8) | d);
      } else out.push(parseInt(piece, 16));
    }
    return out;
  };
  const gap = text.indexOf('::');
  if (gap < 0) return parse(text);
  const head = parse(text.slice(0, gap));
  const tail = parse(text.slice(gap + 2));
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}

/** RFC 5952 section 4: the longest run (two or more) of zero groups becomes `::`, the first on a tie. */
function formatIpv6(groups: number[]): string {
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = (gs: number[]) => gs.map((x) => x.toString(16)).join(':');
  if (best < 0) return hex(groups);
  return `${hex(groups.slice(0, best))}::${hex(groups.slice(best + bestLen))}`;
}
