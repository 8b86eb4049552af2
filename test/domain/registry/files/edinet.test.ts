/**
 * The FSA's EDINET code list, read from the real file of 2024-07-21 where the shared data holds
 * it (never copied into the repository): the reader against an independent parse of the same
 * bytes, its refusals, the import into SQLite (and MongoDB when MONGODB_URI is set), and the
 * registry of a gateway on that store answering with the list's values, whichever registry source
 * answered the corporation (the bundled snapshot, or an imported store). The endpoints' payloads
 * from such a store are their own tests (plugins/<id>/edinet-list.test.ts).
 */
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { GatewayStore } from '../../../../core/store/gateway-store';
import {
  EDINET_COLUMNS,
  EdinetCodeList,
  EdinetCodeListError,
  isEdinetCodeList,
  type EdinetFiler,
} from '../../../../domain/registry/files/edinet-code-list';
import { edinetView } from '../../../../domain/registry/answers/edinet-answers';
import { importEdinetFile } from '../../../../domain/registry/files/edinet-importer';
import { type CorporateRegistryRepository } from '../../../../domain/registry/stores/registry-repository';
import { corporateRegistryRepositories } from '../../../../domain/registry/stores/registry-stores';
import {
  describeWithEdinetList,
  edinetRow,
  independentParse,
  type IndependentParse,
} from '../../../support/edinet-list';
import { RegistryAnswers } from '../../../support/registry-answers';
import { mongoLeg, sqliteLeg, type StoreLeg } from '../../../support/store-legs';
import { EDINET_FILE } from '../../../support/shared-data';
import { corporation } from '../stores/registry-repository-contract';

const LIST = EDINET_FILE;
const TOYOTA = '1180301018771';
const KANEKO = '5070001000715';
/** A national body: in the snapshot, never an EDINET filer. */
const NTA = '7000012050002';
const CLOCK = '2026-11-23T03:00:00Z';

async function readAll(file: string): Promise<{ list: EdinetCodeList; filers: EdinetFiler[] }> {
  const list = await EdinetCodeList.open(file);
  const filers: EdinetFiler[] = [];
  for await (const { filer } of list.filers()) filers.push(filer);
  return { list, filers };
}

async function refusal(file: string): Promise<string> {
  try {
    await readAll(file);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error(`${file} was read without an error`);
}

describeWithEdinetList('EDINET code list: the FSA file of 2024-07-21', () => {
  let parsed: IndependentParse;
  let dir: string;

  before(() => {
    parsed = independentParse();
    dir = mkdtempSync(path.join(tmpdir(), 'jpgw-edinet-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  describe('reading', () => {
    it("decodes every byte with either label of Node's cp932 decoder: they are one decoder", () => {
      const bytes = readFileSync(LIST);
      const sjis = new TextDecoder('shift_jis', { fatal: true });
      const w31j = new TextDecoder('windows-31j', { fatal: true });
      expect(w31j.encoding).to.equal(sjis.encoding);
      const text = sjis.decode(bytes);
      expect(text).to.equal(w31j.decode(bytes));
      expect(text).to.not.include('\uFFFD');
    });

    it('reads the date and size from line 1 and every row as an independent parse does', async () => {
      const { list, filers } = await readAll(LIST);
      expect(parsed.firstLine[1]).to.equal('2024年07月21日現在');
      expect(list.header).to.deep.equal({
        as_of: '2024-07-21',
        declared: Number(parsed.firstLine[3].replace('件', '')),
      });
      expect(parsed.header).to.deep.equal([...EDINET_COLUMNS]);
      expect(filers).to.have.length(parsed.rows.length);
      expect(filers.map((f) => Object.values(f))).to.deep.equal(parsed.rows);
      expect(filers.filter((f) => f.corporate_number)).to.have.length(
        parsed.rows.filter((r) => r[12] !== '').length,
      );
    });

    it('recognises the list from its first bytes, and nothing else', () => {
      const bytes = readFileSync(LIST);
      expect(isEdinetCodeList(bytes.subarray(0, 100))).to.equal(true);
      // Up to 件数, (43 bytes) is enough; the rest may be cut anywhere, even inside a character.
      expect(isEdinetCodeList(bytes.subarray(0, 43))).to.equal(true);
      expect(isEdinetCodeList(bytes.subarray(0, 44))).to.equal(true);
      expect(isEdinetCodeList(Buffer.from('"1","1180301018771","01","0","2026-10-01"'))).to.equal(false);
      // The same text re-saved as UTF-8 is not the FSA's file.
      expect(isEdinetCodeList(Buffer.from(parsed.firstLine.join(','), 'utf8'))).to.equal(false);
    });

    it('refuses a wrong first line, wrong column names, a short row, bytes that are not cp932 and a cut file, naming file and line', async () => {
      const bytes = readFileSync(LIST);
      const lineEnds: number[] = [];
      for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x0a) lineEnds.push(i + 1);
      const head = (lines: number) => bytes.subarray(0, lineEnds[lines - 1]);
      const write = (name: string, ...parts: Buffer[]) => {
        const file = path.join(dir, name);
        writeFileSync(file, Buffer.concat(parts));
        return file;
      };
      const ascii = (s: string) => Buffer.from(s, 'latin1');

      expect(
        await refusal(write('first.csv', ascii('Download,2024-07-21\r\n'), bytes.subarray(lineEnds[0]))),
      ).to.match(/^first\.csv, line 1: not the FSA's EDINET code list/);
      expect(
        await refusal(write('names.csv', head(1), ascii('a,b,c\r\n'), bytes.subarray(lineEnds[1]))),
      ).to.match(/^names\.csv, line 2: expected the 13 column names/);
      expect(
        await refusal(write('short.csv', head(5), ascii('"E99999","x"\r\n'), bytes.subarray(lineEnds[4]))),
      ).to.equal('short.csv, line 6: expected 13 columns (EDINET code list layout), got 2 [column_count]');
      expect(
        await refusal(write('bytes.csv', head(5), Buffer.from([0x22, 0xff, 0xfe, 0x22, 0x0d, 0x0a]))),
      ).to.match(/^bytes\.csv: not Shift_JIS \(cp932\) text/);
      // A NUL at the start of the 7th field (提出者名) of line 6, inside its quotes.
      const line6 = Buffer.from(bytes.subarray(lineEnds[4], lineEnds[5]));
      let comma = -1;
      for (let i = 0; i < 6; i++) comma = line6.indexOf(0x2c, comma + 1);
      const nul = Buffer.concat([line6.subarray(0, comma + 2), Buffer.from([0]), line6.subarray(comma + 2)]);
      expect(await refusal(write('nul.csv', head(5), nul, bytes.subarray(lineEnds[5])))).to.equal(
        'nul.csv, line 6: column 提出者名 holds U+0000 (a control character) at character 1 [control_character]',
      );
      expect(await refusal(write('cut.csv', head(12)))).to.equal(
        `cut.csv: line 1 declares ${parsed.rows.length} filers but 10 rows were read: the file is incomplete [incomplete]`,
      );
    });
  });

  describe('the edinet object', () => {
    const list = {
      as_of: '2024-07-21',
      source: { name: 'EDINET code list', url: 'https://disclosure2.edinet-fsa.go.jp/' },
      file: 'EdinetcodeDlInfo.csv',
      sha256: 'x',
      imported_at: '2024-07-21T00:00:00.000Z',
      filers: 0,
      with_corporate_number: 0,
    };
    let filers: EdinetFiler[];
    before(async () => {
      filers = (await readAll(LIST)).filers;
    });

    it('gives capital in yen for domestic filers only, and the month of every fiscal year end', () => {
      for (const f of filers) {
        const view = edinetView([f], list)!;
        const domestic = f.filer_type.startsWith('内国法人');
        expect(view.capital_jpy, f.edinet_code).to.equal(
          domestic && f.capital !== '' ? Number(f.capital) * 1_000_000 : null,
        );
        expect(view.fiscal_year_end_month === null, f.edinet_code).to.equal(f.fiscal_year_end === '');
        if (view.fiscal_year_end_month !== null) {
          expect(view.fiscal_year_end_month, f.fiscal_year_end).to.be.within(1, 12);
          expect(f.fiscal_year_end.startsWith(`${view.fiscal_year_end_month}月`), f.fiscal_year_end).to.equal(
            true,
          );
        }
        expect(view.listed, f.edinet_code).to.equal(f.listing === '' ? null : f.listing === '上場');
      }
    });

    it('shows one code per corporate number, listed and securities-report filers first, the others beside it', () => {
      const byNumber = new Map<string, EdinetFiler[]>();
      for (const f of filers.filter((x) => x.corporate_number)) {
        byNumber.set(f.corporate_number, [...(byNumber.get(f.corporate_number) ?? []), f]);
      }
      const shared = [...byNumber.values()].filter((fs) => fs.length > 1);
      expect(shared.length).to.be.greaterThan(0);
      for (const fs of shared) {
        const view = edinetView(fs, list)!;
        const shown = fs.find((f) => f.edinet_code === view.edinet_code)!;
        expect([view.edinet_code, ...view.other_edinet_codes].sort()).to.deep.equal(
          fs.map((f) => f.edinet_code).sort(),
        );
        for (const other of fs.filter((f) => f !== shown)) {
          const rank = (f: EdinetFiler) =>
            (f.listing === '上場' ? 0 : 2) + (f.filer_type.includes('以外') ? 1 : 0);
          expect(rank(shown), `${shown.edinet_code} before ${other.edinet_code}`).to.be.at.most(rank(other));
        }
      }
    });
  });

  describe('import and answers (SQLite)', () => {
    storeLeg(async () => sqliteLeg('jpgw-edinet-gw'));
  });

  describe('import and answers (MongoDB)', function () {
    // Re-imports replace 10,823 filers one by one; CI's FerretDB serves one command at a time.
    this.timeout(180_000);
    const uri = process.env.MONGODB_URI;
    if (!uri) {
      it('runs on MongoDB (skipped: MONGODB_URI is not set, so the MongoDB leg was skipped)');
      return;
    }
    storeLeg(() => mongoLeg(uri, 'jpgw-edinet-gw'));
  });

  function storeLeg(open: () => Promise<StoreLeg>): void {
    let store: GatewayStore;
    let registry: CorporateRegistryRepository;
    let registers: RegistryAnswers;
    let storeEnv: Record<string, string>;
    let dataDir: string;
    let drop: (() => Promise<void>) | undefined;
    const answersOn = () => RegistryAnswers.on(dataDir, CLOCK, storeEnv);

    before(async () => {
      ({ store, storeEnv, dataDir, drop } = await open());
      registry = await store.open(corporateRegistryRepositories);
      const started = process.hrtime.bigint();
      const progress: number[] = [];
      const summary = await importEdinetFile(registry, LIST, { onProgress: (p) => progress.push(p.rows) });
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      console.log(`      (imported ${summary.filers} filers in ${ms.toFixed(0)} ms on ${store.kind})`);
      expect(summary).to.include({
        as_of: '2024-07-21',
        skipped: null,
        filers: parsed.rows.length,
        with_corporate_number: parsed.rows.filter((r) => r[12] !== '').length,
      });
      expect(progress.at(-1)).to.equal(parsed.rows.length);
      registers = await answersOn();
    });

    after(async () => {
      await registers?.close();
      await store?.close();
      await drop?.();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('skips the list it holds and an older one (unless forced), keeping the list held', async () => {
      const again = await importEdinetFile(registry, LIST);
      expect(again.skipped).to.equal('already_imported');
      expect((await registry.edinetList())?.filers).to.equal(parsed.rows.length);
      // The same rows dated a day earlier: the digits of line 1 are ASCII bytes in cp932.
      const bytes = Buffer.from(readFileSync(LIST));
      const at = bytes.indexOf(Buffer.from('21', 'latin1'), bytes.indexOf(Buffer.from('07', 'latin1')));
      bytes.write('20', at, 'latin1');
      const older = path.join(dataDir, 'EdinetcodeDlInfo-older.csv');
      writeFileSync(older, bytes);
      expect((await importEdinetFile(registry, older)).skipped).to.equal('older_than_held');
      expect((await registry.edinetList())?.as_of).to.equal('2024-07-21');
      const forced = await importEdinetFile(registry, older, { force: true });
      expect(forced).to.include({ skipped: null, as_of: '2024-07-20', filers: parsed.rows.length });
      expect(forced.replaced).to.deep.equal({ as_of: '2024-07-21', filers: parsed.rows.length });
      expect((await importEdinetFile(registry, LIST)).skipped).to.equal(null);
      expect((await registry.edinetList())?.as_of).to.equal('2024-07-21');
    });

    it('refuses a list of no filers, or of far fewer than the list held, before writing anything', async () => {
      const bytes = readFileSync(LIST);
      const lineEnd = (n: number) => {
        let at = 0;
        for (let i = 0; i < n; i++) at = bytes.indexOf(0x0a, at) + 1;
        return at;
      };
      // Line 1 declares the count (ASCII digits in cp932); the rows after line 2 must match it.
      const line1 = bytes.subarray(0, lineEnd(1));
      const declaring = (n: number) =>
        Buffer.from(line1.toString('latin1').replace(/,(\d+)(\x8c\x8f)/, `,${n}$2`), 'latin1');
      const list = (name: string, filers: number) => {
        const file = path.join(dataDir, name);
        writeFileSync(
          file,
          Buffer.concat([declaring(filers), bytes.subarray(lineEnd(1), lineEnd(2 + filers))]),
        );
        return file;
      };
      const held = await registry.edinetList();
      const refused = async (file: string, code: string) => {
        const err = (await importEdinetFile(registry, file).catch((e: unknown) => e)) as EdinetCodeListError;
        expect(err).to.be.instanceOf(EdinetCodeListError);
        expect(err).to.include({ code, line: 1 });
        expect(await registry.edinetList()).to.deep.equal(held);
        return err;
      };
      const empty = await refused(list('EdinetcodeDlInfo-empty.csv', 0), 'empty_file');
      expect(empty.message).to.equal(
        `EdinetcodeDlInfo-empty.csv, line 1: a full file with no filers, where the list held (of 2024-07-21) has ${parsed.rows.length} filers [empty_file]`,
      );
      const fewer = await refused(list('EdinetcodeDlInfo-fewer.csv', 100), 'fewer_rows');
      expect(fewer.message).to.contain(
        `a full file of 100 filers, where the list held (of 2024-07-21) has ${parsed.rows.length} filers: fewer than 90% of them (import it with --allow-fewer-rows`,
      );
      expect(fewer.hint).to.match(/--allow-fewer-rows/);
      const allowed = await importEdinetFile(registry, list('EdinetcodeDlInfo-fewer.csv', 100), {
        allowFewerRows: true,
      });
      expect(allowed).to.include({ skipped: null, filers: 100 });
      // The whole list back, for the answers below.
      expect(await importEdinetFile(registry, LIST)).to.include({ filers: parsed.rows.length });
    });

    it('answers トヨタ自動車 (from the bundled snapshot) with the English name and securities code the list gives', async () => {
      const expected = edinetRow(TOYOTA);
      const answer = await registers.byNumber(TOYOTA);
      expect(answer.corporation?._source).to.equal('registry_snapshot');
      expect(answer.edinet).to.include({
        edinet_code: expected['ＥＤＩＮＥＴコード'],
        legal_name: expected['提出者名'],
        legal_name_en: expected['提出者名（英字）'],
        securities_code: expected['証券コード'],
        industry: expected['提出者業種'],
        listed: expected['上場区分'] === '上場',
        capital_jpy: Number(expected['資本金']) * 1_000_000,
        fiscal_year_end: expected['決算日'],
        as_of: '2024-07-21',
      });
      expect(answer.edinet!.sources[0].url).to.equal('https://disclosure2.edinet-fsa.go.jp/');
      expect(answer.edinet!.address).to.deep.equal({ line: expected['所在地'] });
      const notes = answer.provenance.notes ?? [];
      expect(
        notes.some((n) => n.includes(`EDINET code list of 2024-07-21 (${parsed.rows.length} filers`)),
      ).to.equal(true);
      expect(answer.provenance.sources.map((s) => s.url)).to.include('https://disclosure2.edinet-fsa.go.jp/');
    });

    it('answers the same by number and on name searches', async () => {
      const expected = edinetRow(TOYOTA);
      expect((await registers.byNumber(TOYOTA)).edinet?.edinet_code).to.equal(expected['ＥＤＩＮＥＴコード']);
      const byName = await registers.byName('トヨタ自動車');
      const top = byName.candidates.find((c) => c.corporate_number_hint === TOYOTA)!;
      expect(top.edinet?.legal_name_en).to.equal(expected['提出者名（英字）']);
      expect(byName.candidates[0].edinet?.securities_code).to.equal(expected['証券コード']);
      expect(byName.candidates[0].edinet?.edinet_code).to.equal(expected['ＥＤＩＮＥＴコード']);
    });

    it('answers null for a corporation the list does not hold, saying which list was searched', async () => {
      const answer = await registers.byNumber(NTA);
      expect(answer.corporation).to.not.equal(null);
      expect(answer.edinet).to.equal(null);
      const notes = answer.provenance.notes ?? [];
      expect(notes.some((n) => /EDINET code list of 2024-07-21 .* 0 of the 1 corporation/.test(n))).to.equal(
        true,
      );
    });

    it('enriches a corporation the imported NTA store answers (カネコ種苗) the same way', async () => {
      const expected = edinetRow(KANEKO);
      // An imported registry replaces the snapshot once an import has completed.
      await registry.upsert([
        { ...corporation(1, expected['提出者名']), corporate_number: KANEKO },
        { ...corporation(2, 'トヨタ自動車株式会社'), corporate_number: TOYOTA },
      ]);
      await registry.startImport({
        id: 'nta-test',
        file: '10_gunma_all_20261031.csv',
        sha256: 'nta-test',
        kind: 'full',
        started_at: '2026-11-01T00:00:00.000Z',
      });
      await registry.finishImport('nta-test', {
        finished_at: '2026-11-01T00:01:00.000Z',
        as_of: '2026-10-31',
        rows: 2,
        created: 2,
        updated: 0,
        unchanged: 0,
      });
      // A fresh gateway on the same data: the import check is not cached there.
      await registers.close();
      registers = await answersOn();
      const answer = await registers.byNumber(KANEKO);
      expect(answer.corporation?._source).to.equal('registry_import');
      expect(answer.edinet).to.include({
        edinet_code: expected['ＥＤＩＮＥＴコード'],
        legal_name_en: expected['提出者名（英字）'],
        securities_code: expected['証券コード'],
      });
    });
  }
});
