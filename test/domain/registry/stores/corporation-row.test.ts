/**
 * The packed row SQLite stores a corporation as: every corporation of the real Tottori file, and
 * ones with former names, read back exactly as written (same fields, same order, so an unchanged
 * record is still found unchanged on re-import), and rows of the earlier JSON-object format read.
 */
import { expect } from 'chai';
import {
  applyRecord,
  corporationFromRecords,
  type Corporation,
} from '../../../../domain/registry/corporation';
import { packCorporation, unpackCorporation } from '../../../../domain/registry/stores/corporation-row';
import { readNtaFile } from '../../../../domain/registry/files/nta-file';
import { TOTTORI_FILE } from '../../../support/shared-data';

describe('corporation rows (packed for SQLite)', () => {
  it('reads back every corporation of the real Tottori file exactly, in a little over half the bytes', async () => {
    let count = 0;
    let packedBytes = 0;
    let jsonBytes = 0;
    for await (const { record } of readNtaFile(TOTTORI_FILE)) {
      const c = applyRecord(null, record);
      const packed = packCorporation(c);
      expect(JSON.stringify(unpackCorporation(packed))).to.equal(JSON.stringify(c));
      packedBytes += Buffer.byteLength(packed);
      jsonBytes += Buffer.byteLength(JSON.stringify(c));
      count++;
    }
    expect(count).to.equal(20_214);
    expect(packedBytes / jsonBytes).to.be.below(0.65);
  });

  it('keeps former names, closures and exclusion from search', async () => {
    const records = [];
    for await (const { record } of readNtaFile(TOTTORI_FILE)) {
      if (record.closeDate && records.length === 0) records.push(record);
    }
    const closed = corporationFromRecords(records);
    const renamed: Corporation = {
      ...closed,
      excluded_from_search: true,
      former_names: [
        { name: '旧商号株式会社', furigana: 'キュウショウゴウ', until: '2020-04-01' },
        { name: '元の名前', furigana: '', until: '' },
      ],
    };
    for (const c of [closed, renamed]) {
      expect(JSON.stringify(unpackCorporation(packCorporation(c)))).to.equal(JSON.stringify(c));
    }
    expect(closed.status).to.equal('closed');
  });

  it('still reads rows written as JSON objects, and refuses a layout it does not know', () => {
    const old = { corporate_number: '1000013050238', name: '鳥取県' } as unknown as Corporation;
    expect(unpackCorporation(JSON.stringify(old))).to.deep.equal(old);
    expect(() => unpackCorporation('[9,"x"]')).to.throw(/layout 9/);
  });
});
