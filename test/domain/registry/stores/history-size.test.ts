/**
 * History kept compact (issue 36, reproduction 9): the real Tottori file imported whole into a
 * SQLite store makes a registry.sqlite at most 1.5 times the same store without its history
 * (before: 3.3 times, 38.8 against 11.9 MB, as each of its 20,214 corporations had its one state
 * copied as its history and again in a "created" change), and the first full import records no
 * change for watchers: the relay, reading the feed, finds nothing to deliver.
 */
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { importRegistryFile } from '../../../../domain/registry/files/importer';
import { corporateRegistryRepositories } from '../../../../domain/registry/stores/registry-stores';
import { historySizes } from '../../../support/history-size';
import { TOTTORI_FILE } from '../../../support/shared-data';
import { sqliteLeg } from '../../../support/store-legs';

describe('the registry store with history, Tottori (issue 36)', function () {
  this.timeout(300_000);

  it('is at most 1.5 times the store without history, and a first full import records no change', async () => {
    const leg = sqliteLeg('jpgw-history-size');
    try {
      const repo = await leg.store.open(corporateRegistryRepositories);
      const summary = await importRegistryFile(repo, TOTTORI_FILE);
      expect(summary.created).to.equal(20_214);
      expect(await repo.changesSince(0, 10), 'changes a watch relay would read').to.deep.equal([]);
      // Every corporation still has its history: its one state, read from its record.
      const [bank] = [...(await repo.historyOf(['2270001000870'])).values()];
      expect(bank).to.have.length(1);
      expect(bank[0].name).to.equal('株式会社鳥取銀行');
      await leg.store.close();
      const sizes = historySizes(path.join(leg.dataDir, 'store', 'registry.sqlite'));
      expect(sizes.changes).to.equal(0);
      expect(sizes.with_history / sizes.without_history, JSON.stringify(sizes)).to.be.at.most(1.5);
    } finally {
      rmSync(leg.dataDir, { recursive: true, force: true });
    }
  });
});
