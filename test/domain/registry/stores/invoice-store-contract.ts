import { expect } from 'chai';
import { withRepo, type Opener } from '../../../core/store/contract-support';
import type { InvoiceRegisterStore } from '../../../../domain/registry/stores/invoice-store';
import { invoiceRow } from '../../../support/invoice-register-file';

/** What a store holds of these numbers: current states and histories, comparable whole. */
async function held(store: InvoiceRegisterStore, numbers: string[]) {
  return {
    current: Object.fromEntries(await store.getMany(numbers)),
    history: Object.fromEntries(await store.history(numbers)),
    count: await store.count(),
  };
}

/**
 * The imported invoice register: newest state per number wins, in any order; every state kept,
 * each once; imports recorded.
 */
export function invoiceStoreContract(open: Opener<InvoiceRegisterStore>): void {
  const repo = withRepo(open);
  const T1 = 'T1180301018771';
  const T2 = 'T5010401067252';

  it('keeps the newest row of each registration, whatever order the rows come in, and counts registrations', async () => {
    const first = invoiceRow({
      registratedNumber: T1,
      name: 'トヨタ自動車株式会社',
      updateDate: '2023-10-01',
    });
    const cancelled = { ...first, disposalDate: '2025-04-01', updateDate: '2025-04-01', process: '04' };
    await repo().upsert([cancelled]);
    await repo().upsert([first, invoiceRow({ registratedNumber: T2, name: 'ソニーグループ株式会社' })]);
    const got = await repo().getMany([T1, T2, 'T9999999999999']);
    expect([...got.keys()].sort()).to.deep.equal([T1, T2].sort());
    // A state is held without its place in a file (the sequence number).
    expect(got.get(T1)).to.deep.equal({ ...cancelled, sequenceNumber: '' });
    expect(await repo().count()).to.equal(2);
    // Within one batch too, and the latest flag breaks a tie of dates.
    const older = { ...cancelled, latest: '0', name: 'old' };
    await repo().upsert([cancelled, older]);
    expect((await repo().getMany([T1])).get(T1)!.name).to.equal('トヨタ自動車株式会社');
    expect(await repo().count()).to.equal(2);
  });

  it('keeps every state of a registration once, oldest first, whichever order and however often they come', async () => {
    const registered = invoiceRow({
      registratedNumber: T2,
      name: 'ソニー株式会社',
      updateDate: '2022-06-13',
      registrationDate: '2023-10-01',
    });
    const renamed = {
      ...registered,
      process: '02',
      name: 'ソニーグループ株式会社',
      updateDate: '2024-04-01',
    };
    // Cancelled on the day of a change: the cancellation follows the change (process precedence).
    const changedAgain = { ...renamed, updateDate: '2025-06-30', tradeName: 'SONY' };
    const cancelled = { ...changedAgain, process: '04', disposalDate: '2025-06-30' };
    // The same states in a later file: another sequence number, and the latest flag of a past state.
    const again = [registered, renamed, changedAgain, cancelled].map((r, i) => ({
      ...r,
      sequenceNumber: String(100 + i),
      latest: r === cancelled ? '1' : '',
    }));
    await repo().upsert([cancelled, registered]);
    await repo().upsert([changedAgain]);
    await repo().upsert(again);
    await repo().upsert([renamed]);
    const got = await held(repo(), [T2]);
    expect(got.count).to.equal(1);
    expect(got.history[T2].map((s) => [s.process, s.updateDate, s.name])).to.deep.equal([
      ['01', '2022-06-13', 'ソニー株式会社'],
      ['02', '2024-04-01', 'ソニーグループ株式会社'],
      ['02', '2025-06-30', 'ソニーグループ株式会社'],
      ['04', '2025-06-30', 'ソニーグループ株式会社'],
    ]);
    expect(got.current[T2]).to.include({ process: '04', disposalDate: '2025-06-30', latest: '1' });
    expect(got.history[T2].at(-1)).to.deep.equal(got.current[T2]);
    // Nothing held for a number never imported.
    expect((await repo().history(['T9999999999999'])).size).to.equal(0);
  });

  it('on one day, an expiry or a cancellation follows a change, and a deletion follows them, whatever the names', async () => {
    const pairs = Array.from({ length: 8 }, (_, i) => {
      const changed = invoiceRow({
        registratedNumber: `T1${String(i).padStart(12, '0')}`,
        process: '02',
        name: `名前${i}`,
        updateDate: '2025-06-30',
      });
      const ended =
        i % 3 === 2
          ? { ...changed, process: '99', name: `別名${i}` }
          : { ...changed, process: i % 2 ? '03' : '04', name: `別名${i}`, disposalDate: '2025-06-30' };
      return [changed, ended];
    });
    await repo().upsert(pairs.map(([, ended]) => ended));
    await repo().upsert(pairs.map(([changed]) => changed));
    const got = await repo().getMany(pairs.map(([c]) => c.registratedNumber));
    expect(pairs.map(([c]) => got.get(c.registratedNumber)!.process)).to.deep.equal(
      pairs.map(([, e]) => e.process),
    );
  });

  it('records imports: running, then complete with rows and as-of, or failed; lists the completed newest first', async () => {
    const base = { file: 'a.csv', sha256: 'aa', kind: 'full' as const, status: 'running' as const };
    await repo().startImport({ id: 'i1', ...base, started_at: '2026-11-01T00:00:00Z' });
    await repo().finishImport('i1', { finished_at: '2026-11-01T00:01:00Z', rows: 2, as_of: '2026-10-31' });
    await repo().startImport({ id: 'i2', ...base, sha256: 'bb', started_at: '2026-11-02T00:00:00Z' });
    await repo().failImport('i2', '2026-11-02T00:00:05Z', 'a.csv, line 3: 23 columns');
    await repo().startImport({ id: 'i3', ...base, sha256: 'cc', started_at: '2026-11-03T00:00:00Z' });
    await repo().finishImport('i3', { finished_at: '2026-11-03T00:01:00Z', rows: 1 });
    const done = await repo().completedImports();
    expect(done.map((d) => [d.id, d.status, d.rows, d.as_of])).to.deep.equal([
      ['i3', 'complete', 1, undefined],
      ['i1', 'complete', 2, '2026-10-31'],
    ]);
  });
}
