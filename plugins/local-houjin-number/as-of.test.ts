/**
 * as_of on the corporate-number look-up: the state in force on a date, from the history the
 * imported NTA files recorded (the real Tottori file and two differentials in the NTA layout, on
 * SQLite; on MongoDB too when MONGODB_URI is set).
 */
import { expect } from 'chai';
import { BANK, describeOnHistoryStores } from '../../test/support/history-files';

const NUMBER = '/preview/v1/local/houjin-number/lookup';

describe('local-houjin-number: as_of', () => {
  describeOnHistoryStores(['local-houjin-number'], (gateway, records) => {
    it('answers the state then in force, before, on and after the change', async () => {
      const bank = records().get(BANK)!;
      const before = await gateway().get(`${NUMBER}?number=${BANK}&as_of=2026-07-31`);
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
      const on = await gateway().get(`${NUMBER}?number=${BANK}&as_of=2026-08-01`);
      expect(on.body.corporation.legal_name).to.equal('株式会社とっとり銀行');
      expect(on.body.state_as_of.in_force_since).to.equal('2026-08-01');
      const after = await gateway().get(`${NUMBER}?number=${BANK}&as_of=2030-01-01`);
      expect(after.body.corporation.legal_name).to.equal('株式会社とっとり銀行');
      const without = await gateway().get(`${NUMBER}?number=${BANK}`);
      expect(without.body).to.not.have.property('state_as_of');
    });

    it('says up to which date the register is known, and flags a date past it (issue 36)', async () => {
      // The newest file imported is the differential of 2026-08-10: nothing after it is known here.
      const future = await gateway().get(`${NUMBER}?number=${BANK}&as_of=2099-01-01`);
      expect(future.status, future.text).to.equal(200);
      expect(future.body.state_as_of).to.include({
        date: '2099-01-01',
        register_known_until: '2026-08-10',
        beyond_register: true,
      });
      expect(future.body.state_as_of.note).to.contain('known up to 2026-08-10');
      const known = await gateway().get(`${NUMBER}?number=${BANK}&as_of=2026-08-10`);
      expect(known.body.state_as_of).to.include({
        register_known_until: '2026-08-10',
        beyond_register: false,
      });
    });

    it('says plainly when the history held starts after as_of (404 history_not_held), and refuses bad dates', async () => {
      const res = await gateway().get(`${NUMBER}?number=${BANK}&as_of=2010-01-01`);
      expect(res.status).to.equal(404);
      expect(res.body).to.include({
        error: 'history_not_held',
        history_starts: records().get(BANK)!.changeDate,
        history_recorded: true,
        as_of: '2010-01-01',
      });
      for (const bad of ['2026-02-30', '20260801', 'yesterday']) {
        const refused = await gateway().get(`${NUMBER}?number=${BANK}&as_of=${bad}`);
        expect(refused.status, bad).to.equal(422);
        expect(refused.body.correction_hints[0], bad).to.include({
          parameter: 'as_of',
          code: 'invalid_date',
        });
      }
    });
  });
});
