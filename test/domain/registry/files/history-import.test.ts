/**
 * Corporations over time, from the real Tottori full file and differential files written in the
 * NTA layout here (a name change with its history row and a correction, an address change, a
 * closure by merger with a successor): each corporation's states are kept, the same whichever
 * order the files come in; re-importing records nothing new; the change feed says what changed.
 * On SQLite with the whole file; on MongoDB (when MONGODB_URI is set) with a sample of its rows.
 */
import { expect } from 'chai';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { CorporationState } from '../../../../domain/registry/corporation-change';
import { historyEntries, stateAsOf } from '../../../../domain/registry/corporation-history';
import { importRegistryFile } from '../../../../domain/registry/files/importer';
import type { NtaRecord } from '../../../../domain/registry/files/nta-layout';
import { corporateRegistryRepositories } from '../../../../domain/registry/stores/registry-stores';
import type { CorporateRegistryRepository } from '../../../../domain/registry/stores/registry-repository';
import { TOTTORI_FILE } from '../../../support/shared-data';
import { mongoLeg, sqliteLeg, type StoreLeg } from '../../../support/store-legs';
import {
  BANK,
  KEISHIN,
  NUMBERS,
  PAIRING,
  realRecords,
  tottoriSample,
  writeDiffs,
  type Files,
} from '../../../support/history-files';

async function historiesOf(repo: CorporateRegistryRepository): Promise<Map<string, CorporationState[]>> {
  return repo.historyOf(NUMBERS);
}

describe('corporate history from the NTA files', () => {
  let real: Map<string, NtaRecord>;
  before(async () => {
    real = await realRecords();
    expect([...real.keys()].sort()).to.deep.equal([...NUMBERS].sort());
  });

  describe('SQLite, the whole Tottori file', function () {
    this.timeout(300_000);
    historyLegs(async () => [sqliteLeg('jpgw-history-a'), sqliteLeg('jpgw-history-b')], {});
  });

  describe('MongoDB, a sample of the Tottori file', function () {
    this.timeout(300_000);
    const uri = process.env.MONGODB_URI;
    if (!uri) {
      it('runs on MongoDB (skipped: MONGODB_URI is not set, so the MongoDB leg was skipped)');
      return;
    }
    historyLegs(async () => [await mongoLeg(uri, 'jpgw-history-a'), await mongoLeg(uri, 'jpgw-history-b')], {
      sample: 50,
      // Batches of 100: the importer reads those by number one by one, which FerretDB hands to SQL.
      batchSize: 100,
    });
  });

  function historyLegs(
    open: () => Promise<[StoreLeg, StoreLeg]>,
    options: { sample?: number; batchSize?: number },
  ): void {
    let legs: [StoreLeg, StoreLeg];
    let repos: CorporateRegistryRepository[];
    let files: Files;
    let fullRows: number;

    before(async function () {
      this.timeout(300_000);
      legs = await open();
      const full = options.sample ? tottoriSample(legs[0].dataDir, options.sample) : TOTTORI_FILE;
      files = writeDiffs(legs[0].dataDir, real, full);
      repos = await Promise.all(legs.map((l) => l.store.open(corporateRegistryRepositories)));
      const batchSize = options.batchSize;
      // In order: the full file, then the differentials.
      fullRows = (await importRegistryFile(repos[0], files.full, { batchSize })).rows;
      await importRegistryFile(repos[0], files.renamed, { batchSize });
      await importRegistryFile(repos[0], files.moved, { batchSize });
      // Out of order: the later differential first, the full file last.
      await importRegistryFile(repos[1], files.moved, { batchSize });
      await importRegistryFile(repos[1], files.renamed, { batchSize });
      await importRegistryFile(repos[1], files.full, { batchSize });
    });
    after(async () => {
      for (const leg of legs ?? []) {
        await leg.store.close();
        await leg.drop?.();
        rmSync(leg.dataDir, { recursive: true, force: true });
      }
    });

    it('keeps every state, the same in either order, oldest first', async () => {
      const [inOrder, outOfOrder] = await Promise.all(repos.map(historiesOf));
      expect(JSON.stringify([...outOfOrder], null, 1)).to.equal(JSON.stringify([...inOrder], null, 1));
      const names = historyEntries(inOrder.get(BANK)!).map((e) => [
        e.state.change_date,
        e.state.name,
        e.changed,
      ]);
      expect(names).to.deep.equal([
        [real.get(BANK)!.changeDate, real.get(BANK)!.name, ['created']],
        ['2026-08-01', '株式会社とっとり銀行', ['name', 'english_name']],
      ]);
      const moved = historyEntries(inOrder.get(PAIRING)!);
      expect(moved.map((e) => [e.state.change_date, e.state.process, e.changed])).to.deep.equal([
        [real.get(PAIRING)!.changeDate, '01', ['created']],
        ['2026-08-05', '12', ['address']],
      ]);
      expect(moved[1].state.address.street_number).to.equal('角盤町１丁目１番地');
      const absorbed = historyEntries(inOrder.get(KEISHIN)!);
      expect(absorbed.map((e) => [e.state.process, e.state.status, e.changed])).to.deep.equal([
        ['01', 'active', ['created']],
        ['71', 'closed', ['closed', 'successor']],
      ]);
      expect(absorbed[1].state.successor_corporate_number).to.equal(BANK);
      // The current corporation is the same in either order too.
      const current = await Promise.all(repos.map((r) => r.getMany(NUMBERS)));
      expect(JSON.stringify([...current[1]], null, 1)).to.equal(JSON.stringify([...current[0]], null, 1));
      expect(current[0].get(KEISHIN)!.status).to.equal('closed');
      expect(current[0].get(BANK)!.name).to.equal('株式会社とっとり銀行');
    });

    it('answers the state in force on a date, or that the history held starts later', async () => {
      const bank = (await historiesOf(repos[0])).get(BANK)!;
      const since = real.get(BANK)!.changeDate;
      expect(stateAsOf(bank, '2014-01-01')).to.deep.equal({ held: false, history_starts: since });
      const before = stateAsOf(bank, '2026-07-31');
      expect(before.held && before.entry.state.name).to.equal(real.get(BANK)!.name);
      const on = stateAsOf(bank, '2026-08-01');
      expect(on.held && on.entry.state.name).to.equal('株式会社とっとり銀行');
      const after = stateAsOf(bank, '2030-01-01');
      expect(after.held && after.entry.state.name).to.equal('株式会社とっとり銀行');
    });

    it('records each change once in the feed; importing a file again records nothing', async () => {
      const feed = await repos[0].changesSince(0, fullRows + 100);
      // The full file brought every corporation into the register: no change recorded for them.
      expect(feed.filter((c) => c.changed[0] === 'created')).to.deep.equal([]);
      const changes = feed;
      expect(changes.map((c) => [c.corporate_number, c.process, c.changed, c.source_file])).to.deep.equal([
        [BANK, '11', ['name', 'english_name'], 'diff_20260803.csv'],
        [PAIRING, '12', ['address'], 'diff_20260810.csv'],
        [KEISHIN, '71', ['closed', 'successor'], 'diff_20260810.csv'],
      ]);
      expect(changes[0].before?.name).to.equal(real.get(BANK)!.name);
      expect(changes[0].after.name).to.equal('株式会社とっとり銀行');
      const last = feed[feed.length - 1].seq;
      for (const file of [files.renamed, files.moved]) {
        await importRegistryFile(repos[0], file, { force: true, batchSize: options.batchSize });
      }
      expect(await repos[0].changesSince(last, 10)).to.deep.equal([]);
      // Out of order, each state was new once: the same changes by id, as many as states held.
      const other = await repos[1].changesSince(0, fullRows + 100);
      expect(other.filter((c) => NUMBERS.includes(c.corporate_number))).to.have.length(6);
    });
  }
});

describe('a later full file of the same scope', () => {
  it('records created for the corporations it brings, where the first full file recorded none', async function () {
    this.timeout(120_000);
    const leg = sqliteLeg('jpgw-history-later-full');
    try {
      const repo = await leg.store.open(corporateRegistryRepositories);
      const firstDir = path.join(leg.dataDir, 'first');
      const laterDir = path.join(leg.dataDir, 'later');
      mkdirSync(firstDir);
      mkdirSync(laterDir);
      // Every 50th row first; then every 25th (a superset): a month whose differentials were missed.
      const first = await importRegistryFile(repo, tottoriSample(firstDir, 50));
      expect(await repo.changesSince(0, 10)).to.deep.equal([]);
      const later = await importRegistryFile(repo, tottoriSample(laterDir, 25));
      expect(later.created).to.be.greaterThan(0);
      const feed = await repo.changesSince(0, later.rows + 10);
      expect(feed.filter((c) => c.changed[0] === 'created')).to.have.length(later.created);
      expect(later.rows - first.rows).to.equal(later.created);
    } finally {
      await leg.store.close();
      rmSync(leg.dataDir, { recursive: true, force: true });
    }
  });
});
