/**
 * The real Tottori full file (20,214 rows) imported whole by the command line
 * (`npm run import:registry`) into the MongoDB server of MONGODB_URI, as CI starts it
 * (.ci/ferretdb/start.sh: FerretDB over PostgreSQL), with no step by hand (issue 36,
 * reproduction 10: before, `operation exceeded time limit` at 10,000 rows unless an operator had
 * added GIN indexes). Then the gateway's registry answers from it: by number and by name.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { MongoClient } from 'mongodb';
import { connectMongoStore } from '../../core/store/mongo/mongo-store';
import { StoreRegistry } from '../../domain/registry/sources/store-registry';
import { corporateRegistryRepositories } from '../../domain/registry/stores/registry-stores';
import { TOTTORI_FILE } from '../support/shared-data';

const run = promisify(execFile);

describe('import:registry of the real Tottori file into MongoDB (issue 36)', function () {
  this.timeout(900_000);
  const uri = process.env.MONGODB_URI;
  if (!uri) {
    it('imports the whole file (skipped: MONGODB_URI is not set, so the MongoDB leg was skipped)');
    return;
  }
  const db = `import_tottori_${process.pid}_${Date.now()}`;
  const dir = mkdtempSync(path.join(tmpdir(), 'jpgw-tottori-mongo-'));
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    const client = await MongoClient.connect(uri);
    await client.db(db).dropDatabase();
    await client.close();
  });

  it('imports all 20,214 rows with no step by hand, and the registry answers from them', async () => {
    const cli = path.join(__dirname, '..', '..', 'tools', 'import-registry.js');
    const env = { ...process.env, DATA_DIR: dir, MONGODB_URI: uri, MONGODB_DB: db, LOG_LEVEL: 'silent' };
    const { stdout } = await run(process.execPath, [cli, TOTTORI_FILE, '--json'], { env });
    expect(JSON.parse(stdout)[0]).to.include({ rows: 20_214, created: 20_214, as_of: '2026-07-31' });
    const store = await connectMongoStore(uri, db);
    try {
      const repo = await store.open(corporateRegistryRepositories);
      expect(await repo.count()).to.equal(20_214);
      expect((await repo.get('2270001000870'))?.name).to.equal('株式会社鳥取銀行');
      const source = new StoreRegistry(repo, { lookup: () => [] });
      const found = await source.searchByName('鳥取銀行', {}, 5);
      expect(found.candidates[0].corporation.corporate_number).to.equal('2270001000870');
      expect(found.candidates[0].match.mode).to.equal('exact');
    } finally {
      await store.close();
    }
  });
});
