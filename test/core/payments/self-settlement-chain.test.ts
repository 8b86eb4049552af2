/**
 * Self-hosted settlement (X402_FACILITATOR=self) moving real tokens: the gateway runs the x402
 * reference facilitator against a local Hardhat node with the USDC-like token of chain:local, and
 * buyers are the stock client from npm (@x402/fetch with @x402/evm's exact scheme). Every
 * assertion about money reads the chain: balances and Transfer events. One node for the file; each
 * test starts from a snapshot of it, and leaves the gateway's ledger as it was (new buyers).
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ExactEvmScheme } from '@x402/evm';
import { appendPaymentIdentifierToExtensions, generatePaymentId } from '@x402/extensions/payment-identifier';
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client, x402HTTPClient } from '@x402/fetch';
import { parseUnits, type Hex } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { ECHO, FAILING, fixtures } from '../../support/fx-endpoints';
import { killMidSettle, signPayerProof } from '../../support/crash-mid-settle';
import { startFacilitatorStandin } from '../../support/facilitator-standin';
import { removeStoreFor, startTestGateway, storeEnvFor, type TestGateway } from '../../support/gateway';
import { startTestChain, type TestChain } from '../../support/local-chain';
import { answeredBy, requestOnNewConnection, spawnFixtureGateway } from '../../support/process-gateway';
import { TestPayer, toBase64 } from './payer';

const RECONCILE = path.resolve(__dirname, '..', '..', '..', 'tools', 'payments-reconcile.js');

/** Runs `npm run payments:reconcile -- --json` as the operator does, with the gateway's settings. */
// Tests read the tool's JSON as it comes.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function reconcile(env: Record<string, string>, json = true): Promise<{ code: number; out: any }> {
  const read = (text: string) => (json ? JSON.parse(text) : text);
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [RECONCILE, ...(json ? ['--json'] : [])], {
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...env },
    });
    return { code: 0, out: read(stdout) };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout ? read(e.stdout) : e.stderr };
  }
}

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

  it('calls of several buyers at once, through two gateways with one settler key, all settle: one transfer each', async () => {
    const buyers: Buyer[] = [];
    for (let i = 0; i < 8; i++) buyers.push(await buyer('1'));
    // The second gateway sends with the same key: the two take nonces from the node at once.
    const second = await start();
    let answers: Response[];
    try {
      answers = await Promise.all(
        buyers.map((b, i) => b.pay(`${i % 2 ? second.url : gw.url}/v1/${ECHO.tail}?n=${i + 1}`)),
      );
    } finally {
      await second.close();
    }
    expect(answers.map((r) => r.status)).to.deep.equal(Array(8).fill(200));
    const transfers = await chain.transfersTo(chain.info.pay_to);
    for (const b of buyers) {
      expect(transfers.filter((t) => t.from === b.account.address).map((t) => t.value)).to.deep.equal([
        price,
      ]);
    }
  });

  it('WORKERS=2: both worker processes settle with the one settler key, one transfer per call', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'jpgw-chain-workers-'));
    const cluster = await spawnFixtureGateway(
      chain.gatewayEnv({
        WORKERS: '2',
        DATA_DIR: dataDir,
        X402_FACILITATOR_TIMEOUT_MS: CONFIRMATION_TIMEOUT_MS,
      }),
    );
    try {
      const buyers: Buyer[] = [];
      for (let i = 0; i < 8; i++) buyers.push(await buyer('1'));
      const targets = buyers.map((_, i) => `${cluster.url}/v1/${ECHO.tail}?n=${i + 1}`);
      const headers = await Promise.all(buyers.map((b, i) => b.header(targets[i]!)));
      // A connection per call, so that the primary hands the calls to both workers.
      const answers = await Promise.all(
        targets.map((t, i) =>
          requestOnNewConnection(t, {
            headers: { 'PAYMENT-SIGNATURE': headers[i]!, 'X-Request-Id': `chain-${i}` },
          }),
        ),
      );
      expect(answers.map((r) => r.status)).to.deep.equal(Array(8).fill(200));
      const by = answeredBy(cluster);
      const workers = new Set(targets.map((_, i) => by.get(`chain-${i}`)).filter((w) => w !== undefined));
      expect(workers.size, 'workers that settled').to.equal(2);
      const transfers = await chain.transfersTo(chain.info.pay_to);
      for (const b of buyers) {
        expect(transfers.filter((t) => t.from === b.account.address).map((t) => t.value)).to.deep.equal([
          price,
        ]);
      }
      expect(cluster.output()).to.not.include(chain.info.settler_private_key.slice(2));
    } finally {
      await cluster.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('an x402 v1 payment (X-PAYMENT) is settled by the same reference code: one transfer of the price', async () => {
    const payer = new TestPayer();
    await chain.fund(payer.address, '1');
    const terms = {
      network: chain.info.network,
      chainId: chain.info.chain_id,
      asset: chain.info.asset,
      payTo: chain.info.pay_to,
      price: ECHO.price,
      name: chain.info.asset_name,
      version: chain.info.asset_version,
      maxTimeoutSeconds: 300,
    };
    const signed = await payer.sign(terms, Math.floor(Date.now() / 1000));
    const res = await gw.get(`/v1/${ECHO.tail}?n=9`, {
      'X-PAYMENT': toBase64(payer.v1(signed, chain.info.network)),
    });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.n).to.equal(9);
    const mine = (await chain.transfersTo(chain.info.pay_to)).filter((t) => t.from === payer.address);
    expect(mine).to.deep.equal([
      { from: payer.address, value: price, transaction: res.body._gateway.payment.transaction },
    ]);
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
    // A gateway of its own on a directory it keeps across the restart (on MongoDB: one database).
    const dataDir = mkdtempSync(path.join(tmpdir(), 'jpgw-chain-restart-'));
    const first = await start(dataDir);
    const target = `${first.url}/v1/${ECHO.tail}?n=5`;
    const header = await b.header(target);
    expect((await send(target, header)).res.status).to.equal(200);
    await first.close();
    const restarted = await start(dataDir);
    try {
      const again = await send(`${restarted.url}/v1/${ECHO.tail}?n=5`, header);
      expect(again.res.status).to.equal(402);
      expect(again.body.payment_error.code).to.equal('payment_already_used');
      expect(again.body).to.not.have.property('n');
    } finally {
      await restarted.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
    // A gateway with an empty store: the token contract refuses the used authorization at verify.
    const again = await send(url(ECHO.tail, 'n=5'), header);
    expect(again.res.status).to.equal(402);
    expect(again.body.payment_error).to.include({
      code: 'facilitator_rejected',
      facilitator_reason: 'invalid_exact_evm_nonce_already_used',
    });
    expect(again.body).to.not.have.property('n');
    const mine = (await chain.transfersTo(chain.info.pay_to)).filter((t) => t.from === b.account.address);
    expect(mine).to.have.length(1);
  });

  it('a settled transfer undone by a chain revert is reported by payments:reconcile (exit 1), with what to do', async () => {
    // A gateway of its own: the shared one's ledger holds settlements the snapshots between tests undid.
    const dataDir = mkdtempSync(path.join(tmpdir(), 'jpgw-chain-reconcile-'));
    const own = await start(dataDir);
    try {
      const b = await buyer('1');
      const before = await chain.test.snapshot();
      const res = await b.pay(`${own.url}/v1/${ECHO.tail}?n=8`);
      expect(res.status).to.equal(200);
      const transaction = decodePaymentResponseHeader(res.headers.get('PAYMENT-RESPONSE')!).transaction;
      const clean = await reconcile(own.env);
      expect(clean.code).to.equal(0);
      expect(clean.out).to.deep.equal({ unresolved: [], pending: [], reverted: [] });

      await chain.test.revert({ id: before });
      expect(await chain.balance(b.account.address)).to.equal(parseUnits('1', 6));
      const found = await reconcile(own.env);
      expect(found.code).to.equal(1);
      expect(found.out.reverted).to.have.length(1);
      expect(found.out.reverted[0]).to.include({
        payer: b.account.address.toLowerCase(),
        transaction,
        state: 'settled',
        chain_status: 'not_on_chain',
        amount_micro_usdc: String(ECHO.price),
      });
      expect(found.out.reverted[0].next_step).to.match(/not on chain/);
      const text = await reconcile(own.env, false);
      expect(text.code).to.equal(1);
      expect(text.out)
        .to.include('1 settled x402 payment(s) whose transfer is not on chain:')
        .and.include(`transaction ${transaction} (on chain: not_on_chain)`);
      // Without a node to ask, the tool says nothing of reverted transfers.
      const { X402_RPC_URL: _, ...withoutNode } = own.env;
      const unchecked = await reconcile({
        ...withoutNode,
        X402_FACILITATOR: 'remote',
        X402_FACILITATOR_URL: 'http://127.0.0.1:9',
      });
      expect(unchecked.out).to.deep.equal({ unresolved: [], pending: [] });
    } finally {
      await own.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('boot: a node on another chain or a token address without code stops the start; the settler key is never shown', async () => {
    const logs: string[] = [];
    const refusals: string[] = [];
    const wrongs: Array<Record<string, string>> = [
      { X402_NETWORK: 'eip155:8453' },
      { X402_ASSET: chain.info.pay_to },
    ];
    for (const wrong of wrongs) {
      try {
        await startTestGateway({ ...fixtures(ECHO), logs, env: chain.gatewayEnv(wrong) });
        expect.fail('the gateway started');
      } catch (err) {
        refusals.push((err as Error).message);
      }
    }
    expect(refusals[0]).to.match(/X402_RPC_URL: the node is on chain 31337, X402_NETWORK says eip155:8453/);
    expect(refusals[1]).to.match(/X402_ASSET: no contract at/);
    const key = chain.info.settler_private_key;
    const seen = [
      ...refusals,
      ...logs,
      JSON.stringify(await (await fetch(`${gw.url}/.well-known/x402`)).json()),
    ].join('\n');
    expect(seen).to.not.include(key.slice(2));
    expect(seen).to.not.include(chain.info.rpc_url);
  });

  it('a settler without gas money: warned at boot; calls answer 402 settlement_failed, nothing charged, the payment free again', async () => {
    await chain.test.setBalance({ address: chain.info.settler_address as Hex, value: 0n });
    const logs: string[] = [];
    const poor = await startTestGateway({
      ...fixtures(ECHO),
      logs,
      env: chain.gatewayEnv({ X402_FACILITATOR_TIMEOUT_MS: CONFIRMATION_TIMEOUT_MS }),
    });
    try {
      expect(logs.join('\n')).to.include(`the settler ${chain.info.settler_address} has no gas money`);
      const b = await buyer('1');
      const target = `${poor.url}/v1/${ECHO.tail}?n=3`;
      const header = await b.header(target);
      const refused = await send(target, header);
      expect(refused.res.status).to.equal(402);
      expect(refused.body.payment_error.code).to.equal('settlement_failed');
      expect(refused.body).to.not.have.property('n');
      expect(await chain.balance(b.account.address)).to.equal(parseUnits('1', 6));
      // Funded again, the same payment goes through.
      await chain.test.setBalance({ address: chain.info.settler_address as Hex, value: parseUnits('1', 18) });
      const served = await send(target, header);
      expect(served.res.status).to.equal(200);
      expect(await chain.balance(b.account.address)).to.equal(parseUnits('1', 6) - price);
      expect(logs.join('\n')).to.not.include(chain.info.settler_private_key.slice(2));
    } finally {
      await poor.close();
    }
  });

  describe('retries after the authorization expired: the chain decides (issue 34, items 1 and 3)', () => {
    /** Seconds the gateway's clock and the chain's are moved ahead of the real clock. */
    let offset = 0;
    let late: TestGateway;
    const clock = { now: () => new Date(Date.now() + offset * 1000) };
    /** Past the validBefore the stock client and TestPayer sign (now + 300 s). */
    const PAST_EXPIRY = 300 + 60;
    const startLate = (dataDir?: string) =>
      startTestGateway({
        ...fixtures(ECHO),
        clock,
        env: chain.gatewayEnv({
          X402_FACILITATOR_TIMEOUT_MS: CONFIRMATION_TIMEOUT_MS,
          ...(dataDir ? { DATA_DIR: dataDir } : {}),
        }),
      });
    before(async () => {
      late = await startLate();
    });
    after(() => late?.close());
    beforeEach(() => {
      offset = 0;
    });
    /** Moves the gateway's clock and the chain's (one block mined at the new time). */
    const jump = async (seconds: number) => {
      offset += seconds;
      await chain.test.increaseTime({ seconds });
      await chain.test.mine({ blocks: 1 });
    };
    const lateUrl = (query: string) => `${late.url}/v1/${ECHO.tail}?${query}`;
    const terms = () => ({
      network: chain.info.network,
      chainId: chain.info.chain_id,
      asset: chain.info.asset,
      payTo: chain.info.pay_to,
      price: ECHO.price,
      name: chain.info.asset_name,
      version: chain.info.asset_version,
      maxTimeoutSeconds: 300,
    });
    const mine = async (address: string) =>
      (await chain.transfersTo(chain.info.pay_to)).filter((t) => t.from === address);

    it('a settlement confirmed after its answer was lost is served on a retry after expiry: with a payment identifier, and with a ticket; one transfer each', async () => {
      const withId = await buyer('1', generatePaymentId());
      const idHeader = await withId.header(lateUrl('n=4'));
      const v1 = new TestPayer();
      await chain.fund(v1.address, '1');
      const v1Header = toBase64(
        v1.v1(await v1.sign(terms(), Math.floor(Date.now() / 1000)), chain.info.network),
      );
      await chain.test.setAutomine(false);
      const pendingId = await send(lateUrl('n=4'), idHeader);
      const pendingV1 = await late.get(`/v1/${ECHO.tail}?n=5`, { 'X-PAYMENT': v1Header });
      expect([pendingId.res.status, pendingV1.status]).to.deep.equal([503, 503]);
      const ticket = pendingV1.body.redemption_ticket as string;
      await chain.test.setAutomine(true);
      await chain.test.mine({ blocks: 1 });

      await jump(PAST_EXPIRY);
      const servedId = await send(lateUrl('n=4'), idHeader);
      expect(servedId.res.status, JSON.stringify(servedId.body)).to.equal(200);
      expect(servedId.body.n).to.equal(4);
      expect(servedId.body._gateway.payment.transaction).to.equal(pendingId.body.transaction);
      expect(servedId.body._gateway.payment.note).to.match(/earlier attempt/);
      const servedV1 = await late.get(`/v1/${ECHO.tail}?n=5`, {
        'X-PAYMENT': v1Header,
        'Payment-Redemption-Ticket': ticket,
      });
      expect(servedV1.status, servedV1.text).to.equal(200);
      expect(servedV1.body._gateway.payment.transaction).to.equal(pendingV1.body.transaction);
      // Given again to the identifier after expiry; the ticket's payment is used.
      const again = await send(lateUrl('n=4'), idHeader);
      expect(again.res.headers.get('idempotent-replayed')).to.equal('true');
      expect(
        (
          await late.get(`/v1/${ECHO.tail}?n=5`, {
            'X-PAYMENT': v1Header,
            'Payment-Redemption-Ticket': ticket,
          })
        ).body.payment_error,
      ).to.include({ code: 'payment_already_used', settled: true, transaction: pendingV1.body.transaction });

      for (const [who, tx] of [
        [withId.account.address, pendingId.body.transaction],
        [v1.address, pendingV1.body.transaction],
      ] as const) {
        expect(await mine(who)).to.deep.equal([{ from: who, value: price, transaction: tx }]);
        expect(await chain.balance(who)).to.equal(parseUnits('1', 6) - price);
      }
    });

    it('a settlement that never went through (its transaction landed after expiry and failed): 402 saying nothing was charged, the payment released', async () => {
      const b = await buyer('1', generatePaymentId());
      const header = await b.header(lateUrl('n=6'));
      await chain.test.setAutomine(false);
      const pending = await send(lateUrl('n=6'), header);
      expect(pending.res.status).to.equal(503);
      // The transaction is mined only after validBefore: the token refuses it.
      await jump(PAST_EXPIRY);
      await chain.test.setAutomine(true);
      const receipt = await chain.public.getTransactionReceipt({ hash: pending.body.transaction });
      expect(receipt.status).to.equal('reverted');

      const refused = await send(lateUrl('n=6'), header);
      expect(refused.res.status).to.equal(402);
      expect(refused.body.payment_error).to.include({
        code: 'authorization_expired',
        checked_on_chain: true,
        earlier_attempt: 'never_settled',
      });
      expect(refused.body.payment_error.message).to.match(/Nothing was charged: the earlier attempt/);
      expect(refused.body).to.not.have.property('n');
      expect(await chain.balance(b.account.address)).to.equal(parseUnits('1', 6));
      // Released: the next retry is refused as expired, without reading the chain again.
      const again = await send(lateUrl('n=6'), header);
      expect(again.body.payment_error.message).to.match(/never settled this payment/);
    });

    it('a remote facilitator whose settle answer was lost, with X402_RPC_URL: payments:reconcile finds the transfer on chain without a transaction; after expiry the retry is served from the chain, charged once', async () => {
      const standin = await startFacilitatorStandin({ now: () => Math.floor(Date.now() / 1000) + offset });
      const dataDir = mkdtempSync(path.join(tmpdir(), 'jpgw-chain-remote-'));
      const { X402_FACILITATOR: _, X402_SETTLER_PRIVATE_KEY: __, ...onChain } = chain.gatewayEnv();
      const remote = await startTestGateway({
        ...fixtures(ECHO),
        clock,
        env: {
          ...onChain,
          X402_FACILITATOR_URL: standin.url,
          X402_FACILITATOR_TIMEOUT_MS: '1500',
          DATA_DIR: dataDir,
        },
      });
      try {
        const payer = new TestPayer();
        await chain.fund(payer.address, '1');
        const signed = await payer.sign(terms(), Math.floor(Date.now() / 1000));
        const header = toBase64(payer.v1(signed, chain.info.network));
        // The facilitator moves the money on chain and its answer never comes.
        standin.settleBehaviour = 'settle_then_hang';
        const pending = await remote.get(`/v1/${ECHO.tail}?n=9`, { 'X-PAYMENT': header });
        expect(pending.status).to.equal(503);
        expect(pending.body).to.not.have.property('transaction');
        const transaction = await chain.transferWithAuthorization(signed);

        const found = await reconcile(remote.env);
        expect(found.code).to.equal(1);
        expect(found.out.unresolved).to.have.length(1);
        expect(found.out.unresolved[0]).to.include({
          payer: payer.address.toLowerCase(),
          state: 'settle_unknown',
          transaction: null,
          chain_status: 'authorization_used',
        });

        await jump(PAST_EXPIRY);
        const settles = standin.calls.settle;
        const served = await remote.get(`/v1/${ECHO.tail}?n=9`, {
          'X-PAYMENT': header,
          'Payment-Redemption-Ticket': pending.body.redemption_ticket,
        });
        expect(served.status, served.text).to.equal(200);
        expect(served.body.n).to.equal(9);
        expect(standin.calls.settle, 'no settle call after expiry').to.equal(settles);
        expect(await mine(payer.address)).to.deep.equal([{ from: payer.address, value: price, transaction }]);
        expect(await chain.balance(payer.address)).to.equal(parseUnits('1', 6) - price);
      } finally {
        await remote.close();
        await standin.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });

    it('kill -9 mid-settle: a stranger with the copied authorization is refused; after expiry the payer with an identifier is served, and the payer without one with its Sign-In-With-X proof; one transfer each', async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'jpgw-chain-killed-'));
      try {
        const withId = await buyer('1', generatePaymentId());
        const idHeader = await withId.header(url(ECHO.tail, 'n=7'));
        const v1 = new TestPayer();
        await chain.fund(v1.address, '1');
        const signed = await v1.sign(terms(), Math.floor(Date.now() / 1000));
        const v1Header = toBase64(v1.v1(signed, chain.info.network));
        const settler = chain.info.settler_address as Hex;
        const sentBefore = await chain.public.getTransactionCount({ address: settler, blockTag: 'pending' });
        await chain.test.setAutomine(false);
        await killMidSettle(
          chain.gatewayEnv({ ...storeEnvFor(dataDir), X402_FACILITATOR_TIMEOUT_MS: '10000' }),
          [
            { path: `/v1/${ECHO.tail}?n=7`, headers: { 'PAYMENT-SIGNATURE': idHeader } },
            { path: `/v1/${ECHO.tail}?n=8`, headers: { 'X-PAYMENT': v1Header } },
          ],
          async () =>
            (await chain.public.getTransactionCount({ address: settler, blockTag: 'pending' })) ===
            sentBefore + 2,
        );
        // The transfers land while no gateway knows.
        await chain.test.setAutomine(true);
        await chain.test.mine({ blocks: 1 });
        await jump(PAST_EXPIRY);

        const after = await startLate(dataDir);
        try {
          const at = (q: string) => `/v1/${ECHO.tail}?${q}`;
          const copied = await after.get(at('n=8'), {
            'X-PAYMENT': toBase64(new TestPayer().v1(signed, chain.info.network)),
          });
          expect(copied.status).to.equal(409);
          expect(copied.body.reason).to.equal('payer_proof_required');
          const servedId = await send(`${after.url}${at('n=7')}`, idHeader);
          expect(servedId.res.status, JSON.stringify(servedId.body)).to.equal(200);
          expect(servedId.body.n).to.equal(7);
          const proof = await signPayerProof(copied.body, v1.account);
          const servedV1 = await after.get(at('n=8'), {
            'X-PAYMENT': v1Header,
            'SIGN-IN-WITH-X': proof.header,
          });
          expect(servedV1.status, servedV1.text).to.equal(200);
          expect(servedV1.body.n).to.equal(8);
        } finally {
          await after.close();
        }
        for (const who of [withId.account.address, v1.address]) {
          expect((await mine(who)).map((t) => t.value)).to.deep.equal([price]);
          expect(await chain.balance(who)).to.equal(parseUnits('1', 6) - price);
        }
      } finally {
        await removeStoreFor(dataDir);
      }
    });
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
