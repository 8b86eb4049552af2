/**
 * enrich-company-history over HTTP: a gateway on a store that imported the real Tottori full file
 * and two differential files written in the NTA layout (SQLite; MongoDB with a sample of the file
 * when MONGODB_URI is set), on the preview and the paid (broker) paths; and on the snapshot, which
 * holds no history and says so.
 */
import { expect } from 'chai';
import { startTestGateway, type TestGateway } from '../../test/support/gateway';
import { BANK, KEISHIN, describeOnHistoryStores } from '../../test/support/history-files';

/** What a test reads of a state in an answer. */
interface StateJson {
  change_date: string;
  process: { code: string; name_en: string };
  changed: string[];
  corporation: { legal_name: string };
}

const HISTORY = '/preview/v1/enrich/company-history';
const PLUGINS = ['enrich-company-history'];

describe('enrich-company-history (enrich/company-history)', () => {
  describeOnHistoryStores(PLUGINS, (gateway, records) => {
    it('lists every recorded state oldest first, with what changed, the process and its meaning', async () => {
      const res = await gateway().get(`${HISTORY}?number=${BANK}`);
      expect(res.status).to.equal(200);
      const bank = records().get(BANK)!;
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

      const absorbed = await gateway().get(`${HISTORY}?number=${KEISHIN}`);
      const last = absorbed.body.states.at(-1);
      expect(last).to.deep.include({ change_date: '2026-08-08', changed: ['closed', 'successor'] });
      expect(last.process).to.include({ code: '71', name_en: 'absorbed by merger' });
      expect(last.corporation.closure).to.include({ date: '2026-08-08', successor_corporate_number: BANK });
    });

    it('answers the same on the paid path (/broker/call), charging the price', async () => {
      const preview = await gateway().get(`${HISTORY}?number=${BANK}`);
      const apiKey = (await gateway().post('/keys/create', { owner_label: 'history test' })).body.api_key;
      const status = async () => (await gateway().get('/keys/status', { 'X-API-Key': apiKey })).body;
      const before = await status();
      const paid = await gateway().post(
        '/broker/call',
        { product_id: preview.body._gateway.production.broker.product_id, query: { number: BANK } },
        { 'X-API-Key': apiKey },
      );
      expect(paid.status).to.equal(200);
      expect(paid.body.states).to.deep.equal(preview.body.states);
      const after = await status();
      expect(before.balance.micro_usdc - after.balance.micro_usdc).to.equal(20_000);
    });
  });

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
