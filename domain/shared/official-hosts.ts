/**
 * Hosts of the official publishers whose documents are the primary sources of our data: the
 * data tests, the payload walk and `npm run payroll:tables` all judge sources by this one list.
 * A plugin citing a publisher this list lacks declares it in its manifest (`publishers`); the
 * checks of that plugin's sources then pass its hosts as `declared`.
 */
const OFFICIAL_HOSTS: readonly RegExp[] = [
  /(^|\.)go\.jp$/, // ministries and agencies: nta, mhlw, nenkin, cfa, cao (www8), mof, laws.e-gov, ...
  /(^|\.)lg\.jp$/, // local governments
  /^(www\.)?kyoukaikenpo\.or\.jp$/, // Japan Health Insurance Association (全国健康保険協会)
  /(^|\.)nao\.ac\.jp$/, // National Astronomical Observatory of Japan (暦要項)
];

/** True on a host of the shared list, or on a declared host or a sub-domain of one. */
export function isOfficialHost(host: string, declared: readonly string[] = []): boolean {
  return (
    OFFICIAL_HOSTS.some((re) => re.test(host)) || declared.some((d) => host === d || host.endsWith(`.${d}`))
  );
}

/** True when the text is an https URL on an official publisher's host (shared or declared). */
export function isOfficialUrl(url: string | undefined, declared: readonly string[] = []): boolean {
  if (url === undefined) return false;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' && isOfficialHost(u.hostname, declared);
  } catch {
    return false;
  }
}
