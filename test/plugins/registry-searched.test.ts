/**
 * What the registry, invoice and enrichment answers say they searched, over real HTTP: the
 * snapshot's kind, date and real size (computed here from the data files, not written down), on
 * hits, on empty results and on 404s; the live NTA Web-APIs (stand-ins) as live, with the name
 * search's first-page limit; the same facts per endpoint in /product-status.json; invoice
 * registrations confirmed only by the live register; and no repository path or operator setting
 * in anything a buyer receives (operator advice goes to the log, once).
 */
import { expect } from 'chai';
import { checkDigitOf } from '../../domain/registry/corporate-number';
import { INVOICE_TABLE } from '../../domain/registry/sources/invoice-register';
import { LEGAL_FORMS } from '../../domain/registry/search/legal-forms';
import { snapshotRecords, SNAPSHOT_PROVENANCE } from '../../domain/registry/sources/snapshot-registry';
import { loadDataFile } from '../../domain/shared/data-file';
import { startTestGateway, type TestGateway, type TestResponse } from '../support/gateway';
import { startNtaStandin, type NtaStandin, registration } from '../support/nta-standin';
import { withQuery } from '../support/query-cases';
import { pluginFolders, REGISTRY_FOLDERS } from '../support/plugin-folders';

const CLOCK = '2026-11-22T03:00:00Z';
const SNAPSHOT_SIZE = new Set(snapshotRecords().map((r) => r.corporateNumber)).size;
const SNAPSHOT_AS_OF = loadDataFile(SNAPSHOT_PROVENANCE).provenance.as_of;
const invoiceFile = loadDataFile<{ registrations: Array<{ registration_number: string }> }>(INVOICE_TABLE);
const INVOICE_ROWS = invoiceFile.registrations.length;
const INVOICE_AS_OF = invoiceFile.provenance.as_of;

const REGISTRY_PLUGINS = pluginFolders(REGISTRY_FOLDERS);

/** Substrings that only ever come from this repository, ../shared or an operator's settings. */
const NOT_FOR_BUYERS = ['shared/', 'reference/', 'Team research', '.md', 'data/', 'NTA_INVOICE_APP_ID'];

function strings(value: unknown, at = '$'): Array<[string, string]> {
  if (typeof value === 'string') return [[at, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => strings(v, `${at}[${i}]`));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => strings(v, `${at}.${k}`));
  return [];
}

function ownWords(res: TestResponse): string[] {
  return strings(res.body).flatMap(([at, text]) =>
    NOT_FOR_BUYERS.filter((w) => text.includes(w)).map((w) => `${at}: "${w}" in ${text.slice(0, 100)}`),
  );
}

/** A valid corporate number (check digit right) that no snapshot row holds. */
function absentNumber(): string {
  const held = new Set(snapshotRecords().map((r) => r.corporateNumber));
  for (let i = 0; ; i++) {
    const base = `0100019${String(i).padStart(5, '0')}`;
    const n = `${checkDigitOf(base)}${base}`;
    if (!held.has(n)) return n;
  }
}

const SAMPLE = {
  kind: 'snapshot',
  as_of: SNAPSHOT_AS_OF,
  records: SNAPSHOT_SIZE,
  unit: 'corporations',
  complete: false,
};

describe('registry, invoice and enrichment answers say what they searched', () => {
  let gw: TestGateway;
  const logs: string[] = [];
  const answers: TestResponse[] = [];
  const get = async (path: string, params: Record<string, string | number>) => {
    const res = await gw.get(withQuery(`/preview/v1/${path}`, params));
    answers.push(res);
    return res;
  };
  before(async () => {
    gw = await startTestGateway({ plugins: REGISTRY_PLUGINS, clock: CLOCK, logs });
  });
  after(() => gw.close());

  it('the facts below come from the data files: a sample, not the register', () => {
    expect(SNAPSHOT_SIZE).to.be.within(30, 1000);
    expect(INVOICE_ROWS).to.be.greaterThan(0);
  });

  for (const [path, params] of [
    ['local/houjin-lookup/by-name', { name: 'トヨタ自動車' }],
    ['local/houjin-number/lookup', { number: '1180301018771' }],
    ['local/invoice/issuer-by-name', { name: '鹿島建設' }],
    ['enrich/company-by-name', { name: 'Sharp Corporation' }],
    ['enrich/company-by-number', { number: '7000012050002' }],
    ['enrich/company-by-domain', { domain: 'jpn.nec.com' }],
    ['enrich/company-resolve', { q: '任天堂' }],
    ['enrich/company-batch', { names: 'トヨタ自動車,任天堂' }],
  ] as const) {
    it(`${path}: the snapshot, its date and its size`, async () => {
      const res = await get(path, params);
      expect(res.status).to.equal(200);
      expect(res.body._provenance.searched).to.include(SAMPLE);
      expect(res.body._provenance.searched.note).to.match(/not the full register/);
      expect(res.body._provenance.kind).to.equal('snapshot');
    });
  }

  it('an empty result still says it searched a sample, so it is not read as "no such company"', async () => {
    const res = await get('local/houjin-lookup/by-name', { name: 'ムカンケイ架空商事' });
    expect(res.body.count).to.equal(0);
    expect(res.body._provenance.searched).to.include(SAMPLE);
    expect(res.body._provenance.searched.note).to.match(/no match here does not mean no such company/);
    expect(
      res.body._provenance.sources.some((s: { url?: string }) => /\.go\.jp\//.test(s.url ?? '')),
    ).to.equal(true);
  });

  it('a number no sample row holds answers 404 with what was searched', async () => {
    for (const path of ['local/houjin-number/lookup', 'enrich/company-by-number']) {
      const res = await get(path, { number: absentNumber() });
      expect(res.status, path).to.equal(404);
      expect(res.body.searched, path).to.include(SAMPLE);
    }
  });

  it('a T-number lookup is decided by the invoice list: its size and date, the registry noted', async () => {
    const res = await get('local/invoice/issuer-registration-lookup', { number: 'T1000020012131' });
    expect(res.body._provenance.searched).to.include({
      kind: 'snapshot',
      as_of: INVOICE_AS_OF,
      records: INVOICE_ROWS,
      unit: 'invoice registrations',
      complete: false,
    });
    expect(res.body._provenance.notes.join('\n')).to.match(/Corporate registry: A curated sample of \d+/);
  });

  it('a name search for invoice issuers is decided by the registry; the invoice list is noted', async () => {
    const res = await get('local/invoice/issuer-by-name', { name: '苫小牧市' });
    expect(res.body._provenance.searched).to.include(SAMPLE);
    expect(res.body._provenance.notes.join('\n')).to.include(
      `Invoice register: A list of ${INVOICE_ROWS} registrations`,
    );
  });

  it('a candidate found by a brand alias cites the documents naming the alias, official ones as sources', async () => {
    const res = await get('local/houjin-lookup/by-name', { name: 'NEC' });
    expect(res.body.candidates[0]).to.include({
      corporate_number_hint: '7010401022916',
      match_mode: 'alias',
    });
    const hosts = (list: Array<{ url?: string }>) => list.map((s) => new URL(s.url!).hostname);
    expect(hosts(res.body._provenance.sources)).to.include('disclosure2.edinet-fsa.go.jp');
    expect(hosts(res.body._provenance.cross_checked_against)).to.include('kotobank.jp');
    expect(res.body._provenance.notes.join('\n')).to.include('7010401022916: found by the brand alias NEC');
  });

  it('name normalisation says it searched no registry, only the legal forms it knows', async () => {
    const res = await get('enrich/name-normalize', { name: 'トヨタ自動車株式会社' });
    expect(res.body._provenance.searched).to.include({
      kind: 'snapshot',
      records: LEGAL_FORMS.length,
      unit: 'legal forms',
      complete: false,
    });
    expect(res.body._provenance.searched.note).to.match(/no corporate registry was searched/);
  });

  it('registrations from the dated list are confirmed: false with the reason; derived ones too', async () => {
    for (const row of invoiceFile.registrations) {
      const res = await get('local/invoice/issuer-registration-lookup', { number: row.registration_number });
      expect(res.body.registration, row.registration_number).to.include({
        status: 'registered',
        confirmed: false,
        basis: 'secondary_source',
      });
      expect(res.body.registration.reason).to.match(/^not confirmed against the live register: /);
    }
    const derived = await get('local/invoice/issuer-registration-lookup', { number: 'T7010401022916' });
    expect(derived.body.registration).to.include({ confirmed: false, basis: 'derived' });
    expect(derived.body.registration.reason).to.match(/^not confirmed against the live register: /);
  });

  it('/product-status.json states the same per endpoint: kind, date and size', async () => {
    const status = await gw.get('/product-status.json');
    const data = new Map<string, Record<string, unknown>>(
      status.body.endpoints.map((e: { endpoint_id: string; data: Record<string, unknown> }) => [
        e.endpoint_id,
        e.data,
      ]),
    );
    for (const id of REGISTRY_PLUGINS.filter(
      (p) => !['local-invoice-lookup', 'enrich-name-normalize'].includes(p),
    )) {
      expect(data.get(id), id).to.deep.include({
        kind: 'snapshot',
        as_of: SNAPSHOT_AS_OF,
        records: { count: SNAPSHOT_SIZE, unit: 'corporations', complete: false },
      });
    }
    expect(data.get('local-invoice-lookup')).to.deep.include({
      kind: 'snapshot',
      as_of: INVOICE_AS_OF,
      records: { count: INVOICE_ROWS, unit: 'invoice registrations', complete: false },
    });
    // Normalisation computes over the name alone: it searches no records.
    expect(data.get('enrich-name-normalize')).not.to.have.property('records');
    expect(data.get('enrich-name-normalize')!.summary).to.match(/no registry is searched/);
  });

  it('no answer names a repository or ../shared file, or an operator setting; the operator is told once, in the log', () => {
    expect(answers.length).to.be.greaterThan(15);
    const found = answers.flatMap(ownWords);
    expect(found, found.join('\n')).to.deep.equal([]);
    const warnings = logs.filter((l) => l.includes('NTA_INVOICE_APP_ID'));
    expect(warnings).to.have.length(1);
    expect(JSON.parse(warnings[0]).level).to.equal(40);
  });
});

describe('registry and invoice answers from the live NTA Web-APIs (stand-ins) say they searched live', () => {
  let standin: NtaStandin;
  let live: TestGateway;
  const logs: string[] = [];
  before(async () => {
    standin = await startNtaStandin({
      appId: 'live-id',
      records: snapshotRecords(),
      namePages: 3,
      announcements: [registration('T1180301018771', 'トヨタ自動車株式会社', '愛知県豊田市トヨタ町１番地')],
    });
    live = await startTestGateway({
      plugins: ['local-houjin-lookup', 'local-houjin-number', 'local-invoice-lookup'],
      clock: CLOCK,
      logs,
      env: {
        NTA_HOUJIN_APP_ID: 'live-id',
        NTA_HOUJIN_BASE_URL: standin.houjinBaseUrl,
        NTA_INVOICE_APP_ID: 'live-id',
        NTA_INVOICE_BASE_URL: standin.invoiceBaseUrl,
      },
    });
  });
  after(async () => {
    await live.close();
    await standin.close();
  });

  it('a number lookup searched the whole live register', async () => {
    const res = await live.get('/preview/v1/local/houjin-number/lookup?number=1180301018771');
    expect(res.body._provenance.searched).to.include({
      kind: 'live',
      as_of: CLOCK.replace('Z', '.000Z'),
      records: null,
      unit: 'corporations',
      complete: true,
    });
  });

  it('a name search read only the first page of a paged NTA answer, and says so', async () => {
    const res = await live.get(withQuery('/preview/v1/local/houjin-lookup/by-name', { name: '建設' }));
    expect(res.status).to.equal(200);
    expect(res.body._provenance.searched).to.include({ kind: 'live', records: null, complete: false });
    expect(res.body._provenance.searched.note).to.match(/first page only, of 3/);
  });

  it('the live invoice register confirms (or denies) a registration; the dated list is not used', async () => {
    const toyota = await live.get(
      '/preview/v1/local/invoice/issuer-registration-lookup?number=1180301018771',
    );
    expect(toyota.body.registration).to.include({
      status: 'registered',
      confirmed: true,
      basis: 'register_live',
      reason: null,
    });
    expect(toyota.body._provenance.searched).to.include({
      kind: 'live',
      records: null,
      unit: 'invoice registrations',
      complete: true,
    });
    // In the dated list, but the live register does not hold it: the register decides.
    const listed = await live.get(
      '/preview/v1/local/invoice/issuer-registration-lookup?number=T1000020012131',
    );
    expect(listed.body.registration).to.include({ status: 'not_registered', confirmed: true, reason: null });
  });

  it('/product-status.json says live for these endpoints', async () => {
    const status = await live.get('/product-status.json');
    for (const e of status.body.endpoints) expect(e.data, e.endpoint_id).to.include({ kind: 'live' });
  });

  it('a 503 tells the buyer to retry, and the operator (in the log) what to check', async () => {
    standin.faults.alwaysStatus = 502;
    try {
      const res = await live.get('/preview/v1/local/houjin-number/lookup?number=4000012090001');
      expect(res.status).to.equal(503);
      expect(res.text).not.to.match(/operator|application id|NTA_HOUJIN_APP_ID|live-id/i);
      expect(res.body.hint).to.match(/Try again/);
      const warn = logs.map((l) => JSON.parse(l)).find((l) => /Check the application id/.test(l.msg ?? ''));
      expect(warn?.level).to.equal(40);
    } finally {
      delete standin.faults.alwaysStatus;
    }
    expect(logs.some((l) => l.includes('NTA_INVOICE_APP_ID'))).to.equal(false);
  });
});
