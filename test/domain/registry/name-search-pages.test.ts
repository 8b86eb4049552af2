/**
 * Cursor pagination of the name searches on MongoDB (issue 29, item 6): an import between two
 * pages (new namesakes, which re-rank the matches) neither repeats a corporation nor skips one that
 * matched before. The same over HTTP on SQLite is the houjin-lookup plugin's pages test.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { importRegistryFile } from '../../../domain/registry/files/importer';
import type { NtaRecord } from '../../../domain/registry/files/nta-layout';
import { corporateRegistryRepositories } from '../../../domain/registry/stores/registry-stores';
import { StoreRegistry } from '../../../domain/registry/sources/store-registry';
import { freshMongoContext } from '../../support/mongo-context';
import { csv, numberOf, records } from '../../support/page-records';

describe('name search pages on MongoDB (runs only when MONGODB_URI is set)', () => {
  const uri = process.env.MONGODB_URI;
  if (!uri) {
    it('pages through an import without repeats or gaps (skipped: MONGODB_URI is not set)');
    return;
  }
  let dir: string;
  let close: () => Promise<void>;
  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'jpgw-pages-mongo-'));
  });
  after(async () => {
    await close?.();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an import between two pages repeats no corporation and skips none that matched before; the encoding is recorded', async () => {
    const fresh = await freshMongoContext(uri, 'pages');
    close = fresh.close;
    const repo = await corporateRegistryRepositories.mongodb(fresh.ctx);
    const file = (name: string, rows: NtaRecord[]) => {
      writeFileSync(path.join(dir, name), csv(rows));
      return path.join(dir, name);
    };
    await importRegistryFile(repo, file('00_zenkoku_all_20261031.csv', records(0, 60, '2026-10-01')));
    const source = new StoreRegistry(repo, { lookup: () => [] });
    const answered: string[] = [];
    const page = async () => {
      const found = await source.searchByName('ページ試験', {}, 20, new Set(answered));
      answered.push(...found.candidates.map((c) => c.corporation.corporate_number));
      return found.more;
    };
    expect(await page()).to.equal(true);
    const short = (i: number) => `株式会社ページ試験${String.fromCharCode(0x41 + i - 60)}`;
    await importRegistryFile(repo, file('diff_20261110.csv', records(60, 70, '2026-11-10', short)));
    for (let i = 0; i < 10 && (await page()); i++);
    expect(new Set(answered).size).to.equal(answered.length);
    expect(answered).to.have.length(70);
    for (let i = 0; i < 60; i++) expect(answered).to.include(numberOf(i));
    expect((await repo.listImports('complete')).map((d) => d.encoding)).to.deep.equal(['utf-8', 'utf-8']);
    expect((await source.provenance()).sources[0].name).to.include('Unicode CSV');
  });
});
