/**
 * The invoice registration look-up over HTTP on a store holding the register's full files and differentials
 * (made here in the NTA layout, test/support/invoice-register-history.ts): a sole proprietor's
 * registration with only what the register publishes and no registry cross-check; `as_of` answers
 * the registration on a date, or says the history held starts later; a bad date is refused with
 * the code and hint of every date parameter.
 */
import { expect } from 'chai';
import { T, gatewayOnRegisterHistory } from '../../test/support/invoice-register-history';

const LOOKUP = '/preview/v1/local/invoice/issuer-registration-lookup';

describe('invoice look-ups over the register history: sole proprietors and as_of', () => {
  const gw = gatewayOnRegisterHistory(['local-invoice-lookup']);

  it("a sole proprietor's registration: what the register published, no corporate registry consulted", async () => {
    const res = await gw().get(`${LOOKUP}?number=${T.yamada}`);
    expect(res.status, res.text).to.equal(200);
    expect(res.body.registration).to.deep.include({
      status: 'registered',
      confirmed: true,
      basis: 'register_file',
      registrant_kind: 'individual',
      legal_name: '山田太郎',
      trade_name: '山田書店',
      address: { line: '東京都千代田区神田小川町２丁目２番地' },
      on_date: null,
    });
    expect(res.body.corporate_number_check.holder).to.equal('individual');
    expect(res.body).to.include({ registry_cross_check: 'not_applicable', corporation: null });
    expect(res.body.notes.join(' ')).to.contain('sole proprietor');

    const sato = await gw().get(`${LOOKUP}?number=${T.sato}`);
    expect(sato.body.registration).to.include({ address: null, status: 'expired' });
    expect(sato.body.registration.publication_note).to.match(/No address was published\.$/);
  });

  it('as_of: the registration on that date, in force or not, with its name and address then', async () => {
    const res = await gw().get(`${LOOKUP}?number=${T.yamada}&as_of=2026-01-01`);
    expect(res.status, res.text).to.equal(200);
    expect(res.body.query).to.include({ as_of: '2026-01-01' });
    expect(res.body.registration).to.deep.include({
      status: 'registered',
      trade_name: '山田商店',
      address: { line: '東京都千代田区神田神保町１丁目１番地' },
    });
    expect(res.body.registration.on_date).to.include({
      date: '2026-01-01',
      in_force: true,
      state_known: true,
      history_complete: true,
    });

    const cancelled = await gw().get(`${LOOKUP}?number=${T.sony}&as_of=2026-11-02`);
    expect(cancelled.body.registration).to.include({ status: 'cancelled', disposal_date: '2026-11-02' });
    expect(cancelled.body.registration.on_date).to.include({ in_force: false });
  });

  it('as_of before the first publication: the note says the state shown was published after that date (issue 36)', async () => {
    // Yamada was first published on 2023-09-01 (process 01): on 2023-08-01 nothing was published
    // yet, so the note cannot say the state shown was "published on or before" that day.
    const res = await gw().get(`${LOOKUP}?number=${T.yamada}&as_of=2023-08-01`);
    expect(res.status, res.text).to.equal(200);
    const onDate = res.body.registration.on_date;
    expect(onDate).to.include({ state_known: true, state_date: '2023-09-01', history_complete: true });
    expect(onDate.note).to.not.contain('on or before 2023-08-01');
    expect(onDate.note).to.contain('first published this registration on 2023-09-01, after 2023-08-01');
  });

  it('as_of before the history held: in force from the dates, and says plainly the history starts later', async () => {
    const res = await gw().get(`${LOOKUP}?number=T5010401067252&as_of=2024-01-01`);
    expect(res.status, res.text).to.equal(200);
    expect(res.body.registration).to.include({ status: 'registered', legal_name: null });
    expect(res.body.registration.on_date).to.include({
      in_force: true,
      state_known: false,
      history_starts: '2024-04-01',
    });
    expect(res.body.notes.join(' ')).to.contain('starts later');

    // A number the files do not hold: no dated state, and the answer says so.
    const other = await gw().get(`${LOOKUP}?number=T2010001008824&as_of=2024-01-01`);
    expect(other.body.registration.on_date).to.include({
      in_force: null,
      state_known: false,
      history_starts: null,
    });
    expect(other.body.registration.on_date.note).to.contain('No dated states');
  });

  for (const bad of ['2026-02-30', '2026-13-01', '2026-1-1', '20261122', '', '2026-11-22T00:00']) {
    it(`refuses as_of=${JSON.stringify(bad)} with invalid_date and a hint`, async () => {
      const res = await gw().get(`${LOOKUP}?number=${T.yamada}&as_of=${encodeURIComponent(bad)}`);
      expect(res.status).to.equal(422);
      expect(res.body.correction_hints[0]).to.include({ parameter: 'as_of', code: 'invalid_date' });
    });
  }
});
