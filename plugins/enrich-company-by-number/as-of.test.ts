/**
 * as_of on company-by-number: the state in force on a date, from the history the imported NTA
 * files recorded (the real Tottori file and two differentials in the NTA layout, on SQLite; on
 * MongoDB too when MONGODB_URI is set).
 */
import { expect } from 'chai';
import { BANK, KEISHIN, describeOnHistoryStores } from '../../test/support/history-files';

const BY_NUMBER = '/preview/v1/enrich/company-by-number';

describe('enrich-company-by-number: as_of', () => {
  describeOnHistoryStores(['enrich-company-by-number'], (gateway, records) => {
    it('answers the state then in force, before, on and after a rename', async () => {
      const bank = records().get(BANK)!;
      const before = await gateway().get(`${BY_NUMBER}?number=${BANK}&as_of=2026-07-31`);
      expect(before.status).to.equal(200);
      expect(before.body.corporation.legal_name).to.equal(bank.name);
      expect(before.body.state_as_of).to.deep.equal({
        date: '2026-07-31',
        in_force_since: bank.changeDate,
        history_starts: bank.changeDate,
        history_recorded: true,
        register_known_until: '2026-08-10',
        beyond_register: false,
        note: null,
      });
      const on = await gateway().get(`${BY_NUMBER}?number=${BANK}&as_of=2026-08-01`);
      expect(on.body.corporation.legal_name).to.equal('株式会社とっとり銀行');
      expect(on.body.state_as_of.in_force_since).to.equal('2026-08-01');
      const without = await gateway().get(`${BY_NUMBER}?number=${BANK}`);
      expect(without.body).to.not.have.property('state_as_of');
    });

    it('a corporation absorbed by merger: active the day before, closed on the day', async () => {
      const byNumber = await gateway().get(`${BY_NUMBER}?number=${KEISHIN}&as_of=2026-08-07`);
      expect(byNumber.body.corporation.status).to.equal('active');
      expect(byNumber.body.names.legal_name).to.equal(records().get(KEISHIN)!.name);
      const closed = await gateway().get(`${BY_NUMBER}?number=${KEISHIN}&as_of=2026-08-08`);
      expect(closed.body.corporation.status).to.equal('closed');
    });

    it('refuses a bad date with invalid_date and a hint', async () => {
      const refused = await gateway().get(`${BY_NUMBER}?number=${BANK}&as_of=2026-02-30`);
      expect(refused.status).to.equal(422);
      expect(refused.body.correction_hints[0]).to.include({ parameter: 'as_of', code: 'invalid_date' });
    });
  });
});
