/**
 * An import killed mid-way (SIGKILL, after its first batches were committed) and run again
 * converges on exactly the state of a clean import: the same corporations, search keys, trigram
 * terms and counter, no duplicates; the killed run is recorded as interrupted, and a third run is
 * a no-op. The file is SYNTHETIC (bench/registry-synthetic.ts), written under the temp directory.
 */
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { writeSyntheticRegistry } from '../../bench/registry-synthetic';

const run = promisify(execFile);
const CLI = path.join(__dirname, '..', '..', 'tools', 'import-registry.js');
const ROWS = 60_000; // six batches of 10,000

const storeOf = (dataDir: string) => path.join(dataDir, 'store', 'registry.sqlite');
const envFor = (dataDir: string) => ({
  ...process.env,
  DATA_DIR: dataDir,
  MONGODB_URI: '',
  LOG_LEVEL: 'silent',
});

/** Everything the registry holds, in a comparable order. */
function dump(dataDir: string) {
  const db = new Database(storeOf(dataDir), { readonly: true });
  try {
    return {
      corporations: db.prepare('SELECT * FROM corporations ORDER BY number').all(),
      keys: db.prepare('SELECT * FROM search_keys ORDER BY field, key, number').all(),
      keysByCorporation: db.prepare('SELECT * FROM corporation_keys ORDER BY number').all(),
      staged: db
        .prepare(
          'SELECT (SELECT count(*) FROM staged_corporations) + (SELECT count(*) FROM staged_former_names) AS n',
        )
        .get(),
      trigrams: db.prepare('SELECT term, doc, cnt FROM name_trigram_terms ORDER BY term').all(),
      held: db.prepare('SELECT * FROM held ORDER BY what').all(),
      imports: db.prepare('SELECT status, error, rows FROM imports ORDER BY started_at').all() as Array<{
        status: string;
        error: string | null;
        rows: number | null;
      }>,
    };
  } finally {
    db.close();
  }
}

function committed(dataDir: string): number {
  if (!existsSync(storeOf(dataDir))) return 0;
  const db = new Database(storeOf(dataDir), { readonly: true, timeout: 1000 });
  try {
    return (db.prepare('SELECT count(*) AS n FROM corporations').get() as { n: number }).n;
  } catch {
    return 0; // not migrated yet
  } finally {
    db.close();
  }
}

describe('an import killed mid-way and run again (npm run import:registry)', function () {
  this.timeout(180_000);
  let file: string;
  let clean: string;
  let killed: string;

  before(async () => {
    file = await writeSyntheticRegistry(ROWS);
    clean = mkdtempSync(path.join(tmpdir(), 'jpgw-import-clean-'));
    killed = mkdtempSync(path.join(tmpdir(), 'jpgw-import-killed-'));
  });
  after(() => {
    for (const d of [clean, killed, path.dirname(file)]) if (d) rmSync(d, { recursive: true, force: true });
  });

  it('completes on the second run, with the same state as a clean import, and is then a no-op', async () => {
    await run(process.execPath, [CLI, file, '--json'], { env: envFor(clean) });

    const child = spawn(process.execPath, [CLI, file], { env: envFor(killed), stdio: 'ignore' });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    // Kill it once two batches are committed and before the last one is.
    let seen = 0;
    while (seen < 20_000) {
      await sleep(20);
      seen = committed(killed);
      expect(child.exitCode, 'the import finished before it could be killed').to.equal(null);
    }
    child.kill('SIGKILL');
    expect(await exited).to.equal('SIGKILL');
    const cut = dump(killed);
    expect(cut.corporations.length).to.be.within(20_000, ROWS - 1);
    expect(cut.imports.map((i) => i.status)).to.deep.equal(['running']);

    const { stdout } = await run(process.execPath, [CLI, file, '--json'], { env: envFor(killed) });
    const [summary] = JSON.parse(stdout) as Array<Record<string, unknown>>;
    expect(summary).to.include({ rows: ROWS, skipped_already_imported: false, encoding: 'utf-8' });
    // What the killed run committed is found again unchanged; the rest is created.
    expect(summary.unchanged).to.equal(cut.corporations.length);
    expect(summary.created).to.equal(ROWS - cut.corporations.length);

    const resumed = dump(killed);
    const reference = dump(clean);
    expect(resumed.corporations.length).to.equal(ROWS);
    expect(resumed.corporations).to.deep.equal(reference.corporations);
    expect(resumed.keys).to.deep.equal(reference.keys);
    expect(resumed.trigrams).to.deep.equal(reference.trigrams);
    expect(resumed.held).to.deep.equal(reference.held);
    expect(resumed.imports.map((i) => i.status)).to.deep.equal(['failed', 'complete']);
    expect(resumed.imports[0].error).to.match(/^interrupted; the file was imported again/);

    const again = await run(process.execPath, [CLI, file, '--json'], { env: envFor(killed) });
    expect(JSON.parse(again.stdout)[0]).to.include({ skipped_already_imported: true });
    expect(dump(killed).corporations).to.deep.equal(reference.corporations);
  });
});
