/**
 * x402 over MCP (tool-result binding) with real viem signatures against the facilitator stand-in:
 * the payment request of an unpaid call, payment by the x402 reference client's own payload
 * builder (@x402/core's x402Client with @x402/evm's exact scheme), one settle per payment, replays
 * refused on MCP and on HTTP alike (one payment ledger), facilitator failures that answer no data
 * and charge nothing. Real clocks on both sides (the reference client signs with Date.now()).
 */
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ExactEvmScheme } from '@x402/evm';
import { x402Client } from '@x402/fetch';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { signPayerProof } from '../../support/crash-mid-settle';
import { startFacilitatorStandin, type FacilitatorStandin } from '../../support/facilitator-standin';
import { ECHO, fixtures, SLOW } from '../../support/fx-endpoints';
import { startTestGateway, type TestGateway } from '../../support/gateway';
import { callTool, connectMcp, structured } from '../../support/mcp-client';
import { FIXTURE_ATTRIBUTION } from '../../fixtures/fixture-data';
import {
  fromBase64,
  randomAddress,
  TestPayer,
  toBase64,
  USDC_ON_BASE,
  usdcOnBase,
  type Terms,
} from '../payments/payer';

const TOOL = ECHO.endpointId;
const ARGS = { n: 3 };
const RESOURCE = `mcp://tool/${TOOL}`;
const HTTP_PATH = `/v1/${ECHO.tail}?n=3`;
const now = () => Math.floor(Date.now() / 1000);

describe('MCP /mcp paid per call with x402 (tool-result binding)', () => {
  let standin: FacilitatorStandin;
  let gw: TestGateway;
  let client: Client;
  let terms: Terms;
  let payer: TestPayer;
  const payTo = randomAddress();

  before(async () => {
    standin = await startFacilitatorStandin();
    gw = await startTestGateway({
      ...fixtures(ECHO, SLOW),
      env: { X402_PAY_TO: payTo, X402_FACILITATOR_URL: standin.url, TRIAL_CREDIT_MICRO_USDC: '1500' },
    });
    client = await connectMcp(gw, '/mcp');
    terms = usdcOnBase(payTo);
  });
  after(async () => {
    await client.close();
    await gw.close();
    await standin.close();
  });
  beforeEach(() => {
    payer = new TestPayer();
    standin.verifyBehaviour = 'normal';
    standin.settleBehaviour = 'normal';
  });

  /** A v2 PaymentPayload as an x402 client builds it, naming `resource` (none: no resource field). */
  async function payload(resource: string | null = RESOURCE, o = {}): Promise<Record<string, unknown>> {
    const signed = await payer.sign(terms, now(), o);
    const p = payer.v2(signed, terms, resource ?? 'unused');
    if (resource === null) delete p.resource;
    return p;
  }
  const pay = (p: unknown, args: Record<string, unknown> = ARGS, c = client) =>
    callTool(c, TOOL, args, { 'x402/payment': p });
  const isData = (r: CallToolResult) => !r.isError && structured(r)._gateway !== undefined;

  it('answers an unpaid call with the x402 v2 PaymentRequired of the tool: the terms of the HTTP 402', async () => {
    const before = { ...standin.calls };
    const result = await callTool(client, TOOL, ARGS);
    expect(result.isError).to.equal(true);
    const required = structured(result);
    const http = await gw.get(HTTP_PATH);
    expect(http.status).to.equal(402);
    const httpRequired = fromBase64(http.headers.get('payment-required'));
    expect(required).to.include({ x402Version: 2, error: 'payment_required' });
    expect(required.resource).to.deep.equal({ ...httpRequired.resource, url: RESOURCE });
    expect(required.accepts).to.deep.equal(httpRequired.accepts);
    expect(required.accepts[0]).to.include({
      scheme: 'exact',
      network: 'eip155:8453',
      amount: '1000',
      asset: USDC_ON_BASE,
      payTo,
    });
    expect(required.message).to.include('params._meta["x402/payment"]');
    expect(standin.calls).to.deep.equal(before);
  });

  it('is paid by a payload the x402 reference client builds from that result: one settle, the data, the settlement in _meta', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const x402 = x402Client.fromConfig({
      schemes: [{ network: 'eip155:8453', client: new ExactEvmScheme(account) }],
    });
    const unpaid = await callTool(client, TOOL, ARGS);
    const paymentPayload = await x402.createPaymentPayload(structured(unpaid));
    const settlesBefore = standin.calls.settle;
    const result = await pay(paymentPayload);
    expect(result.isError).to.not.equal(true);
    const body = structured(result);
    expect(body.n).to.equal(3);
    expect(body._gateway).to.include({ surface: 'mcp', transport: 'mcp', paid_by: 'x402' });
    const transfers = standin.transfersFrom(account.address);
    expect(transfers).to.have.length(1);
    expect(transfers[0]).to.include({ value: '1000' });
    expect(transfers[0].to.toLowerCase()).to.equal(payTo.toLowerCase());
    expect(standin.calls.settle).to.equal(settlesBefore + 1);
    expect(result._meta?.['x402/payment-response']).to.deep.equal({
      success: true,
      transaction: transfers[0].transaction,
      network: 'eip155:8453',
      payer: account.address,
    });
    expect(body._gateway.payment).to.include({
      payer: account.address,
      amount_micro_usdc: '1000',
      transaction: transfers[0].transaction,
    });

    // The same payment again: refused, no second settle, no data.
    const replay = await pay(paymentPayload);
    expect(isData(replay)).to.equal(false);
    expect(structured(replay)).to.include({ x402Version: 2, error: 'payment_already_used' });
    expect(structured(replay).payment_error.code).to.equal('payment_already_used');
    expect(standin.calls.settle).to.equal(settlesBefore + 1);
    expect(standin.transfersFrom(account.address)).to.have.length(1);
  });

  it('refuses on HTTP a payment spent on MCP, and on MCP a payment spent on HTTP (one payment ledger)', async () => {
    // A payment naming no resource is valid on both: only the ledger can refuse the second use.
    const first = await payload(null);
    expect(isData(await pay(first))).to.equal(true);
    const onHttp = await gw.get(HTTP_PATH, { 'PAYMENT-SIGNATURE': toBase64(first) });
    expect(onHttp.status).to.equal(402);
    expect(onHttp.body.payment_error.code).to.equal('payment_already_used');

    const second = await payload(null);
    expect((await gw.get(HTTP_PATH, { 'PAYMENT-SIGNATURE': toBase64(second) })).status).to.equal(200);
    const onMcp = await pay(second);
    expect(isData(onMcp)).to.equal(false);
    expect(structured(onMcp).error).to.equal('payment_already_used');

    // An x402 v1 payload (X-PAYMENT on HTTP) is the same payment in MCP's _meta.
    const v1 = payer.v1(await payer.sign(terms, now()));
    expect((await gw.get(HTTP_PATH, { 'X-PAYMENT': toBase64(v1) })).status).to.equal(200);
    expect(structured(await pay(v1)).error).to.equal('payment_already_used');

    // A payment naming the tool is refused on HTTP before the ledger is read, and the reverse.
    const forTool = await payload();
    expect(isData(await pay(forTool))).to.equal(true);
    const toolOnHttp = await gw.get(HTTP_PATH, { 'PAYMENT-SIGNATURE': toBase64(forTool) });
    expect(toolOnHttp.status).to.equal(402);
    expect(toolOnHttp.body.payment_error.code).to.equal('resource_mismatch');
    const forHttp = await payload(`http://gateway.test/v1/${ECHO.tail}`);
    expect(structured(await pay(forHttp)).error).to.equal('resource_mismatch');

    expect(standin.transfersFrom(payer.address)).to.have.length(4);
  });

  it('serves exactly one of the same payment sent six times at once', async () => {
    const p = await payload();
    const all = await Promise.all(Array.from({ length: 6 }, () => pay(p)));
    expect(all.filter(isData)).to.have.length(1);
    for (const r of all.filter((x) => !isData(x))) {
      expect(['payment_in_progress', 'payment_already_used']).to.include(structured(r).error);
    }
    expect(standin.transfersFrom(payer.address)).to.have.length(1);
  });

  it('refuses invalid arguments before the payment is looked at; the same payment then buys the corrected call', async () => {
    const p = await payload();
    const before = { ...standin.calls };
    const bad = await pay(p, { n: 10 });
    expect(bad.isError).to.equal(true);
    expect(structured(bad).error).to.equal('invalid_query');
    expect(structured(bad).correction_hints[0]).to.include({ parameter: 'n', code: 'out_of_range' });
    expect(standin.calls).to.deep.equal(before);
    expect(isData(await pay(p))).to.equal(true);
  });

  it('refuses a wrong payment with a fresh PaymentRequired naming the reason, without asking the facilitator', async () => {
    const before = { ...standin.calls };
    const cases: Array<[unknown, string]> = [
      [await payload(RESOURCE, { value: '999' }), 'amount_mismatch'],
      [await payload(RESOURCE, { to: randomAddress() }), 'recipient_mismatch'],
      [await payload(RESOURCE, { signWith: privateKeyToAccount(generatePrivateKey()) }), 'invalid_signature'],
      [await payload(`mcp://tool/${SLOW.endpointId}`), 'resource_mismatch'],
      [{ x402Version: 2, payload: {} }, 'malformed_payment'],
      ['not an object', 'malformed_payment'],
    ];
    for (const [p, code] of cases) {
      const r = await pay(p);
      expect(isData(r), code).to.equal(false);
      const body = structured(r);
      expect(body, code).to.include({ x402Version: 2, error: code });
      expect(body.payment_error.code).to.equal(code);
      expect(body.accepts[0].amount).to.equal('1000');
    }
    expect(standin.calls).to.deep.equal(before);
  });

  it('a failed settlement answers only the payment error (settlement in _meta), no data, nothing charged', async () => {
    standin.settleBehaviour = 'fail';
    const p = await payload();
    const r = await pay(p);
    expect(r.isError).to.equal(true);
    const body = structured(r);
    expect(body).to.include({ x402Version: 2, error: 'settlement_failed' });
    expect(body).to.not.have.property('_gateway');
    expect(body).to.not.have.property('n');
    // The only answer it holds is the bazaar declaration's example (the tool's documented example).
    const { extensions, ...required } = body;
    expect(extensions.bazaar.info.output.example).to.be.an('object');
    expect(JSON.stringify({ ...r, structuredContent: required, content: [] })).to.not.include(
      FIXTURE_ATTRIBUTION,
    );
    expect(r.content).to.deep.equal([{ type: 'text', text: JSON.stringify(body) }]);
    expect(r._meta?.['x402/payment-response']).to.include({ success: false });
    expect(standin.transfersFrom(payer.address)).to.have.length(0);
    // Nothing moved: the payment can be sent again once the facilitator settles.
    standin.settleBehaviour = 'normal';
    expect(isData(await pay(p))).to.equal(true);
    expect(standin.transfersFrom(payer.address)).to.have.length(1);
  });

  it('an unknown settlement hands out a redemption ticket; only the same call with the same payment and the ticket in _meta redeems it, once', async () => {
    standin.settleBehaviour = 'settle_then_pending';
    const p = await payload();
    const first = await pay(p);
    expect(isData(first)).to.equal(false);
    const pending = structured(first);
    expect(pending.error).to.equal('settlement_pending');
    expect(pending.hint).to.include('params._meta["payment-redemption-ticket"]');
    const [transfer] = standin.transfersFrom(payer.address);
    expect(pending.transaction).to.equal(transfer.transaction);
    standin.settleBehaviour = 'normal';
    const noTicket = await pay(p);
    expect(structured(noTicket)).to.include({
      error: 'payment_redemption_refused',
      reason: 'ticket_required',
    });
    const otherArgs = await callTool(
      client,
      TOOL,
      { n: 4 },
      {
        'x402/payment': p,
        'payment-redemption-ticket': pending.redemption_ticket,
      },
    );
    expect(structured(otherArgs)).to.include({
      error: 'payment_redemption_refused',
      reason: 'request_mismatch',
    });
    const redeemed = await callTool(client, TOOL, ARGS, {
      'x402/payment': p,
      'payment-redemption-ticket': pending.redemption_ticket,
    });
    expect(isData(redeemed)).to.equal(true);
    expect(structured(redeemed)._gateway.payment.transaction).to.equal(transfer.transaction);
    expect(standin.transfersFrom(payer.address)).to.have.length(1);
  });

  it('a payer who lost its ticket redeems the unknown settlement with its Sign-In-With-X proof in _meta["sign-in-with-x"]; a stranger\u2019s proof does not (issue 34)', async () => {
    standin.settleBehaviour = 'settle_then_pending';
    const p = await payload();
    expect(structured(await pay(p)).error).to.equal('settlement_pending');
    standin.settleBehaviour = 'normal';
    const refused = structured(await pay(p));
    expect(refused).to.include({ error: 'payment_redemption_refused', reason: 'ticket_required' });
    const declared = refused.extensions['sign-in-with-x'];
    expect(declared.info).to.include({ domain: 'gateway.test', uri: 'http://gateway.test/mcp' });
    expect(declared.info.resources).to.deep.equal([RESOURCE]);
    expect(refused.hint).to.include('params._meta["sign-in-with-x"]');

    const stranger = new TestPayer();
    const theirs = await signPayerProof(refused, stranger.account);
    const notTheirs = structured(
      await callTool(client, TOOL, ARGS, { 'x402/payment': p, 'sign-in-with-x': theirs.payload }),
    );
    expect(notTheirs).to.include({ error: 'payment_redemption_refused' });
    expect(notTheirs.payer_proof_error.code).to.equal('invalid_siwx_address');

    const mine = await signPayerProof(refused, payer.account);
    const redeemed = await callTool(client, TOOL, ARGS, {
      'x402/payment': p,
      'sign-in-with-x': mine.payload,
    });
    expect(isData(redeemed), JSON.stringify(structured(redeemed))).to.equal(true);
    const [transfer] = standin.transfersFrom(payer.address);
    expect(structured(redeemed)._gateway.payment.transaction).to.equal(transfer.transaction);
    expect(standin.transfersFrom(payer.address)).to.have.length(1);
  });

  it('a facilitator that cannot be used answers facilitator_unavailable: no data, nothing charged', async () => {
    standin.verifyBehaviour = 'http500';
    const p = await payload();
    const r = await pay(p);
    expect(isData(r)).to.equal(false);
    expect(structured(r)).to.include({ error: 'facilitator_unavailable' });
    expect(standin.transfersFrom(payer.address)).to.have.length(0);
    standin.verifyBehaviour = 'normal';
    expect(isData(await pay(p))).to.equal(true);
  });

  it('a refusal by the facilitator at verify is a PaymentRequired with its reason; nothing charged', async () => {
    standin.verifyBehaviour = 'reject';
    const r = await pay(await payload());
    expect(structured(r)).to.include({ error: 'facilitator_rejected' });
    expect(structured(r).payment_error.facilitator_reason).to.equal('invalid_exact_evm_insufficient_balance');
    expect(standin.transfersFrom(payer.address)).to.have.length(0);
  });

  it('a key out of credit answers insufficient_credit with a PaymentRequired; a payment in _meta then buys the call, the credit untouched', async () => {
    const key = (await gw.post('/keys/create', { owner_label: 'x402 fallback' })).body.api_key;
    const keyed = await connectMcp(gw, '/mcp', { 'X-API-Key': key });
    try {
      expect(isData(await callTool(keyed, TOOL, ARGS))).to.equal(true);
      const out = await callTool(keyed, TOOL, ARGS);
      const body = structured(out);
      expect(body).to.include({ error: 'insufficient_credit', x402Version: 2 });
      expect(body.balance.micro_usdc).to.equal(500);
      expect(body.accepts[0]).to.include({ amount: '1000', payTo });
      expect(body.resource.url).to.equal(RESOURCE);
      const paid = await pay(await payload(), ARGS, keyed);
      expect(structured(paid)._gateway.paid_by).to.equal('x402');
      const status = (await gw.get('/keys/status', { 'X-API-Key': key })).body;
      expect(status.balance.micro_usdc).to.equal(500);
      expect(status.spent.calls).to.equal(1);
    } finally {
      await keyed.close();
    }
  });
});
