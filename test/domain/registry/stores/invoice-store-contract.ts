import { expect } from 'chai';
import { withRepo, type Opener } from '../../../core/store/contract-support';
import type { InvoiceRegisterStore } from '../../../../domain/registry/stores/invoice-store';
import { invoiceRow } from '../../../support/invoice-register-file';

/** The imported invoice register: newest row per number wins, in any order; imports recorded. */
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
    expect(got.get(T1)).to.deep.equal(cancelled);
    expect(await repo().count()).to.equal(2);
    // Within one batch too, and the latest flag breaks a tie of dates.
    const older = { ...cancelled, latest: '0', name: 'old' };
    await repo().upsert([cancelled, older]);
    expect((await repo().getMany([T1])).get(T1)!.name).to.equal('トヨタ自動車株式会社');
    expect(await repo().count()).to.equal(2);
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
