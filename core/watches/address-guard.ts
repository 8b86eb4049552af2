/**
 * Where a webhook may go (the SSRF guard): https to a public address. Refused: loopback,
 * private (RFC 1918, CGNAT 100.64/10, ULA fc00::/7), link-local (169.254/16, fe80::/10, with the
 * cloud metadata addresses 169.254.169.254 and fd00:ec2::254), unspecified, multicast, reserved
 * and documentation ranges, and IPv4-mapped IPv6 forms of any of these. The address is checked
 * after DNS resolution, at registration and again at every delivery, and the connection goes to
 * the address checked (the `lookup` given to the request), so a name cannot resolve to a public
 * address for the check and a private one for the connection. `allowLoopback`
 * (WEBHOOK_ALLOW_LOOPBACK=1, for operators' tests) lets loopback through, over http or https,
 * and nothing else.
 */
import { BlockList, isIP } from 'node:net';
import dns from 'node:dns';

const FORBIDDEN = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  FORBIDDEN.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96], // NAT64: reaches IPv4 addresses through a translator
  ['100::', 64], // discard
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  FORBIDDEN.addSubnet(net, prefix, 'ipv6');
}
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** The IPv4 address an IPv4-mapped (::ffff:a.b.c.d) or IPv4-compatible IPv6 address stands for. */
function embeddedIpv4(address: string): string | undefined {
  const m = /^::(?:ffff:)?(?:0:)?(.+)$/i.exec(address);
  if (!m) return undefined;
  const rest = m[1];
  if (isIP(rest) === 4) return rest;
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(rest);
  if (!hex) return undefined;
  const n = (parseInt(hex[1], 16) << 16) | parseInt(hex[2], 16);
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** Why a webhook may not connect to this address, or undefined when it may. */
export function refusedAddress(address: string, allowLoopback: boolean): string | undefined {
  const family = isIP(address);
  if (family === 0) return `${address} is not an IP address`;
  const v4 = family === 6 ? embeddedIpv4(address) : address;
  const [addr, type] = v4 ? [v4, 'ipv4' as const] : [address, 'ipv6' as const];
  if (allowLoopback && LOOPBACK.check(addr, type)) return undefined;
  if (LOOPBACK.check(addr, type)) return `${address} is a loopback address`;
  if (FORBIDDEN.check(addr, type))
    return `${address} is not a public address (private, link-local, metadata, multicast or reserved)`;
  return undefined;
}

export type Lookup = (
  hostname: string,
  options: dns.LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void,
) => void;

export const systemLookup: Lookup = (hostname, options, callback) => dns.lookup(hostname, options, callback);

export type UrlCheck = { ok: true; url: URL } | { ok: false; problem: string; hint: string };

const HTTPS_HINT =
  'Give an https:// URL of a server reachable from the internet (a public address); redirects are not followed, so give the final URL.';

/** The URL's form: https (or http to loopback when allowed), no credentials, a host. */
export function checkUrlForm(text: unknown, allowLoopback: boolean): UrlCheck {
  if (typeof text !== 'string' || text.length === 0 || text.length > 2000)
    return { ok: false, problem: 'url must be a URL of at most 2,000 characters', hint: HTTPS_HINT };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, problem: 'url is not a URL', hint: HTTPS_HINT };
  }
  if (url.username || url.password)
    return {
      ok: false,
      problem: 'url carries a user name or password',
      hint: 'Give the URL without credentials: every delivery is signed with the watch secret, so the receiver checks the signature instead.',
    };
  const host = hostOf(url);
  const literal = isIP(host) !== 0;
  if (
    url.protocol === 'http:' &&
    allowLoopback &&
    (host === 'localhost' || (literal && loopbackLiteral(host)))
  )
    return { ok: true, url };
  if (url.protocol !== 'https:') return { ok: false, problem: 'url must use https', hint: HTTPS_HINT };
  if (literal) {
    const why = refusedAddress(host, allowLoopback);
    if (why) return { ok: false, problem: `url: ${why}`, hint: HTTPS_HINT };
  }
  return { ok: true, url };
}

function loopbackLiteral(host: string): boolean {
  return refusedAddress(host, false) !== undefined && refusedAddress(host, true) === undefined;
}

/** The URL's host as an address or name, without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * Resolves the host and checks every address it resolves to; the addresses to connect to, or
 * why none may be used. A name with one refused address among public ones is refused whole: it
 * is its owner's to point where they like, and a round-robin could hand out the private one.
 */
export async function resolvePublic(
  host: string,
  allowLoopback: boolean,
  lookup: Lookup = systemLookup,
): Promise<{ ok: true; addresses: dns.LookupAddress[] } | { ok: false; problem: string }> {
  if (isIP(host) !== 0) {
    const why = refusedAddress(host, allowLoopback);
    return why
      ? { ok: false, problem: why }
      : { ok: true, addresses: [{ address: host, family: isIP(host) }] };
  }
  const addresses = await new Promise<dns.LookupAddress[] | Error>((resolve) =>
    lookup(host, { all: true }, (err, found) => resolve(err ?? found)),
  );
  if (addresses instanceof Error)
    return {
      ok: false,
      problem: `${host} does not resolve (${(addresses as NodeJS.ErrnoException).code ?? 'error'})`,
    };
  if (addresses.length === 0) return { ok: false, problem: `${host} does not resolve` };
  for (const a of addresses) {
    const why = refusedAddress(a.address, allowLoopback);
    if (why) return { ok: false, problem: `${host} resolves to ${why}` };
  }
  return { ok: true, addresses };
}
