/**
 * The change feed every corporate registry repository keeps (SQLite and MongoDB alike): changes
 * recorded with the states they describe, read after a cursor in the order recorded, each with a
 * stable id that recording again does not repeat; histories kept with their corporations.
 */
import { expect } from 'chai';
import { withRepo, type Opener } from '../../../core/store/contract-support';
import type { Corporation } from '../../../../domain/registry/corporation';
import type { CorporationState } from '../../../../domain/registry/corporation-change';
import { placeState, stateOfCorporation } from '../../../../domain/registry/corporation-history';
import type { CorporateRegistryRepository } from '../../../../domain/registry/stores/registry-repository';
import { storedOf, type StoredCorporation } from '../../../../domain/registry/stores/stored-corporation';
import { packHistory } from '../../../../domain/registry/stores/history-row';
import { corporation } from './registry-repository-contract';

/** A corporation written with its history placed state by state, and the changes that made. */
function withHistory(c: Corporation, states: readonly CorporationState[], file: string): StoredCorporation {
  let history: CorporationState[] = [];
  const changes = [];
  for (const s of states) {
    const placed = placeState(c.corporate_number, history, s, file);
    history = placed.history;
    if (placed.change) changes.push(placed.change);
  }
  return { ...storedOf(c), history: packHistory(c, history), changes };
}

const state = (c: Corporation, change_date: string, process: string): CorporationState => ({
  ...stateOfCorporation(c),
  change_date,
  update_date: change_date,
  process,
});

export function changeFeedContract(open: Opener<CorporateRegistryRepository>): void {
  const repo = withRepo(open);

  it('records each change once, with a stable id, readable after a cursor in the order recorded', async () => {
    const sakura = corporation(1, '株式会社サクラ電気');
    const midori = corporation(2, 'ミドリ商事株式会社');
    const created = state(sakura, '2015-10-05', '01');
    const renamed = { ...state(sakura, '2026-08-03', '11'), name: '株式会社サクラ電機' };
    expect(await repo().changesSince(0, 10), 'an empty feed').to.deep.equal([]);

    await repo().upsertStored([withHistory(sakura, [created], 'full.csv')]);
    await repo().upsertStored([
      withHistory(sakura, [created, renamed], 'diff_20260803.csv'),
      withHistory(midori, [state(midori, '2016-01-04', '01')], 'diff_20260803.csv'),
    ]);
    const all = await repo().changesSince(0, 10);
    expect(all.map((c) => [c.corporate_number, c.process, c.changed, c.source_file])).to.deep.equal([
      [sakura.corporate_number, '01', ['created'], 'full.csv'],
      [sakura.corporate_number, '11', ['name'], 'diff_20260803.csv'],
      [midori.corporate_number, '01', ['created'], 'diff_20260803.csv'],
    ]);
    const seqs = all.map((c) => c.seq);
    expect(seqs[0]).to.be.greaterThan(0);
    expect(seqs[1]).to.be.greaterThan(seqs[0]);
    expect(seqs[2]).to.be.greaterThan(seqs[1]);
    const rename = all[1];
    expect(rename.change_date).to.equal('2026-08-03');
    expect(rename.before).to.deep.equal(created);
    expect(rename.after).to.deep.equal(renamed);
    expect(new Date(rename.recorded_at).getTime()).to.be.closeTo(Date.now(), 60_000);
    // The cursor: what came after it, at most `limit`.
    expect((await repo().changesSince(seqs[0], 10)).map((c) => c.id)).to.deep.equal([all[1].id, all[2].id]);
    expect((await repo().changesSince(seqs[0], 1)).map((c) => c.id)).to.deep.equal([all[1].id]);
    expect(await repo().changesSince(seqs[2], 10)).to.deep.equal([]);

    // Recording the same changes again (an import run again) adds none and keeps their ids.
    await repo().upsertStored([withHistory(sakura, [created, renamed], 'diff_20260803.csv')]);
    expect(await repo().changesSince(0, 10)).to.deep.equal(all);

    // The history is kept with the corporation, and a write without one keeps it.
    expect((await repo().historyOf([sakura.corporate_number])).get(sakura.corporate_number)).to.deep.equal([
      created,
      renamed,
    ]);
    await repo().upsert([{ ...sakura, name: '株式会社サクラ電機' }]);
    const histories = await repo().historyOf([
      sakura.corporate_number,
      midori.corporate_number,
      '9999999999999',
    ]);
    expect([...histories.keys()].sort()).to.deep.equal(
      [sakura.corporate_number, midori.corporate_number].sort(),
    );
    expect(histories.get(sakura.corporate_number)).to.deep.equal([created, renamed]);
  });

  it('refers to states instead of copying them: a corrected state reads corrected, the replaced one is kept', async () => {
    const c = corporation(5, '株式会社アサヒ');
    const created = state(c, '2015-10-05', '01');
    const renamed = {
      ...state(c, '2026-08-11', '11'),
      update_date: '2026-08-12',
      name: '株式会社テスト新商号',
    };
    const corrected = {
      ...renamed,
      update_date: '2026-08-17',
      correct: '1',
      name: '株式会社テスト新商号鳥取',
    };
    await repo().upsertStored([withHistory(c, [created, renamed], 'diff_20260812.csv')]);
    await repo().upsertStored([withHistory(c, [created, renamed, corrected], 'diff_20260817.csv')]);
    const feed = (await repo().changesSince(0, 10)).filter((x) => x.corporate_number === c.corporate_number);
    expect(feed.map((x) => [x.process, x.changed, x.source_file])).to.deep.equal([
      ['01', ['created'], 'diff_20260812.csv'],
      ['11', ['name'], 'diff_20260812.csv'],
      ['11', ['name'], 'diff_20260817.csv'],
    ]);
    // The rename reads as the history holds it now: corrected.
    expect(feed[1].before).to.deep.equal(created);
    expect(feed[1].after).to.deep.equal(corrected);
    // The correction is told against the state it replaced, which only the change still holds.
    expect(feed[2].before).to.deep.equal(renamed);
    expect(feed[2].after).to.deep.equal(corrected);
  });

  it('keeps recording in order past a thousand changes, read page by page', async () => {
    const c = corporation(3, '鳥取建設株式会社');
    const states = Array.from({ length: 1_050 }, (_, i) => ({
      ...state(c, `2020-01-01`, '12'),
      update_date: `2020-01-01`,
      change_date: new Date(Date.UTC(2020, 0, 1) + i * 86_400_000).toISOString().slice(0, 10),
      address: { ...c.address, street_number: `${i + 1}番地` },
    }));
    await repo().upsertStored([withHistory(c, states.slice(0, 600), 'a.csv')]);
    await repo().upsertStored([withHistory(c, states, 'b.csv')]);
    const read: number[] = [];
    for (let page = await repo().changesSince(0, 400); page.length > 0;) {
      read.push(...page.map((x) => x.seq));
      page = await repo().changesSince(read[read.length - 1], 400);
    }
    expect(read).to.have.length(1_050);
    expect(
      read.every((s, i) => i === 0 || s > read[i - 1]),
      'strictly increasing',
    ).to.equal(true);
  });
}
