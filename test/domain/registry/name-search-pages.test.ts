/**
 * Cursor pagination of the name searches (issue 29, item 6), over a real gateway on an imported
 * registry (SQLite): pages follow next_cursor to the end, and an import between two pages (new
 * namesakes, which re-rank the matches) neither repeats a corporation nor skips one that matched
 * before. A cursor of another search, or a garbled one, is a 422.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openSqliteStore } from '../../../core/store/sqlite/sqlite-store';
import { checkDigitOf } from '../../../domain/registry/corporate-number';
import { importRegistryFile } from '../../../domain/registry/files/importer';
import { recordToCsvLine, type NtaRecord } from '../../../domain/registry/files/nta-layout';
import { corporateRegistryRepositories } from '../../../domain/registry/stores/registry-stores';
import { StoreRegistry } from '../../../domain/registry/sources/store-registry';
import { startTestGateway, type TestGateway } from '../../support/gateway';
import { freshMongoContext } from '../../support/mongo-context';
import { makeRecord } from '../../support/nta-standin';

function numberOf(i: number): string {
  const base = `0200${String(1_0000_0000 + i).slice(1)}`;
  return `${checkDigitOf(base)}${base}`;
}

function records(
  from: number,
  to: number,
  update: string,
  nameOf = (i: number) => `株式会社ページ試験${i}`,
): NtaRecord[] {
  return Array.from({ length: to - from }, (_, k) => {
    const i = from + k;
    return makeRecord({
      sequenceNumber: String(k + 1),
      corporateNumber: numberOf(i),
      process: '01',
      correct: '0',
      updateDate: update,
      changeDate: '2015-10-05',
      name: nameOf(i),
      kind: '301',
      prefectureName: '東京都',
      cityName: '千代田区',
      streetNumber: `試験町${i}番地`,
      prefectureCode: '13',
      cityCode: '101',
      postCode: '1000001',
      assignmentDate: '2015-10-05',
      furigana: `ページシケン${i}`,
      hihyoji: '0',
    });
  });
}

const csv = (rows: NtaRecord[]) => rows.map((r) => recordToCsvLine(r)).join('\n') + '\n';

async function importInto(dir: string, file: string, rows: NtaRecord[]): Promise<void> {
  writeFileSync(path.join(dir, file), csv(rows));
  const store = openSqliteStore(path.join(dir, 'store'));
  try {
    await importRegistryFile(await store.open(corporateRegistryRepositories), path.join(dir, file));
  } finally {
    await store.close();
  }
}

describe('name searches in pages (cursor, has_more, next_cursor) on an imported registry', () => {
  const BEFORE = 130;
  let dir: string;
  let gw: TestGateway;
  const page = (name: string, limit: number, cursor?: string) =>
    gw.get(
      `/preview/v1/local/houjin-lookup/by-name?${new URLSearchParams({
        name,
        limit: String(limit),
        ...(cursor ? { cursor } : {}),
      })}`,
    );

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'jpgw-pages-'));
    await importInto(dir, '00_zenkoku_all_20261031.csv', records(0, BEFORE, '2026-10-01'));
    gw = await startTestGateway({ plugins: ['local-houjin-lookup'], env: { DATA_DIR: dir } });
  });
  after(async () => {
    await gw.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an import between two pages repeats no corporation and skips none that matched before', async () => {
    const first = await page('ページ試験', 50);
    expect(first.status).to.equal(200);
    expect(first.body.candidates[0]._source).to.equal('registry_import');
    expect(first.body).to.include({ count: 50, has_more: true });
    const answered: string[] = first.body.candidates.map(
      (c: { corporate_number_hint: string }) => c.corporate_number_hint,
    );

    // New namesakes arrive that rank above what was answered (the exact name, shorter names): an
    // offset would repeat corporations of the first page on the next.
    const short = (i: number) =>
      i === BEFORE ? '株式会社ページ試験' : `株式会社ページ試験${String.fromCharCode(0x41 + i - BEFORE - 1)}`;
    await importInto(dir, 'diff_20261110.csv', records(BEFORE, BEFORE + 20, '2026-11-10', short));
    const top = await page('ページ試験', 1);
    expect(top.body.candidates[0].corporate_number_hint, 'the newcomer ranks first now').to.equal(
      numberOf(BEFORE),
    );

    let cursor: string | null = first.body.next_cursor;
    let pages = 1;
    while (cursor) {
      const next = await page('ページ試験', 50, cursor);
      expect(next.status, next.text.slice(0, 300)).to.equal(200);
      answered.push(
        ...next.body.candidates.map((c: { corporate_number_hint: string }) => c.corporate_number_hint),
      );
      expect(next.body.has_more).to.equal(next.body.next_cursor !== null);
      cursor = next.body.next_cursor;
      expect(++pages).to.be.below(10);
    }
    expect(new Set(answered).size, 'no corporation answered twice').to.equal(answered.length);
    for (let i = 0; i < BEFORE; i++) expect(answered, numberOf(i)).to.include(numberOf(i));
    // The newcomers are listed too (after the page they arrived behind).
    expect(answered).to.have.length(BEFORE + 20);
  });

  it('the last page says has_more false and next_cursor null; a small list has one page', async () => {
    const one = await page('ページ試験129', 10);
    expect(one.body).to.include({ has_more: false, next_cursor: null });
  });

  it('refuses a cursor of another search and a garbled one with 422 invalid_cursor', async () => {
    const first = await page('ページ試験', 5);
    for (const [name, cursor] of [
      ['ページ試験1', first.body.next_cursor as string],
      ['ページ試験', 'not-a-cursor'],
      ['ページ試験', `${first.body.next_cursor}AA`],
    ]) {
      const res = await page(name, 5, cursor);
      expect(res.status, cursor).to.equal(422);
      expect(res.body.correction_hints[0]).to.include({ parameter: 'cursor', code: 'invalid_cursor' });
    }
  });
});

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
