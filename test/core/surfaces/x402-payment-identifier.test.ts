/**
 * The x402 payment-identifier extension on the paid surface, driven by the stock client from npm:
 * @x402/fetch (wrapFetchWithPayment, x402Client, x402HTTPClient), @x402/evm's exact scheme and
 * @x402/extensions' payment-identifier helpers putting the id in the PaymentPayload, against the
 * facilitator stand-in. A settlement that timed out is served when the same payment is sent again,
 * with one settlement in all; later repeats get the same answer again; the id with another payload
 * is a 409; the same payload on another endpoint or query is refused. Real clocks on both sides.
 */
import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { ExactEvmScheme } from '@x402/evm';
import {
  appendPaymentIdentifierToExtensions,
  generatePaymentId,
  PAYMENT_IDENTIFIER,
} from '@x402/extensions/payment-identifier';
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client, x402HTTPClient } from '@x402/fetch';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startFacilitatorStandin, type FacilitatorStandin } from '../../support/facilitator-standin';
import { ECHO, fixtures, SLOW } from '../../support/fx-endpoints';
import { startTestGateway, type TestGateway } from '../../support/gateway';
import { fromBase64, randomAddress } from '../payments/payer';

/** Short, so that a held settle answer times out quickly; a loopback answer never comes near it. */
const TIMEOUT_MS = '1500';

interface Seen {
  status: number;
  payment: string | null;
  body: Record<string, unknown>;
  headers: Headers;
}

/**
 * A buyer as the extension's documentation shows it: the stock client, and one payment identifier
 * for one logical request, appended to the PaymentPayload's extensions before each payment.
 */
function buyer(paymentId: string) {
  const account = privateKeyToAccount(generatePrivateKey());
  const client = x402Client.fromConfig({
    schemes: [{ network: 'eip155:8453', client: new ExactEvmScheme(account) }],
  });
  client.onBeforePaymentCreation(async ({ paymentRequired }) => {
    // The gateway declares the extension; the stock helper adds the id only where it is declared.
    if (!paymentRequired.extensions?.[PAYMENT_IDENTIFIER]) throw new Error('no payment-identifier declared');
    appendPaymentIdentifierToExtensions(paymentRequired.extensions, paymentId);
  });
  return { account, client, http: new x402HTTPClient(client) };
}

/**
 * The fetch below the payment wrapper: records every exchange and, like generic retry layers,
 * repeats a 503 that carries Retry-After unchanged (the same payment header), up to `retries`
 * times (after 50 ms, not the 5 s asked: a test does not wait).
 */
function recordingFetch(seen: Seen[], retries = 0): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(request.clone());
      const text = await res.clone().text();
      seen.push({
        status: res.status,
        payment: request.headers.get('PAYMENT-SIGNATURE'),
        body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
        headers: res.headers,
      });
      if (res.status !== 503 || !res.headers.has('retry-after') || attempt === retries) return res;
      await sleep(50);
    }
  };
}

describe('x402 payment identifier (stock client + @x402/extensions) on the paid surface', () => {
  let standin: FacilitatorStandin;
  let gw: TestGateway;
  const payTo = randomAddress();
  const url = (tail: string, query: string) => `${gw.url}/v1/${tail}?${query}`;

  before(async () => {
    standin = await startFacilitatorStandin();
    gw = await startTestGateway({
      ...fixtures(ECHO, SLOW),
      env: { X402_PAY_TO: payTo, X402_FACILITATOR_URL: standin.url, X402_FACILITATOR_TIMEOUT_MS: TIMEOUT_MS },
    });
  });
  after(async () => {
    await gw.close();
    await standin.close();
  });
  beforeEach(() => {
    standin.settleBehaviour = 'normal';
    standin.repeatSettle = 'idempotent';
  });

  /** The payment header the stock client builds for `target`, sent by the test itself. */
  async function paymentHeader(b: ReturnType<typeof buyer>, target: string): Promise<string> {
    const unpaid = await fetch(target);
    const required = b.http.getPaymentRequiredResponse((n) => unpaid.headers.get(n), await unpaid.json());
    const headers = b.http.encodePaymentSignatureHeader(await b.client.createPaymentPayload(required));
    return headers['PAYMENT-SIGNATURE']!;
  }
  const resend = (target: string, header: string) =>
    fetch(target, { headers: { 'PAYMENT-SIGNATURE': header } }).then(async (res) => ({
      res,
      body: (await res.json()) as Record<string, any>, // eslint-disable-line @typescript-eslint/no-explicit-any
    }));

  it('a settlement that timed out is served when the same payment comes again: one settlement in all; repeats get the same answer', async () => {
    const b = buyer(generatePaymentId());
    const seen: Seen[] = [];
    standin.settleBehaviour = 'settle_then_hang';
    const res = await wrapFetchWithPayment(recordingFetch(seen, 2), b.client)(url(ECHO.tail, 'n=7'));

    expect(seen.map((s) => s.status)).to.deep.equal([402, 503, 200]);
    expect(seen[1].payment).to.be.a('string');
    expect(seen[2].payment).to.equal(seen[1].payment);
    const pending = seen[1];
    expect(pending.body).to.include({ error: 'settlement_pending', redeem_with: 'payment_identifier' });
    expect(pending.body).to.not.have.property('redemption_ticket');
    expect(pending.headers.get('payment-redemption-ticket')).to.equal(null);
    expect(pending.body).to.not.have.property('n');

    expect(res.status).to.equal(200);
    const body = (await res.json()) as { n: number; _gateway: { payment: Record<string, unknown> } };
    expect(body.n).to.equal(7);
    const transfers = standin.transfersFrom(b.account.address);
    expect(transfers).to.have.length(1);
    const settlement = decodePaymentResponseHeader(res.headers.get('PAYMENT-RESPONSE')!);
    expect(settlement).to.include({ success: true, transaction: transfers[0].transaction });
    expect(body._gateway.payment.transaction).to.equal(transfers[0].transaction);

    // The same payment again, twice: the same data and settlement, nothing verified or settled.
    const calls = { ...standin.calls };
    for (let i = 0; i < 2; i++) {
      const again = await resend(url(ECHO.tail, 'n=7'), seen[2].payment!);
      expect(again.res.status).to.equal(200);
      expect(again.res.headers.get('idempotent-replayed')).to.equal('true');
      expect(again.res.headers.get('payment-response')).to.equal(res.headers.get('payment-response'));
      expect(again.res.headers.get('x-payment-response')).to.equal(res.headers.get('payment-response'));
      expect(again.body.n).to.equal(7);
      expect(again.body._gateway.payment).to.include({
        transaction: transfers[0].transaction,
        payer: b.account.address,
      });
      expect(again.body._gateway.payment.note).to.match(/given again; nothing more was charged/);
    }
    expect(standin.calls).to.deep.equal(calls);
    expect(standin.transfersFrom(b.account.address)).to.have.length(1);
  });

  it('the identifier with another payload: 409 payment_identifier_conflict, nothing verified or settled', async () => {
    const paymentId = generatePaymentId();
    const b = buyer(paymentId);
    standin.settleBehaviour = 'settle_then_hang';
    const first: Seen[] = [];
    const pending = await wrapFetchWithPayment(recordingFetch(first), b.client)(url(ECHO.tail, 'n=2'));
    expect(pending.status).to.equal(503);

    // The stock client, called again for the same logical request, signs a new payment: same id.
    const calls = { ...standin.calls };
    const second: Seen[] = [];
    const conflict = await wrapFetchWithPayment(recordingFetch(second), b.client)(url(ECHO.tail, 'n=2'));
    expect(second.map((s) => s.status)).to.deep.equal([402, 409]);
    expect(second[1].payment).to.not.equal(first[1].payment);
    expect(fromBase64(second[1].payment).extensions[PAYMENT_IDENTIFIER].info.id).to.equal(paymentId);
    expect(conflict.status).to.equal(409);
    const body = (await conflict.json()) as Record<string, string>;
    expect(body.error).to.equal('payment_identifier_conflict');
    expect(body.hint)
      .to.match(/resend that payment/)
      .and.match(/new payment identifier/);
    expect(JSON.stringify(body)).to.not.include(paymentId);
    expect(standin.calls).to.deep.equal(calls);

    // The original payment still redeems its settlement, once; the conflict changed nothing.
    standin.settleBehaviour = 'normal';
    const served = await resend(url(ECHO.tail, 'n=2'), first[1].payment!);
    expect(served.res.status).to.equal(200);
    expect(served.body.n).to.equal(2);
    expect(standin.transfersFrom(b.account.address)).to.have.length(1);
    const afterwards = await wrapFetchWithPayment(fetch, b.client)(url(ECHO.tail, 'n=2'));
    expect(afterwards.status).to.equal(409);
    expect(standin.transfersFrom(b.account.address)).to.have.length(1);
  });

  it('the same payload on another endpoint or another query is refused, while its settlement is unknown and once settled', async () => {
    const b = buyer(generatePaymentId());
    const header = await paymentHeader(b, url(ECHO.tail, 'n=3'));
    standin.settleBehaviour = 'settle_then_hang';
    const pending = await resend(url(ECHO.tail, 'n=3'), header);
    expect(pending.res.status).to.equal(503);
    // Unknown settlement: only its own request may redeem it.
    const otherQueryPending = await resend(url(ECHO.tail, 'n=4'), header);
    expect(otherQueryPending.res.status).to.equal(409);
    expect(otherQueryPending.body).to.include({
      error: 'payment_redemption_refused',
      reason: 'request_mismatch',
    });

    standin.settleBehaviour = 'normal';
    expect((await resend(url(ECHO.tail, 'n=3'), header)).res.status).to.equal(200);
    const otherEndpoint = await resend(url(SLOW.tail, 'n=3&ms=0'), header);
    expect(otherEndpoint.res.status).to.equal(402);
    expect(otherEndpoint.body.payment_error.code).to.equal('resource_mismatch');
    const otherQuery = await resend(url(ECHO.tail, 'n=4'), header);
    expect(otherQuery.res.status).to.equal(402);
    expect(otherQuery.body.payment_error.code).to.equal('payment_already_used');
    expect(otherQuery.body).to.not.have.property('n');
    expect(standin.transfersFrom(b.account.address)).to.have.length(1);
  });

  it('the same payment while its first call runs: 409 payment_in_progress with Retry-After; afterwards the answer', async () => {
    const b = buyer(generatePaymentId());
    const target = url(SLOW.tail, 'ms=800&n=5');
    const header = await paymentHeader(b, target);
    const first = resend(target, header);
    await sleep(300);
    const during = await resend(target, header);
    expect(during.res.status).to.equal(409);
    expect(during.body.error).to.equal('payment_in_progress');
    expect(during.res.headers.get('retry-after')).to.equal('5');
    expect(during.body.hint).to.match(/same answer/);
    const answered = await first;
    expect(answered.res.status).to.equal(200);
    const after = await resend(target, header);
    expect(after.res.status).to.equal(200);
    expect(after.body.n).to.equal(5);
    expect(after.res.headers.get('payment-response')).to.equal(answered.res.headers.get('payment-response'));
    expect(standin.transfersFrom(b.account.address)).to.have.length(1);
  });

  it('an identifier outside the extension’s rules is refused before anything: 402 invalid_payment_identifier', async () => {
    const b = buyer(generatePaymentId());
    const payload = fromBase64(await paymentHeader(b, url(ECHO.tail, 'n=1')));
    payload.extensions[PAYMENT_IDENTIFIER].info.id = 'too short';
    const calls = { ...standin.calls };
    const refused = await resend(
      url(ECHO.tail, 'n=1'),
      Buffer.from(JSON.stringify(payload)).toString('base64'),
    );
    expect(refused.res.status).to.equal(402);
    expect(refused.body.payment_error.code).to.equal('invalid_payment_identifier');
    expect(refused.body.payment_error.message).to.match(/16 to 128 characters/);
    expect(standin.calls).to.deep.equal(calls);
  });
});
