/**
 * Issue 34, item 4, for the registry's own files, with real gateway processes (dist/main.js) and
 * the import command as an operator runs them: registry.sqlite and invoice.sqlite that held
 * imported data and were deleted, emptied or damaged refuse the start with one line saying which
 * file, what it held and how to restore it or start afresh; so does `npm run import:registry`
 * instead of importing into an empty file in its place. A register never imported still starts.
 * With MONGODB_URI, the same for their collections dropped from a MongoDB database.
 */
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { execFile } from 'node:child_process';
import { MongoClient } from 'mongodb';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../../../../config/paths';
import { invoiceRow, writeInvoiceFile } from '../../../support/invoice-register-file';
import { ntaCsv, ntaNumber, ntaRecords } from '../../../support/nta-records';
import { getUrl, spawnGateway } from '../../../support/process-gateway';
import {
  expectCollectionsRefusal,
  expectFileRefusal,
  startExpectingRefusal,
} from '../../../support/store-refusal';

const run = promisify(execFile);
const CLI = path.join(PROJECT_ROOT, 'dist', 'tools', 'import-registry.js');
const MAIN = path.join(PROJECT_ROOT, 'dist', 'main.js');

const FILES = {
  registry: { holds: "the corporate registry imported from the NTA's files", table: 'corporations' },
  invoice: { holds: "the invoice register imported from the NTA's files", table: 'registrations' },
} as const;

/** The NTA's corporate-number file and invoice register file, small, in their published layouts. */
function writeFiles(dir: string): { nta: string; invoice: string } {
  const nta = path.join(dir, '13_tokyo_all_20261031.csv');
  writeFileSync(nta, ntaCsv(ntaRecords(40)));
  const invoice = path.join(dir, 'zenken_20261031.csv');
  writeInvoiceFile(
    invoice,
    Array.from({ length: 40 }, (_, i) =>
      invoiceRow({
        registratedNumber: `T${ntaNumber(i)}`,
        name: `株式会社テスト商事${i}`,
        updateDate: '2026-10-01',
      }),
    ),
  );
  return { nta, invoice };
}

/** `npm run import:registry` with this environment: exit code and what it printed. */
async function importCli(env: Record<string, string>, files: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...files, '--json'], {
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("the registry's store files, once lost, refuse the start and the import (issue 34, real processes)", function () {
  this.timeout(180_000);
  const dirs: string[] = [];
  const tempDir = (label: string) => {
    const d = mkdtempSync(path.join(tmpdir(), `jpgw-regloss-${label}-`));
    dirs.push(d);
    return d;
  };
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  let files: { nta: string; invoice: string };
  let seasoned: string;
  before(async () => {
    files = writeFiles(tempDir('files'));
    seasoned = tempDir('seasoned');
    const imported = await importCli({ DATA_DIR: seasoned, MONGODB_URI: '' }, [files.nta, files.invoice]);
    expect(imported.code, imported.stderr).to.equal(0);
    expect(readdirSync(path.join(seasoned, 'store'))).to.include.members([
      'registry.sqlite',
      'registry.sqlite-created',
      'invoice.sqlite',
      'invoice.sqlite-created',
    ]);
  });

  const copy = (label: string, name: keyof typeof FILES) => {
    const dataDir = tempDir(label);
    cpSync(seasoned, dataDir, { recursive: true });
    return { dataDir, file: path.join(dataDir, 'store', `${name}.sqlite`) };
  };
  const refusalOn = (dataDir: string) => startExpectingRefusal(MAIN, { DATA_DIR: dataDir, MONGODB_URI: '' });

  for (const name of ['registry', 'invoice'] as const) {
    const { holds, table } = FILES[name];
    const marker = `${name}\\.sqlite-created`;

    it(`a deleted ${name}.sqlite: refused, naming it and what it held; nothing created in its place`, async () => {
      const { dataDir, file } = copy(`${name}-deleted`, name);
      rmSync(file);
      expectFileRefusal(await refusalOn(dataDir), file, new RegExp(`is missing, but ${marker} shows`), holds);
      expect(existsSync(file)).to.equal(false);
    });

    it(`an emptied (0-byte) ${name}.sqlite: refused, left as it was`, async () => {
      const { dataDir, file } = copy(`${name}-emptied`, name);
      truncateSync(file, 0);
      expectFileRefusal(
        await refusalOn(dataDir),
        file,
        new RegExp(`is empty \\(0 bytes\\), but ${marker}`),
        holds,
      );
      expect(statSync(file).size).to.equal(0);
    });

    it(`${name}.sqlite cut to half its length: refused with what SQLite said`, async () => {
      const { dataDir, file } = copy(`${name}-cut`, name);
      truncateSync(file, Math.floor(statSync(file).size / 4096 / 2) * 4096);
      expectFileRefusal(
        await refusalOn(dataDir),
        file,
        /cannot be read as a SQLite database \(database disk image is malformed\)/,
        holds,
      );
    });

    it(`${name}.sqlite with a damaged root page (its ${table} table): refused, naming it`, async () => {
      const { dataDir, file } = copy(`${name}-damaged`, name);
      const db = new Database(file, { fileMustExist: true });
      const root = db
        .prepare('SELECT rootpage FROM sqlite_schema WHERE name = ?')
        .pluck()
        .get(table) as number;
      db.close();
      const bytes = readFileSync(file);
      bytes[(root - 1) * 4096] = 0x00; // the b-tree page's type: no valid page has 0
      writeFileSync(file, bytes);
      expectFileRefusal(
        await refusalOn(dataDir),
        file,
        new RegExp(`the root page of ${table} \\(page ${root}\\) is corrupted`),
        holds,
      );
    });
  }

  it('npm run import:registry into a store whose registry.sqlite was deleted: refused (exit 75, one line), nothing created', async () => {
    const { dataDir, file } = copy('import-deleted', 'registry');
    rmSync(file);
    const r = await importCli({ DATA_DIR: dataDir, MONGODB_URI: '' }, [files.nta]);
    expect(r.code).to.equal(75);
    const lines = r.stderr.trim().split('\n');
    expect(lines, r.stderr).to.have.length(1);
    expect(lines[0]).to.include(`${file} is missing, but registry.sqlite-created shows`);
    expect(lines[0]).to.include(`It holds ${FILES.registry.holds}`);
    expect(lines[0]).to.include(`move ${file}* `);
    expect(existsSync(file)).to.equal(false);
  });

  it('a store whose invoice register was never imported starts (and so does a new data directory), marking what it creates', async () => {
    const onlyCorporations = tempDir('no-invoice');
    expect((await importCli({ DATA_DIR: onlyCorporations, MONGODB_URI: '' }, [files.nta])).code).to.equal(0);
    for (const dataDir of [onlyCorporations, tempDir('new')]) {
      const gw = await spawnGateway({ DATA_DIR: dataDir, MONGODB_URI: '' });
      try {
        expect((await getUrl(`${gw.url}/health`)).status).to.equal(200);
      } finally {
        await gw.stop();
      }
      expect(existsSync(path.join(dataDir, 'store', 'invoice.sqlite'))).to.equal(false);
      // What it did create (the registry, opened at start for the watches' change feed) is marked.
      expect(readdirSync(path.join(dataDir, 'store'))).to.include('registry.sqlite-created');
    }
  });

  describe('on MongoDB (FerretDB)', function () {
    const uri = process.env.MONGODB_URI;
    let databases = 0;
    const dbs: string[] = [];
    before(function () {
      if (!uri) this.skip();
    });
    after(async () => {
      if (!uri || dbs.length === 0) return;
      const client = await MongoClient.connect(uri);
      for (const db of dbs) await client.db(db).dropDatabase();
      await client.close();
    });

    const SETS = {
      'corporate registry': {
        // No registry_counters: a first full import records no change, so it numbers none (issue 36).
        collections: ['registry_corporations', 'registry_imports', 'registry_changes'],
        holds: FILES.registry.holds,
      },
      'invoice register': {
        collections: ['invoice_registrations', 'invoice_states', 'invoice_imports'],
        holds: FILES.invoice.holds,
      },
    } as const;

    for (const [set, { collections, holds }] of Object.entries(SETS)) {
      it(`the ${set}'s collections dropped after an import: refused, naming them`, async () => {
        const db = `jpgw_regloss_${process.pid}_${++databases}`;
        dbs.push(db);
        const env = { DATA_DIR: tempDir('mongo'), MONGODB_URI: uri!, MONGODB_DB: db };
        const imported = await importCli(env, [files.nta, files.invoice]);
        expect(imported.code, imported.stderr).to.equal(0);
        const client = await MongoClient.connect(uri!);
        try {
          for (const c of collections) await client.db(db).collection(c).drop();
        } finally {
          await client.close();
        }
        expectCollectionsRefusal(await startExpectingRefusal(MAIN, env), db, set, collections, holds);
      });
    }
  });
});
