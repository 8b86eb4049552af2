/**
 * A T-number lookup on a store holding imported NTA invoice register files (made here in the
 * official layout): the registration confirmed from them, with dates and status, and what was
 * searched; a number they do not hold is not called unregistered.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openSqliteStore } from '../../core/store/sqlite/sqlite-store';
import { importInvoiceFile } from '../../domain/registry/files/invoice-importer';
import { invoiceRegisterStores } from '../../domain/registry/stores/invoice-stores';
import { startTestGateway, type TestGateway } from '../../test/support/gateway';
import { invoiceRow, writeInvoiceFile } from '../../test/support/invoice-register-file';

const PATH = '/preview/v1/local/invoice/issuer-registration-lookup';
// Real corporations' registration numbers (T + corporate number); dates are test data.
const TOYOTA = invoiceRow({
  registratedNumber: 'T1180301018771',
  name: 'トヨタ自動車株式会社',
  address: '愛知県豊田市トヨタ町１番地',
  addressPrefectureCode: '23',
  addressCityCode: '211',
  updateDate: '2023-10-01',
});
const SONY = invoiceRow({
  registratedNumber: 'T5010401067252',
  name: 'ソニーグループ株式会社',
  address: '東京都港区港南１丁目７番１号',
  updateDate: '2023-10-01',
});

describe('local-invoice-lookup with invoice register files imported', () => {
  let dataDir: string;
  let gw: TestGateway;
  before(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'jpgw-invoice-gw-'));
    const file = path.join(dataDir, 'zenken_20261031.csv');
    const cancelled = { ...SONY, process: '04', disposalDate: '2026-11-04', updateDate: '2026-11-04' };
    writeInvoiceFile(file, [TOYOTA, cancelled]);
    const store = openSqliteStore(path.join(dataDir, 'store'));
    try {
      await importInvoiceFile(await store.open(invoiceRegisterStores), file);
    } finally {
      await store.close();
    }
    gw = await startTestGateway({
      plugins: ['local-invoice-lookup'],
      clock: '2026-11-23T03:00:00Z',
      // The SQLite store the files were imported into, also in the MongoDB leg of CI.
      env: { DATA_DIR: dataDir, MONGODB_URI: '' },
    });
  });
  after(async () => {
    await gw?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers from the imported register: confirmed, with dates and status, and says what was searched', async () => {
    const toyota = await gw.get(`${PATH}?number=T1180301018771`);
    expect(toyota.status, toyota.text).to.equal(200);
    expect(toyota.body.registration).to.include({
      status: 'registered',
      confirmed: true,
      basis: 'register_file',
      legal_name: 'トヨタ自動車株式会社',
      registration_date: '2023-10-01',
    });
    expect(toyota.body.registration.sources[0].url).to.equal('https://www.invoice-kohyo.nta.go.jp/download/');
    expect(toyota.body._provenance.searched).to.include({
      kind: 'snapshot',
      records: 2,
      as_of: '2026-11-04',
    });

    const sony = await gw.get(`${PATH}?number=5010401067252`);
    expect(sony.body.registration).to.include({
      status: 'cancelled',
      confirmed: true,
      disposal_date: '2026-11-04',
    });

    // A number the files do not hold is not called unregistered.
    const other = await gw.get(`${PATH}?number=T2010001008824`);
    expect(other.body.registration).to.include({ confirmed: false });
    expect(other.body.registration.status).to.not.equal('not_registered');
  });
});
