/**
 * enrich-company-history and as_of over HTTP: a gateway on a store that imported the real Tottori
 * full file and two differential files written in the NTA layout (SQLite; MongoDB with a sample
 * of the file when MONGODB_URI is set), on the preview and the paid (broker) paths; and on the
 * snapshot, which holds no history and says so.
 */
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { importRegistryFile } from '../../domain/registry/files/importer';
import type { NtaRecord } from '../../domain/registry/files/nta-layout';
import { corporateRegistryRepositories } from '../../domain/registry/stores/registry-stores';
import { startTestGateway, type TestGateway } from '../../test/support/gateway';
import { mongoLeg, sqliteLeg, type StoreLeg } from '../../test/support/store-legs';
import { TOTTORI_FILE } from '../../test/support/shared-data';
import { BANK, KEISHIN, realRecords, tottoriSample, writeDiffs } from '../../test/support/history-files';

/** What a test reads of a state in an answer. */
interface StateJson {
  change_date: string;
  process: { code: string; name_en: string };
  changed: string[];
  corporation: { legal_name: string };
}

const HISTORY = '/preview/v1/enrich/company-history';
const NUMBER = '/preview/v1/local/houjin-number/lookup';
const BY_NUMBER = '/preview/v1/enrich/company-by-number';
const PLUGINS = ['enrich-company-history', 'local-houjin-number', 'enrich-company-by-number'];

describe('enrich-company-history (enrich/company-history)', () => {
  let real: Map<string, NtaRecord>;
  before(async () => {
    real = await realRecords();
  });

  describe('on a store with the Tottori file and two differentials imported (SQLite)', function () {
    this.timeout(300_000);
    historyOverHttp(async () => sqliteLeg('jpgw-history-http'), {});
  });

  describe('on MongoDB, a sample of the Tottori file', function () {
    this.timeout(300_000);
    const uri = process.env.MONGODB_URI;
    if (!uri) {
      it('runs on MongoDB (skipped: MONGODB_URI is not set, so the MongoDB leg was skipped)');
      return;
    }
    historyOverHttp(() => mongoLeg(uri, 'jpgw-history-http'), { sample: 50, batchSize: 100 });
  });

  function historyOverHttp(
    open: () => Promise<StoreLeg>,
    options: { sample?: number; batchSize?: number },
  ): void {
    let leg: StoreLeg;
    let gw: TestGateway;
    before(async function () {
      this.timeout(300_000);
      leg = await open();
      const full = options.sample ? tottoriSample(leg.dataDir, options.sample) : TOTTORI_FILE;
      const files = writeDiffs(leg.dataDir, real, full);
      const registry = await leg.store.open(corporateRegistryRepositories);
      for (const file of [files.full, files.renamed, files.moved]) {
        await importRegistryFile(registry, file, { batchSize: options.batchSize });
      }
      await leg.store.close();
      gw = await startTestGateway({
        plugins: PLUGINS,
        env: { DATA_DIR: leg.dataDir, ...leg.storeEnv },
        clock: '2026-11-22T03:00:00Z',
      });
    });
    after(async () => {
      await gw?.close();
      await leg?.drop?.();
      if (leg) rmSync(leg.dataDir, { recursive: true, force: true });
    });

    it('lists every recorded state oldest first, with what changed, the process and its meaning', async () => {
      const res = await gw.get(`${HISTORY}?number=${BANK}`);
      expect(res.status).to.equal(200);
      const bank = real.get(BANK)!;
      expect(
        res.body.states.map((s: StateJson) => [
          s.change_date,
          s.process.code,
          s.process.name_en,
          s.changed,
          s.corporation.legal_name,
        ]),
      ).to.deep.equal([
        [bank.changeDate, '01', 'new', ['created'], bank.name],
        ['2026-08-01', '11', 'name change', ['name', 'english_name'], '株式会社とっとり銀行'],
      ]);
      expect(res.body.corporation.legal_name).to.equal('株式会社とっとり銀行');
      expect(res.body).to.include({ history_starts: bank.changeDate, history_recorded: true });
      expect(res.body.note).to.equal(
        `History held here starts at ${bank.changeDate}: the states the imported NTA files recorded, each from its change date; earlier states are not held.`,
      );
      expect(
        res.body.files.map((f: { name: string; differential: boolean }) => [f.name, f.differential]),
      ).to.deep.equal([
        ['diff_20260810.csv', true],
        ['diff_20260803.csv', true],
        ['31_tottori_all_20260731.csv', false],
      ]);
      expect(res.body._provenance.kind).to.equal('snapshot');
      expect(res.body._notice).to.match(/reference/i);

      const absorbed = await gw.get(`${HISTORY}?number=${KEISHIN}`);
      const last = absorbed.body.states.at(-1);
      expect(last).to.deep.include({ change_date: '2026-08-08', changed: ['closed', 'successor'] });
      expect(last.process).to.include({ code: '71', name_en: 'absorbed by merger' });
      expect(last.corporation.closure).to.include({ date: '2026-08-08', successor_corporate_number: BANK });
    });

    it('answers the same on the paid path (/broker/call), charging the price', async () => {
      const preview = await gw.get(`${HISTORY}?number=${BANK}`);
      const apiKey = (await gw.post('/keys/create', { owner_label: 'history test' })).body.api_key;
      const status = async () => (await gw.get('/keys/status', { 'X-API-Key': apiKey })).body;
      const before = await status();
      const paid = await gw.post(
        '/broker/call',
        { product_id: preview.body._gateway.production.broker.product_id, query: { number: BANK } },
        { 'X-API-Key': apiKey },
      );
      expect(paid.status).to.equal(200);
      expect(paid.body.states).to.deep.equal(preview.body.states);
      const after = await status();
      expect(before.balance.micro_usdc - after.balance.micro_usdc).to.equal(20_000);
    });

    it('as_of answers the state then in force, before, on and after the change', async () => {
      const bank = real.get(BANK)!;
      for (const path of [NUMBER, BY_NUMBER]) {
        const before = await gw.get(`${path}?number=${BANK}&as_of=2026-07-31`);
        expect(before.status, path).to.equal(200);
        expect(before.body.corporation.legal_name).to.equal(bank.name);
        expect(before.body.state_as_of).to.deep.equal({
          date: '2026-07-31',
          in_force_since: bank.changeDate,
          history_starts: bank.changeDate,
          history_recorded: true,
        });
        const on = await gw.get(`${path}?number=${BANK}&as_of=2026-08-01`);
        expect(on.body.corporation.legal_name).to.equal('株式会社とっとり銀行');
        expect(on.body.state_as_of.in_force_since).to.equal('2026-08-01');
        const after = await gw.get(`${path}?number=${BANK}&as_of=2030-01-01`);
        expect(after.body.corporation.legal_name).to.equal('株式会社とっとり銀行');
        const without = await gw.get(`${path}?number=${BANK}`);
        expect(without.body).to.not.have.property('state_as_of');
      }
      const byNumber = await gw.get(`${BY_NUMBER}?number=${KEISHIN}&as_of=2026-08-07`);
      expect(byNumber.body.corporation.status).to.equal('active');
      expect(byNumber.body.names.legal_name).to.equal(real.get(KEISHIN)!.name);
      const closed = await gw.get(`${BY_NUMBER}?number=${KEISHIN}&as_of=2026-08-08`);
      expect(closed.body.corporation.status).to.equal('closed');
    });

    it('says plainly when the history held starts after as_of (404 history_not_held), and refuses bad dates', async () => {
      const res = await gw.get(`${NUMBER}?number=${BANK}&as_of=2010-01-01`);
      expect(res.status).to.equal(404);
      expect(res.body).to.include({
        error: 'history_not_held',
        history_starts: real.get(BANK)!.changeDate,
        history_recorded: true,
        as_of: '2010-01-01',
      });
      for (const bad of ['2026-02-30', '20260801', 'yesterday']) {
        const refused = await gw.get(`${NUMBER}?number=${BANK}&as_of=${bad}`);
        expect(refused.status, bad).to.equal(422);
        expect(refused.body.correction_hints[0], bad).to.include({
          parameter: 'as_of',
          code: 'invalid_date',
        });
      }
    });
  }

  describe('on the snapshot, which holds no history', () => {
    let gw: TestGateway;
    before(async () => {
      gw = await startTestGateway({ plugins: PLUGINS, clock: '2026-11-22T03:00:00Z' });
    });
    after(() => gw.close());

    it('answers the current record alone and says earlier history is not held', async () => {
      const res = await gw.get(`${HISTORY}?number=5010401067252`);
      expect(res.status).to.equal(200);
      expect(res.body.history_recorded).to.equal(false);
      expect(res.body.states).to.have.length(1);
      expect(res.body.states[0].corporation.legal_name).to.equal('ソニーグループ株式会社');
      expect(res.body.note).to.match(/^Earlier history is not held here/);
      expect(res.body.files).to.deep.equal([]);
    });

    it('refuses a wrong check digit or a missing number with correction_hints, 404 on an unknown number', async () => {
      expect((await gw.get(`${HISTORY}?number=4000012090002`)).body.correction_hints[0]).to.include({
        code: 'check_digit_mismatch',
      });
      expect((await gw.get(HISTORY)).body.correction_hints[0]).to.include({
        parameter: 'number',
        code: 'missing_required',
      });
      const unknown = await gw.get(`${HISTORY}?number=7123456789012`);
      expect(unknown.status).to.equal(404);
      expect(unknown.body.error).to.equal('corporate_number_not_found');
    });
  });
});
