import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseNtaCsv } from '../../../../domain/registry/files/nta-csv';
import { NTA_COLUMNS } from '../../../../domain/registry/files/nta-layout';
import { isValidCorporateNumber } from '../../../../domain/registry/corporate-number';
import { loadSnapshot, SNAPSHOT_CSV } from '../../../../domain/registry/sources/snapshot-registry';
import { DATA_DIR } from '../../../../domain/shared/data-file';

const csv = readFileSync(path.join(DATA_DIR, SNAPSHOT_CSV), 'utf8');

describe('registry snapshot (data/registry)', () => {
  const { corporations, provenance, rows } = loadSnapshot();

  it('is in the NTA bulk-download layout: no header, 30 quoted columns per line, UTF-8', () => {
    const lines = csv.trimEnd().split('\n');
    for (const line of lines) {
      expect(line.startsWith('"'), line.slice(0, 30)).to.equal(true);
    }
    const { header, records } = parseNtaCsv(csv);
    expect(header).to.equal(undefined);
    expect(records).to.have.length(lines.length);
    expect(NTA_COLUMNS).to.have.length(30);
  });

  it('holds at least 30 real corporations, every number passing the check digit', () => {
    expect(corporations.size).to.be.at.least(30);
    for (const n of corporations.keys()) expect(isValidCorporateNumber(n), n).to.equal(true);
  });

  it('names, for every corporation, the public sources its row was checked against', () => {
    const sourceIds = new Set((provenance.sources as unknown as Array<{ id: string }>).map((s) => s.id));
    for (const n of corporations.keys()) {
      const row = rows.get(n);
      expect(row?.sources.length ?? 0, n).to.be.greaterThan(0);
      for (const id of row!.sources) expect(sourceIds.has(id), `${n} cites ${id}`).to.equal(true);
    }
    // And nothing is listed that is not in the CSV.
    for (const n of rows.keys()) expect(corporations.has(n), n).to.equal(true);
  });

  it('is varied: national bodies, local governments, companies, other kinds, closed and renamed corporations, English names', () => {
    const list = [...corporations.values()];
    const kinds = new Set(list.map((c) => c.kind));
    for (const k of ['101', '201', '301', '499']) expect(kinds.has(k), k).to.equal(true);
    expect(list.filter((c) => c.kind === '201' && /[都道府県]$/.test(c.name)).length).to.be.at.least(3);
    expect(list.filter((c) => c.status === 'closed').length).to.be.at.least(3);
    expect(new Set(list.filter((c) => c.status === 'closed').map((c) => c.close_cause)).size).to.be.at.least(
      3,
    );
    expect(list.filter((c) => c.former_names.length > 0).length).to.be.at.least(3);
    expect(list.filter((c) => c.en_name !== '').length).to.be.at.least(10);
  });

  it('closed rows carry their closure date and cause; a merger names the successor with a valid number', () => {
    for (const c of corporations.values()) {
      if (c.status !== 'closed') continue;
      expect(c.close_date, c.corporate_number).to.match(/^\d{4}-\d{2}-\d{2}$/);
      expect(['01', '11', '21', '31']).to.include(c.close_cause);
      if (c.successor_corporate_number)
        expect(isValidCorporateNumber(c.successor_corporate_number)).to.equal(true);
    }
  });

  it('prefecture codes agree with prefecture names', async () => {
    const { PREFECTURES } = await import('../../../../domain/shared/prefectures');
    for (const c of corporations.values()) {
      if (!c.address.prefecture_name) continue;
      const p = PREFECTURES.find((x) => x.name_ja === c.address.prefecture_name);
      expect(p?.code, c.corporate_number).to.equal(c.address.prefecture_code);
    }
  });
});
