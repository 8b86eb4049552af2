/**
 * The x402 payment-identifier extension on /mcp (payment in params._meta["x402/payment"]): the
 * PaymentPayload built by the stock client (@x402/core's x402Client via @x402/fetch, @x402/evm's
 * exact scheme) with the id put in by @x402/extensions' helper, against the facilitator stand-in,
 * through the official MCP SDK client. A settlement that timed out is served when the same call
 * comes again with the same payment, with one settlement in all; later repeats get the same answer;
 * the id with another payload is refused; the same payload on HTTP is refused.
 */
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ExactEvmScheme } from '@x402/evm';
import {
  appendPaymentIdentifierToExtensions,
  generatePaymentId,
  PAYMENT_IDENTIFIER,
} from '@x402/extensions/payment-identifier';
import { x402Client } from '@x402/fetch';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startFacilitatorStandin, type FacilitatorStandin } from '../../support/facilitator-standin';
import { ECHO, fixtures } from '../../support/fx-endpoints';
import { startTestGateway, type TestGateway } from '../../support/gateway';
import { callTool, connectMcp, structured } from '../../support/mcp-client';
import { randomAddress, toBase64 } from '../payments/payer';

const TOOL = ECHO.endpointId;
const ARGS = { n: 6 };

describe('MCP /mcp: the x402 payment identifier (stock client + @x402/extensions)', () => {
  let standin: FacilitatorStandin;
  let gw: TestGateway;
  let client: Client;
  const payTo = randomAddress();

  before(async () => {
    standin = await startFacilitatorStandin();
    gw = await startTestGateway({
      ...fixtures(ECHO),
      env: { X402_PAY_TO: payTo, X402_FACILITATOR_URL: standin.url, X402_FACILITATOR_TIMEOUT_MS: '1500' },
    });
    client = await connectMcp(gw, '/mcp');
  });
  after(async () => {
    await client.close();
    await gw.close();
    await standin.close();
  });

  /** A buyer with one payment identifier, appended to every PaymentPayload its client builds. */
  function buyer(paymentId: string) {
    const account = privateKeyToAccount(generatePrivateKey());
    const x402 = x402Client.fromConfig({
      schemes: [{ network: 'eip155:8453', client: new ExactEvmScheme(account) }],
    });
    x402.onBeforePaymentCreation(async ({ paymentRequired }) => {
      // The gateway declares the extension; the stock helper adds the id only where it is declared.
      if (!paymentRequired.extensions?.[PAYMENT_IDENTIFIER])
        throw new Error('no payment-identifier declared');
      appendPaymentIdentifierToExtensions(paymentRequired.extensions, paymentId);
    });
    const payload = async () => x402.createPaymentPayload(structured(await callTool(client, TOOL, ARGS)));
    return { account, payload };
  }
  const pay = (p: unknown, args: Record<string, unknown> = ARGS) =>
    callTool(client, TOOL, args, { 'x402/payment': p });

  it('a settlement that timed out is served when the same call comes again with the same payment; repeats get the same answer; one settlement', async () => {
    const b = buyer(generatePaymentId());
    const payment = await b.payload();
    standin.settleBehaviour = 'settle_then_hang';
    const pending = await pay(payment);
    expect(pending.isError).to.equal(true);
    expect(structured(pending)).to.include({
      error: 'settlement_pending',
      redeem_with: 'payment_identifier',
    });
    expect(structured(pending)).to.not.have.property('redemption_ticket');
    expect(structured(pending).hint)
      .to.include('params._meta["x402/payment"]')
      .and.include('payment identifier');
    expect(standin.transfersFrom(b.account.address)).to.have.length(1);

    standin.settleBehaviour = 'normal';
    const served = await pay(payment);
    expect(served.isError).to.not.equal(true);
    expect(structured(served).n).to.equal(6);
    const [transfer] = standin.transfersFrom(b.account.address);
    const settlement = served._meta?.['x402/payment-response'];
    expect(settlement).to.include({ success: true, transaction: transfer.transaction });
    expect(served._meta).to.not.have.property('idempotent-replayed');

    const calls = { ...standin.calls };
    const again = await pay(payment);
    expect(again.isError).to.not.equal(true);
    expect(structured(again).n).to.equal(6);
    expect(again._meta?.['x402/payment-response']).to.deep.equal(settlement);
    expect(again._meta?.['idempotent-replayed']).to.equal(true);
    expect(structured(again)._gateway.payment.transaction).to.equal(transfer.transaction);
    expect(standin.calls).to.deep.equal(calls);
    expect(standin.transfersFrom(b.account.address)).to.have.length(1);
  });

  it('the identifier with another payload is refused (payment_identifier_conflict); the same payload on HTTP or with other arguments too', async () => {
    const b = buyer(generatePaymentId());
    const payment = await b.payload();
    standin.settleBehaviour = 'normal';
    expect((await pay(payment)).isError).to.not.equal(true);
    const calls = { ...standin.calls };

    const conflict = await pay(await b.payload());
    expect(conflict.isError).to.equal(true);
    expect(structured(conflict).error).to.equal('payment_identifier_conflict');
    expect(structured(conflict)).to.not.have.property('n');

    const otherArgs = await pay(payment, { n: 7 });
    expect(otherArgs.isError).to.equal(true);
    expect(structured(otherArgs).payment_error.code).to.equal('payment_already_used');

    const onHttp = await gw.get(`/v1/${ECHO.tail}?n=6`, { 'PAYMENT-SIGNATURE': toBase64(payment) });
    expect(onHttp.status).to.equal(402);
    expect(onHttp.body.payment_error.code).to.equal('resource_mismatch');

    expect(standin.calls).to.deep.equal(calls);
    expect(standin.transfersFrom(b.account.address)).to.have.length(1);
  });
});
