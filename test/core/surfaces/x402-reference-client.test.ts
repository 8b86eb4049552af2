/**
 * The gateway driven by the x402 reference client from npm, unchanged: @x402/fetch wrapping fetch,
 * @x402/evm's exact scheme, a viem local account. The client reads PAYMENT-REQUIRED, signs, retries
 * with PAYMENT-SIGNATURE and reads PAYMENT-RESPONSE. Real clocks on both sides (the client signs
 * with Date.now()).
 */
import { expect } from 'chai';
import { ExactEvmScheme } from '@x402/evm';
import { decodePaymentResponseHeader, wrapFetchWithPaymentFromConfig } from '@x402/fetch';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startFacilitatorStandin, type FacilitatorStandin } from '../../support/facilitator-standin';
import { ECHO, fixtures, PRICED } from '../../support/fx-endpoints';
import { startTestGateway, type TestGateway } from '../../support/gateway';
import { randomAddress } from '../payments/payer';

describe('x402 reference client (@x402/fetch + @x402/evm) against the paid surface', () => {
  let standin: FacilitatorStandin;
  let gw: TestGateway;
  const payTo = randomAddress();

  before(async () => {
    standin = await startFacilitatorStandin();
    gw = await startTestGateway({
      ...fixtures(ECHO, PRICED),
      env: { X402_PAY_TO: payTo, X402_FACILITATOR_URL: standin.url },
    });
  });
  after(async () => {
    await gw.close();
    await standin.close();
  });

  it('first request 402, the client signs, the retry is 200 with the data and the settlement', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const seen: Array<{ status: number; sentPayment: boolean }> = [];
    const recordingFetch: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      const res = await fetch(request);
      seen.push({
        status: res.status,
        sentPayment: request.headers.has('PAYMENT-SIGNATURE') || request.headers.has('X-PAYMENT'),
      });
      return res;
    };
    const payingFetch = wrapFetchWithPaymentFromConfig(recordingFetch, {
      schemes: [{ network: 'eip155:8453', client: new ExactEvmScheme(account) }],
    });

    const res = await payingFetch(`${gw.url}/v1/${ECHO.tail}?n=7`);
    const body = (await res.json()) as {
      n: number;
      _gateway: { surface: string; payment: Record<string, unknown> };
    };
    expect(seen).to.deep.equal([
      { status: 402, sentPayment: false },
      { status: 200, sentPayment: true },
    ]);
    expect(res.status).to.equal(200);
    expect(body.n).to.equal(7);
    expect(body._gateway.surface).to.equal('x402');
    expect(body._gateway.payment).to.include({
      payer: account.address,
      amount_micro_usdc: '1000',
      payTo: payTo,
      x402_version: 2,
    });
    const settlement = decodePaymentResponseHeader(res.headers.get('PAYMENT-RESPONSE')!);
    expect(settlement).to.include({ success: true, network: 'eip155:8453', payer: account.address });
    const transfers = standin.transfersFrom(account.address);
    expect(transfers).to.have.length(1);
    expect(transfers[0]).to.include({ to: payTo, value: '1000', transaction: settlement.transaction });
  });

  it('pays each endpoint its own price', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const payingFetch = wrapFetchWithPaymentFromConfig(fetch, {
      schemes: [{ network: 'eip155:8453', client: new ExactEvmScheme(account) }],
    });
    const res = await payingFetch(`${gw.url}/v1/${PRICED.tail}?n=2`);
    expect(res.status).to.equal(200);
    expect(standin.transfersFrom(account.address).map((t) => t.value)).to.deep.equal([String(PRICED.price)]);
  });
});
