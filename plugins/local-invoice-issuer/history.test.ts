/**
 * The invoice search by name over a store holding the register's full files and differentials
 * (made in the NTA layout, test/support/invoice-register-history.ts): `as_of` answers each
 * candidate registration on a date; a bad date is refused with the code and hint of every date
 * parameter.
 */
import { expect } from 'chai';
import { T, gatewayOnRegisterHistory } from '../../test/support/invoice-register-history';

const BY_NAME = '/preview/v1/local/invoice/issuer-by-name';

describe('invoice search by name over the register history: as_of', () => {
  const gw = gatewayOnRegisterHistory(['local-invoice-issuer']);

  it('as_of on the search by name: each candidate registration on that date', async () => {
    const res = await gw().get(`${BY_NAME}?name=${encodeURIComponent('ソニーグループ')}&as_of=2026-11-02`);
    expect(res.status, res.text).to.equal(200);
    expect(res.body.query).to.include({ as_of: '2026-11-02' });
    const sony = res.body.candidates.find(
      (c: { registration: { registration_number: string } }) => c.registration.registration_number === T.sony,
    );
    expect(sony.registration).to.include({ status: 'cancelled' });
    expect(sony.registration.on_date).to.include({ date: '2026-11-02', in_force: false });
    // Without as_of: today's registration, no on_date.
    const today = await gw().get(`${BY_NAME}?name=${encodeURIComponent('ソニーグループ')}`);
    expect(today.body.candidates[0].registration.on_date).to.equal(null);
  });

  for (const bad of ['2026-02-30', '2026-13-01', '2026-1-1', '20261122', '', '2026-11-22T00:00']) {
    it(`refuses as_of=${JSON.stringify(bad)} with invalid_date and a hint`, async () => {
      const res = await gw().get(`${BY_NAME}?name=x&as_of=${encodeURIComponent(bad)}`);
      expect(res.status).to.equal(422);
      expect(res.body.correction_hints[0]).to.include({ parameter: 'as_of', code: 'invalid_date' });
    });
  }
});
