/**
 * Cursor pagination of the name search (issue 29, item 6), over a real gateway on an imported
 * registry (SQLite): pages follow next_cursor to the end, and an import between two pages (new
 * namesakes, which re-rank the matches) neither repeats a corporation nor skips one that matched
 * before. A cursor of another search, or a garbled one, is a 422.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestGateway, type TestGateway } from '../../test/support/gateway';
import { importInto, numberOf, records } from '../../test/support/page-records';

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
