/**
 * An import cut short and run again records each change exactly once: the changes recorded before
 * the cut are kept, and the run again, finding their states missing, computes the same changes
 * (same ids), finds them recorded and records only the rest (SQLite, and MongoDB when
 * MONGODB_URI is set, where changes are written before their states).
 */
import { expect } from 'chai';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { importRegistryFile } from '../../../../domain/registry/files/importer';
import { corporateRegistryRepositories } from '../../../../domain/registry/stores/registry-stores';
import type { CorporateRegistryRepository } from '../../../../domain/registry/stores/registry-repository';
import { mongoLeg, sqliteLeg, type StoreLeg } from '../../../support/store-legs';
import { ntaCsv, ntaRecords } from '../../../support/nta-records';

/**
 * The repository, cut at its `cutAt`-th write: the batch's changes and corporations are written
 * but not their histories, then it fails (a crash after a change is recorded and before its
 * state is: MongoDB's window, writing changes first).
 */
function cutShort(repo: CorporateRegistryRepository, cutAt: number): CorporateRegistryRepository {
  let writes = 0;
  return new Proxy(repo, {
    get(target, name, receiver) {
      if (name === 'upsertStored') {
        return async (...args: Parameters<CorporateRegistryRepository['upsertStored']>) => {
          if (++writes < cutAt) return target.upsertStored(...args);
          await target.upsertStored(args[0].map((c) => ({ ...c, history: undefined })));
          throw new Error('killed');
        };
      }
      const value: unknown = Reflect.get(target, name, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describe('an import cut short and run again', function () {
  this.timeout(120_000);
  for (const [label, open] of [
    ['SQLite', async () => sqliteLeg('jpgw-history-rerun')],
    [
      'MongoDB',
      async () => (process.env.MONGODB_URI ? mongoLeg(process.env.MONGODB_URI, 'jpgw-rerun') : null),
    ],
  ] as Array<[string, () => Promise<StoreLeg | null>]>) {
    it(`${label}: records each change exactly once`, async function () {
      const leg = await open();
      if (!leg) return this.skip();
      try {
        const repo = await leg.store.open(corporateRegistryRepositories);
        const full = path.join(leg.dataDir, '13_tokyo_all_20261001.csv');
        writeFileSync(full, ntaCsv(ntaRecords(50)));
        await importRegistryFile(repo, full, { batchSize: 10 });
        const renames = ntaRecords(30, 0, '2026-10-05').map((r) => ({
          ...r,
          process: '11',
          changeDate: '2026-10-04',
          name: `${r.name}改`,
        }));
        const diff = path.join(leg.dataDir, 'diff_20261005.csv');
        writeFileSync(diff, ntaCsv(renames));
        const err = await importRegistryFile(cutShort(repo, 2), diff, { batchSize: 10 }).catch(
          (e: Error) => e,
        );
        expect((err as Error).message).to.equal('killed');
        const afterCut = (await repo.changesSince(0, 1000)).filter((c) => c.process === '11');
        expect(afterCut, 'the changes of two batches were recorded').to.have.length(20);
        await importRegistryFile(repo, diff, { batchSize: 10 });
        const feed = await repo.changesSince(0, 1000);
        const renamed = feed.filter((c) => c.process === '11');
        expect(renamed.map((c) => c.corporate_number).sort()).to.deep.equal(
          renames.map((r) => r.corporateNumber).sort(),
        );
        expect(new Set(feed.map((c) => c.id)).size, 'no change twice').to.equal(feed.length);
        // The full file's 50 corporations were new to the register: no change recorded for them.
        expect(feed).to.have.length(30);
        for (let i = 1; i < feed.length; i++) expect(feed[i].seq).to.be.greaterThan(feed[i - 1].seq);
      } finally {
        await leg.store.close();
        await leg.drop?.();
        rmSync(leg.dataDir, { recursive: true, force: true });
      }
    });
  }
});
