/**
 * Self-hosted settlement (X402_FACILITATOR=self) moving real tokens: the gateway runs the x402
 * reference facilitator against a local Hardhat node with the USDC-like token of chain:local, and
 * buyers are the stock client from npm (@x402/fetch with @x402/evm's exact scheme). Every
 * assertion about money reads the chain: balances and Transfer events. One node for the file; each
 * test starts from a snapshot of it, and leaves the gateway's ledger as it was (new buyers).
 */
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { ExactEvmScheme } from '@x402/evm';
import { appendPaymentIdentifierToExtensions, generatePaymentId } from '@x402/extensions/payment-identifier';
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client, x402HTTPClient } from '@x402/fetch';
import { parseUnits, type Hex } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { ECHO, FAILING, fixtures } from '../../support/fx-endpoints';
import { startTestGateway, type TestGateway } from '../../support/gateway';
import { startTestChain, type TestChain } from '../../support/local-chain';

/** Long enough for a mined transaction's receipt, short enough that a paused chain answers fast. */
const CONFIRMATION_TIMEOUT_MS = '2000';

interface Buyer {
  account: PrivateKeyAccount;
  pay: typeof fetch;
  /** The payment header the stock client signs for `target` (not sent). */
  header(target: string): Promise<string>;
}

describe('self-hosted settlement on a local chain (reference facilitator, stock buyer)', function () {
  this.timeout(60_000);
  let chain: TestChain;
  let gw: TestGateway;
  let snapshot: Hex;
  const url = (tail: string, query: string) => `${gw.url}/v1/${tail}?${query}`;

  const start = (dataDir?: string) =>
    startTestGateway({
      ...fixtures(ECHO, FAILING),
      env: chain.gatewayEnv({
        X402_FACILITATOR_TIMEOUT_MS: CONFIRMATION_TIMEOUT_MS,
        ...(dataDir ? { DATA_DIR: dataDir } : {}),
      }),
    });

  before(async () => {
    chain = await startTestChain();
    gw = await start();
  });
  after(async () => {
    await gw?.close();
    await chain?.close();
  });
  beforeEach(async () => {
    snapshot = await chain.test.snapshot();
  });
  afterEach(async () => {
    await chain.test.setAutomine(true);
    await chain.test.revert({ id: snapshot });
  });

  /** A buyer with `usd` of the token; with `paymentId`, its payments carry that payment identifier. */
  async function buyer(usd: string, paymentId?: string): Promise<Buyer> {
    const account = await chain.newBuyer(usd);
    const network = chain.info.network as `${string}:${string}`;
    const client = x402Client.fromConfig({
      schemes: [{ network, client: new ExactEvmScheme(account) }],
      // The stock client pays only tokens it knows unless told: the local token, up to USD 1 a call.
      spendControls: {
        allowedAssets: [{ network, asset: chain.info.asset, maxAmountPerPayment: '1000000' }],
      },
    });
    if (paymentId) {
      client.onBeforePaymentCreation(async ({ paymentRequired }) => {
        appendPaymentIdentifierToExtensions(paymentRequired.extensions!, paymentId);
      });
    }
    const httpClient = new x402HTTPClient(client);
    return {
      account,
      pay: wrapFetchWithPayment(fetch, client),
      async header(target) {
        const unpaid = await fetch(target);
        const required = httpClient.getPaymentRequiredResponse(
          (n) => unpaid.headers.get(n),
          await unpaid.json(),
        );
        return httpClient.encodePaymentSignatureHeader(await client.createPaymentPayload(required))[
          'PAYMENT-SIGNATURE'
        ]!;
      },
    };
  }
  const send = async (target: string, header: string) => {
    const res = await fetch(target, { headers: { 'PAYMENT-SIGNATURE': header } });
    return { res, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  };
  const price = BigInt(ECHO.price);

  it('N paid calls move exactly N × price from the buyer to the receiving wallet, one transfer each', async () => {
    const b = await buyer('1');
    const receivedBefore = await chain.balance(chain.info.pay_to);
    const transactions: string[] = [];
    for (const n of [1, 2, 3]) {
      const res = await b.pay(url(ECHO.tail, `n=${n}`));
      expect(res.status).to.equal(200);
      const body = (await res.json()) as { n: number; _gateway: { payment: { transaction: string } } };
      expect(body.n).to.equal(n);
      const settlement = decodePaymentResponseHeader(res.headers.get('PAYMENT-RESPONSE')!);
      expect(settlement.transaction).to.equal(body._gateway.payment.transaction);
      transactions.push(settlement.transaction);
    }
    expect(await chain.balance(chain.info.pay_to)).to.equal(receivedBefore + 3n * price);
    expect(await chain.balance(b.account.address)).to.equal(parseUnits('1', 6) - 3n * price);
    const mine = (await chain.transfersTo(chain.info.pay_to)).filter((t) => t.from === b.account.address);
    expect(mine.map((t) => t.transaction)).to.deep.equal(transactions);
    expect(mine.every((t) => t.value === price)).to.equal(true);
  });

  it('a call the handler refuses is never settled: no transfer, the authorization unused', async () => {
    const b = await buyer('1');
    const res = await b.pay(url(FAILING.tail, 'fail=unavailable'));
    expect(res.status).to.equal(503);
    expect(await chain.balance(b.account.address)).to.equal(parseUnits('1', 6));
    expect(
      (await chain.transfersTo(chain.info.pay_to)).filter((t) => t.from === b.account.address),
    ).to.deep.equal([]);
  });

  it('with mining paused the call answers 503 settlement_pending; the retry is served once blocks come, with one transfer', async () => {
    const b = await buyer('1', generatePaymentId());
    const target = url(ECHO.tail, 'n=4');
    const header = await b.header(target);
    await chain.test.setAutomine(false);
    const pending = await send(target, header);
    expect(pending.res.status).to.equal(503);
    expect(pending.body).to.include({ error: 'settlement_pending', redeem_with: 'payment_identifier' });
    expect(pending.body.transaction).to.match(/^0x[0-9a-f]{64}$/);
    expect(pending.body).to.not.have.property('n');
    expect(await chain.balance(b.account.address)).to.equal(parseUnits('1', 6));

    await chain.test.setAutomine(true);
    await chain.test.mine({ blocks: 1 });
    const served = await send(target, header);
    expect(served.res.status).to.equal(200);
    expect(served.body.n).to.equal(4);
    expect(served.body._gateway.payment.transaction).to.equal(pending.body.transaction);
    const mine = (await chain.transfersTo(chain.info.pay_to)).filter((t) => t.from === b.account.address);
    expect(mine).to.deep.equal([
      { from: b.account.address, value: price, transaction: pending.body.transaction },
    ]);
    expect(await chain.balance(b.account.address)).to.equal(parseUnits('1', 6) - price);
  });

  it('a payment replayed after a restart is refused: by the ledger, and by the chain when the ledger is gone', async () => {
    const b = await buyer('1');
    const target = url(ECHO.tail, 'n=5');
    const header = await b.header(target);
    expect((await send(target, header)).res.status).to.equal(200);

    const dataDir = gw.dataDir;
    await gw.gateway.close();
    const restarted = await start(dataDir);
    try {
      const again = await send(`${restarted.url}/v1/${ECHO.tail}?n=5`, header);
      expect(again.res.status).to.equal(402);
      expect(again.body.payment_error.code).to.equal('payment_already_used');
      expect(again.body).to.not.have.property('n');
    } finally {
      await restarted.close();
    }
    // A gateway with an empty store: the token contract refuses the used authorization at verify.
    const blank = await start();
    try {
      const again = await send(`${blank.url}/v1/${ECHO.tail}?n=5`, header);
      expect(again.res.status).to.equal(402);
      expect(again.body.payment_error).to.include({
        code: 'facilitator_rejected',
        facilitator_reason: 'invalid_exact_evm_nonce_already_used',
      });
      expect(again.body).to.not.have.property('n');
    } finally {
      await blank.close();
    }
    rmSync(dataDir, { recursive: true, force: true });
    gw = await start();
    const mine = (await chain.transfersTo(chain.info.pay_to)).filter((t) => t.from === b.account.address);
    expect(mine).to.have.length(1);
  });

  it('a buyer without enough tokens is refused before any answer, and nothing moves', async () => {
    const b = await buyer('0.0005');
    const res = await b.pay(url(ECHO.tail, 'n=6'));
    expect(res.status).to.equal(402);
    const body = (await res.json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(body.payment_error).to.include({ code: 'facilitator_rejected' });
    expect(body.payment_error.facilitator_reason).to.equal('invalid_exact_evm_insufficient_balance');
    expect(body).to.not.have.property('n');
    expect(await chain.balance(b.account.address)).to.equal(parseUnits('0.0005', 6));
  });
});
