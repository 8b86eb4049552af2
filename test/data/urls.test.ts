/**
 * Every address cited in data/ is checked for look-alike hosts (ja.wikiredia.com once stood in
 * for Wikipedia); the registry and grants tables cite official publishers (go.jp / lg.jp) as
 * sources and only the third-party hosts listed here as cross-checks, and name none of our notes.
 */
import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { DATA_DIR } from '../../domain/shared/data-file';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : [full];
  });
}

const URL_IN_TEXT = /https?:\/\/[^\s"'<>)）、。]+/g;

function hostsIn(text: string): string[] {
  return [...text.matchAll(URL_IN_TEXT)].map((m) => new URL(m[0]).hostname.toLowerCase());
}

/** Misspellings of real hosts seen in the wild or in this repository's history. */
const KNOWN_MISSPELLINGS = [/wikiredia/, /wikipeida/, /wikpedia/, /wikipedla/, /gihtub|githib|guthub/];

/** Names of hosts this data cites; a label one or two edits away from one of them is a look-alike. */
const GENUINE_LABELS = [
  'wikipedia',
  'wikiwand',
  'github',
  'houjin-bangou',
  'invoice-kohyo',
  'jgrants-portal',
  'edinet-fsa',
  'disclosure2',
  'kotobank',
  'everybodywiki',
  'kyoukaikenpo',
  'japaneselawtranslation',
];

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const next = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = row[j];
      row[j] = next;
    }
  }
  return row[b.length];
}

function lookAlike(host: string): string | undefined {
  if (KNOWN_MISSPELLINGS.some((re) => re.test(host))) return 'a known misspelling';
  for (const label of host.split('.')) {
    for (const genuine of GENUINE_LABELS) {
      const d = editDistance(label, genuine);
      if (d > 0 && d <= 2 && label.length >= 5) return `"${label}" is ${d} edit(s) from "${genuine}"`;
    }
  }
  return undefined;
}

const OFFICIAL = /(^|\.)(go\.jp|lg\.jp)$/;

/** Third-party hosts the registry and grants tables may cite as cross-checks (never as sources). */
const ALLOWED_THIRD_PARTY = new Set([
  // Public copies of official data, encyclopaedias, news and company pages (registry).
  'github.com',
  'ja.wikipedia.org',
  'wikiwand.com',
  'ja.everybodywiki.com',
  'kotobank.jp',
  'www.brand-yurai.net',
  'happylibus.com',
  'this.kiji.is',
  'bttb.jp',
  'www.gifu-np.co.jp',
  'diamond-rm.net',
  'news.ntv.co.jp',
  'www.gtfs.jp',
  'www.sustaina.org',
  'jpn.nec.com',
  'www.hitachi.co.jp',
  'www.sony.com',
  // Guides and news confirming grant programmes (grants).
  'joseikin-insight.com',
  'sme-support-navi.jp',
  'activation-service.jp',
  'www.hojyokin-portal.jp',
  'suzuki-keiei.jp',
  'www.asahi-ghs.com',
  'hojokin-agent.jp',
  'tokyo-co2down.jp',
  'www.logi-today.com',
  'www.tokyotourism-onestop.jp',
  'otaru-nishio.com',
  'www.s-housing.jp',
  'www.japanpress.co.jp',
]);

/** Every object in an array under a `sources` key, anywhere in a document. */
function sourceRefs(value: unknown): Array<{ name: string; url?: string }> {
  if (Array.isArray(value)) return value.flatMap(sourceRefs);
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) =>
    k === 'sources' && Array.isArray(v)
      ? [...v.filter((s) => s && typeof s === 'object'), ...sourceRefs(v)]
      : sourceRefs(v),
  );
}

const OWN_NOTES = /team (research|reference)|research notes|shared\/|code index file/i;

describe('addresses cited in data/', () => {
  const all = files(DATA_DIR);
  const registryAndGrants = all.filter((f) =>
    ['registry', 'grants'].includes(path.relative(DATA_DIR, f).split(path.sep)[0]),
  );

  it('the look-alike check finds the misspelled host this data once cited, and passes real ones', () => {
    expect(lookAlike('ja.wikiredia.com')).to.be.a('string');
    expect(lookAlike('www.houjin-banqou.nta.go.jp')).to.be.a('string');
    expect(lookAlike('gihtub.com')).to.be.a('string');
    for (const real of ['ja.wikipedia.org', 'github.com', 'www.houjin-bangou.nta.go.jp', 'wikiwand.com'])
      expect(lookAlike(real), real).to.equal(undefined);
  });

  for (const file of all) {
    it(`${path.relative(DATA_DIR, file)}: no look-alike host`, () => {
      const bad = hostsIn(readFileSync(file, 'utf8')).flatMap((h) => {
        const why = lookAlike(h);
        return why ? [`${h}: ${why}`] : [];
      });
      expect(bad, bad.join('\n')).to.deep.equal([]);
    });
  }

  for (const file of registryAndGrants.filter((f) => f.endsWith('.json'))) {
    const rel = path.relative(DATA_DIR, file);
    const text = readFileSync(file, 'utf8');
    it(`${rel}: sources are official publishers with addresses; other hosts are listed third parties`, () => {
      const refs = sourceRefs(JSON.parse(text));
      expect(refs.length, rel).to.be.greaterThan(0);
      for (const s of refs) {
        expect(s.url, s.name).to.be.a('string');
        expect(new URL(s.url!).hostname, s.name).to.match(OFFICIAL);
      }
      const unknown = [...new Set(hostsIn(text))].filter((h) => !OFFICIAL.test(h) && !ALLOWED_THIRD_PARTY.has(h));
      expect(unknown, `not in the list of allowed third-party hosts: ${unknown.join(', ')}`).to.deep.equal([]);
    });
    it(`${rel}: names no note or file of ours`, () => {
      const hits = text.split('\n').filter((line) => OWN_NOTES.test(line) || /\bdata\/(registry|grants)\//.test(line));
      expect(hits, hits.join('\n')).to.deep.equal([]);
    });
  }
});
