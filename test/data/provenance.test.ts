import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { DATA_DIR } from '../../domain/shared/data-file';
import { isOfficialHost } from '../../domain/shared/official-hosts';

function filesUnder(dir: string, extensions: string[]): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return filesUnder(full, extensions);
    return extensions.some((ext) => name.endsWith(ext)) ? [full] : [];
  });
}

const jsonFiles = (dir: string) => filesUnder(dir, ['.json']);

/** Folders of data/ whose tables must name official publishers' documents and their span of dates. */
const OFFICIAL_SOURCE_FOLDERS = ['payroll', 'tax', 'holidays', 'registry', 'grants'];

/** Well-known names a misspelt host imitates; a label this close to one, but not it, is a look-alike. */
const IMITATED_LABELS = [
  'wikipedia',
  'github',
  'kyoukaikenpo',
  'japaneselawtranslation',
  'jgrants-portal',
  'nenkin',
];

/** Labels of official hosts that must only ever appear under .go.jp. */
const AGENCY_LABELS = ['nta', 'mhlw', 'nenkin', 'cao', 'mof', 'cfa', 'jgrants'];

/** Text that points into this repository or its team notes: never served to buyers. */
const INTERNAL_TEXT: Array<[RegExp, string]> = [
  [/shared\//i, '"shared/"'],
  [/reference\//i, '"reference/"'],
  [/team research/i, '"team research"'],
  [/team reference/i, '"team reference"'],
  [/\.md\b/i, 'a ".md" file'],
  [/(^|[\s(`'"])(data|test)\/[\w.-]/, 'a repository path (data/... or test/...)'],
];

const URL_PATTERN = /https?:\/\/[^\s"'<>)\]]+/g;


/** Every string of a JSON value, keys included. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => [k, ...strings(v)]);
  return [];
}

function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        previous[j] + 1,
        current[j - 1] + 1,
        previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length];
}


/** Why a host looks like a misspelling of a known one, or undefined when it does not. */
function lookAlike(host: string): string | undefined {
  const h = host.toLowerCase();
  if (h.includes('wikiredia')) return 'misspelt wikipedia';
  const labels = h.split('.');
  for (const label of labels) {
    for (const name of IMITATED_LABELS) {
      const tolerance = name.length >= 8 ? 2 : 1;
      if (label !== name && levenshtein(label, name) <= tolerance) return `imitates "${name}"`;
    }
  }
  if (/go\.jp\./.test(h) || /(^|[.-])g[o0]-?jp(\.|$)/.test(h) || /(^|\.)g0\.jp$/.test(h))
    return 'misspelt or embedded go.jp';
  if (!h.endsWith('.go.jp')) {
    const tokens = h.split(/[.-]/);
    const agency = AGENCY_LABELS.find((a) => tokens.includes(a));
    if (agency) return `"${agency}" outside .go.jp`;
  }
  return undefined;
}

describe('data/ tables', () => {
  const files = jsonFiles(DATA_DIR);
  it('exist', () => expect(files.length).to.be.greaterThan(0));

  for (const file of files) {
    const rel = path.relative(DATA_DIR, file).split(path.sep).join('/');
    const doc = JSON.parse(readFileSync(file, 'utf8'));

    it(`${rel} states its sources and as-of date`, () => {
      expect(doc.title).to.be.a('string').and.not.equal('');
      expect(doc.provenance.as_of).to.match(/^\d{4}-\d{2}-\d{2}$/);
      expect(doc.provenance.sources).to.be.an('array').with.length.greaterThan(0);
      for (const s of doc.provenance.sources) expect(s.name).to.be.a('string').and.not.equal('');
      for (const s of doc.provenance.cross_checked_against ?? [])
        expect(s.name).to.be.a('string').and.not.equal('');
    });

    it(`${rel} names no file of this repository or of the team notes`, () => {
      {
        for (const text of strings(doc)) {
          const prose = text.replace(URL_PATTERN, ' ');
          for (const [pattern, what] of INTERNAL_TEXT)
            expect(pattern.test(prose), `${what} in: ${text.slice(0, 160)}`).to.equal(false);
        }
      }
    });

    if (OFFICIAL_SOURCE_FOLDERS.includes(rel.split('/')[0])) {
      it(`${rel} names official publishers (https, official host) as its sources`, () => {
        {
          const sources: Array<{ name: string; url?: string }> = doc.provenance.sources;
          expect(sources.length).to.be.greaterThan(0);
          for (const s of sources) {
            expect(s.url, `source without URL: ${s.name}`).to.be.a('string');
            const url = new URL(s.url!);
            expect(url.protocol, s.url).to.equal('https:');
            expect(isOfficialHost(url.hostname), `not an official host: ${s.url}`).to.equal(true);
          }
        }
      });

      it(`${rel} states the span of dates it applies to`, () => {
        {
          const applies = doc.provenance.applies;
          expect(applies, 'provenance.applies').to.be.an('object');
          expect(applies.from).to.match(/^\d{4}-\d{2}-\d{2}$/);
          if (applies.to !== null) {
            expect(applies.to).to.match(/^\d{4}-\d{2}-\d{2}$/);
            expect(applies.to >= applies.from, 'applies.to before applies.from').to.equal(true);
          }
          expect(applies.basis).to.be.a('string').and.not.equal('');
        }
      });
    }
  }

  describe('URL hosts in the whole data/ tree', () => {
    it('the look-alike check flags misspellings and passes the real hosts', () => {
      for (const bad of [
        'ja.wikiredia.com',
        'ja.wikipedja.org',
        'githob.com',
        'www.kyokaikenpo.or.jp',
        'www.nta.go.jp.example.com',
        'www.nta-go.jp',
        'mhlw.example.com',
      ])
        expect(lookAlike(bad), bad).to.be.a('string');
      for (const good of [
        'ja.wikipedia.org',
        'github.com',
        'www.kyoukaikenpo.or.jp',
        'www.nta.go.jp',
        'www8.cao.go.jp',
        'laws.e-gov.go.jp',
        'news.ntv.co.jp',
        'blog.goo.ne.jp',
        'wikiwand.com',
      ])
        expect(lookAlike(good), good).to.equal(undefined);
    });

    for (const file of filesUnder(DATA_DIR, ['.json', '.csv'])) {
      const rel = path.relative(DATA_DIR, file).split(path.sep).join('/');
      it(`${rel} has no look-alike host`, () => {
        {
          const hosts = new Set(
            (readFileSync(file, 'utf8').match(URL_PATTERN) ?? []).map((u) => new URL(u).hostname),
          );
          for (const host of hosts) expect(lookAlike(host), host).to.equal(undefined);
        }
      });
    }
  });
});
