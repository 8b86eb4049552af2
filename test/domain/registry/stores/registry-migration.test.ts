/**
 * A registry.sqlite made before issue 36 (schema 6: each change a copy of its states, histories as
 * arrays of objects) upgrades in place when it is opened: migration 7 turns the copies into
 * references, the changes read as before, sequence numbers are kept, and the next change is
 * numbered after the last one ever handed out (a relay's cursor stays valid).
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openSqlite } from '../../../../core/store/sqlite/database';
import { openSqliteStore } from '../../../../core/store/sqlite/sqlite-store';
import type { CorporationState } from '../../../../domain/registry/corporation-change';
import { changeIdOf, stateOfCorporation } from '../../../../domain/registry/corporation-history';
import { packCorporation } from '../../../../domain/registry/stores/corporation-row';
import { corporateRegistryRepositories } from '../../../../domain/registry/stores/registry-stores';
import { REGISTRY_MIGRATIONS } from '../../../../domain/registry/stores/sqlite-registry';
import { packHistory } from '../../../../domain/registry/stores/history-row';
import { storedOf } from '../../../../domain/registry/stores/stored-corporation';
import { corporation } from './registry-repository-contract';

describe('registry.sqlite of schema 6 opened by this release (issue 36)', () => {
  it('migrates its change records to references in place, keeping their numbers', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'jpgw-registry-migration-'));
    try {
      const before = corporation(1, '株式会社サクラ電気');
      const created: CorporationState = {
        ...stateOfCorporation(before),
        change_date: '2015-10-05',
        process: '01',
      };
      const renamed: CorporationState = {
        ...created,
        change_date: '2026-08-03',
        update_date: '2026-08-03',
        process: '11',
        name: '株式会社サクラ電機',
      };
      const now = { ...before, name: renamed.name, change_date: '2026-08-03', process: '11' };
      // As schema 6 wrote them: histories and both states of each change copied as JSON objects.
      const old = openSqlite(path.join(dir, 'registry.sqlite'), REGISTRY_MIGRATIONS.slice(0, 6));
      old
        .prepare(
          `INSERT INTO corporations (number, corporation, prefecture_code, closed, searchable, history)
           VALUES (?, ?, '13', 0, 1, ?)`,
        )
        .run(Number(before.corporate_number), packCorporation(now), JSON.stringify([created, renamed]));
      const insert = old.prepare(
        `INSERT INTO corporation_changes
           (seq, id, corporate_number, change_date, process, changed, before, after, source_file, recorded_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, '2026-08-03T00:00:00.000Z')`,
      );
      const n = before.corporate_number;
      insert.run(
        1,
        changeIdOf(n, created),
        n,
        '2015-10-05',
        '01',
        '["created"]',
        null,
        JSON.stringify(created),
        'full.csv',
      );
      insert.run(
        2,
        changeIdOf(n, renamed),
        n,
        '2026-08-03',
        '11',
        '["name"]',
        JSON.stringify(created),
        JSON.stringify(renamed),
        'diff.csv',
      );
      // A third change recorded and deleted: its number is never used again.
      insert.run(3, 'gone', n, '2026-08-04', '12', '["address"]', null, JSON.stringify(renamed), 'diff.csv');
      old.prepare('DELETE FROM corporation_changes WHERE seq = 3').run();
      old.close();

      const store = openSqliteStore(dir);
      try {
        const repo = await store.open(corporateRegistryRepositories);
        const feed = await repo.changesSince(0, 10);
        expect(feed.map((c) => [c.seq, c.id, c.changed, c.before, c.after])).to.deep.equal([
          [1, changeIdOf(n, created), ['created'], null, created],
          [2, changeIdOf(n, renamed), ['name'], created, renamed],
        ]);
        expect((await repo.historyOf([n])).get(n)).to.deep.equal([created, renamed]);
        await repo.upsertStored([]);
        const moved: CorporationState = {
          ...renamed,
          change_date: '2026-08-09',
          update_date: '2026-08-09',
          process: '12',
        };
        await repo.upsertStored([
          {
            ...storedOf(now),
            history: packHistory(now, [created, renamed, moved]),
            changes: [
              {
                id: changeIdOf(n, moved),
                corporate_number: n,
                change_date: moved.change_date,
                process: '12',
                changed: ['address'],
                before: renamed,
                after: moved,
                source_file: 'diff2.csv',
              },
            ],
          },
        ]);
        const next = await repo.changesSince(2, 10);
        expect(next.map((c) => [c.seq, c.before, c.after])).to.deep.equal([[4, renamed, moved]]);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
