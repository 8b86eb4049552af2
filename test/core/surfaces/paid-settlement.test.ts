/**
 * What a buyer is charged and served when the facilitator or the handler fails, when an answer is
 * lost, when the gateway restarts, and when several gateways share one store.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { container } from 'tsyringe';
import { loadConfig } from '../../../config/env';
import { PRODUCTS } from '../../../config/products';
import { SERVICE } from '../../../config/service';
import { buildGateway, type Gateway } from '../../../core/gateway/app';
import { fixedClock } from '../../../core/util/clock';
import { UPSTREAM_CONFIG } from '../../../domain/shared/tokens';
import { startFacilitatorStandin, type FacilitatorStandin } from '../../support/facilitator-standin';
import { ECHO, FAILING, fixtures, SLOW } from '../../support/fx-endpoints';
import { FIXTURE_PLUGINS_DIR, readResponse, startTestGateway, type TestGateway } from '../../support/gateway';
import { randomAddress, TestPayer, toBase64, usdcOnBase } from '../payments/payer';

const NOW_ISO = '2026-11-22T03:00:00Z';
const NOW = Date.parse(NOW_ISO) / 1000;
const PATH = `/v1/${ECHO.tail}?n=3`;
/** Long enough that a loaded machine never trips it on a loopback call; the held answers always do. */
const TIMEOUT_MS = '3000';

describe('paid surface: failures, lost answers, restarts and shared stores', () => {
  let standin: FacilitatorStandin;
  let payer: TestPayer;
  const payTo = randomAddress();
  const terms = usdcOnBase(payTo);
  const env = () => ({
    X402_PAY_TO: payTo,
    X402_FACILITATOR_URL: standin.url,
    X402_FACILITATOR_TIMEOUT_MS: TIMEOUT_MS,
  });
  const header = async () => toBase64(payer.v1(await payer.sign(terms, NOW)));

  before(async () => {
    standin = await startFacilitatorStandin({ now: () => NOW });
  });
  after(() => standin.close());
  beforeEach(() => {
    payer = new TestPayer();
    standin.verifyBehaviour = 'normal';
    standin.settleBehaviour = 'normal';
    standin.repeatSettle = 'idempotent';
  });

  describe('on one gateway', () => {
    let gw: TestGateway;
    before(async () => {
      gw = await startTestGateway({ ...fixtures(ECHO), clock: NOW_ISO, env: env() });
    });
    after(() => gw.close());
    const pay = (h: string, ticket?: string) =>
      gw.get(PATH, { 'X-PAYMENT': h, ...(ticket ? { 'Payment-Redemption-Ticket': ticket } : {}) });

    it('facilitator down at verify → 503 facilitator_unavailable, no data; the same payment works once it is back', async () => {
      const h = await header();
      standin.goDown();
      try {
        const res = await pay(h);
        expect(res.status).to.equal(503);
        expect(res.body.error).to.equal('facilitator_unavailable');
        expect(res.body.message).to.match(/nothing was charged/);
        expect(res.body).to.not.have.property('n');
      } finally {
        await standin.comeBack();
      }
      expect((await pay(h)).status).to.equal(200);
      expect(standin.transfersFrom(payer.address)).to.have.length(1);
    });

    it('facilitator gone between verify and settle → 503 facilitator_unavailable, nothing settled; the retry settles once', async () => {
      const h = await header();
      standin.downAfterNextVerify = true;
      try {
        const res = await pay(h);
        expect(res.status).to.equal(503);
        expect(res.body.error).to.equal('facilitator_unavailable');
        expect(res.body).to.not.have.property('n');
        expect(standin.transfersFrom(payer.address)).to.have.length(0);
      } finally {
        await standin.comeBack();
      }
      expect((await pay(h)).status).to.equal(200);
      expect(standin.transfersFrom(payer.address)).to.have.length(1);
    });

    it('settlement timed out → 503 settlement_pending (not a 402); the retry with the same payment is served, charged once', async () => {
      const h = await header();
      standin.settleBehaviour = 'settle_then_hang';
      standin.repeatSettle = 'nonce_used';
      const first = await pay(h);
      expect(first.status).to.equal(503);
      expect(first.body.error).to.equal('settlement_pending');
      expect(first.body.message).to.match(/same payment header/);
      expect(first.headers.get('retry-after')).to.equal('5');
      expect(first.headers.get('payment-required')).to.equal(null);
      expect(first.body).to.not.have.property('n');
      expect(standin.transfersFrom(payer.address)).to.have.length(1);
      const ticket = first.body.redemption_ticket;
      expect(ticket).to.match(/^[A-Za-z0-9_-]{32}$/);
      expect(first.headers.get('payment-redemption-ticket')).to.equal(ticket);

      standin.settleBehaviour = 'normal';
      const retry = await pay(h, ticket);
      expect(retry.status).to.equal(200);
      expect(retry.body.n).to.equal(3);
      expect(retry.body._gateway.payment.note).to.match(/earlier attempt/);
      expect(standin.transfersFrom(payer.address)).to.have.length(1);

      const third = await pay(h);
      expect(third.status).to.equal(402);
      expect(third.body.payment_error.code).to.equal('payment_already_used');
      expect(standin.transfersFrom(payer.address)).to.have.length(1);
    });

    it('a retry after a lost answer from an idempotent facilitator gets the original transaction', async () => {
      const h = await header();
      standin.settleBehaviour = 'settle_then_hang';
      const first = await pay(h);
      expect(first.status).to.equal(503);
      standin.settleBehaviour = 'normal';
      const retry = await pay(h, first.body.redemption_ticket);
      expect(retry.status).to.equal(200);
      const [transfer] = standin.transfersFrom(payer.address);
      expect(retry.body._gateway.payment.transaction).to.equal(transfer.transaction);
      expect(standin.transfersFrom(payer.address)).to.have.length(1);
    });

    it('settlement_pending from the facilitator is an unknown outcome too: 503 with the transaction, then served once', async () => {
      const h = await header();
      standin.settleBehaviour = 'settle_then_pending';
      const first = await pay(h);
      expect(first.status).to.equal(503);
      expect(first.body.error).to.equal('settlement_pending');
      const [transfer] = standin.transfersFrom(payer.address);
      expect(first.body.transaction).to.equal(transfer.transaction);
      standin.settleBehaviour = 'normal';
      const retry = await pay(h, first.body.redemption_ticket);
      expect(retry.status).to.equal(200);
      expect(retry.body._gateway.payment.transaction).to.equal(transfer.transaction);
      expect(standin.transfersFrom(payer.address)).to.have.length(1);
    });

    it('retries of an unknown settlement sent at once: one is served, the others wait; charged once', async () => {
      const h = await header();
      standin.settleBehaviour = 'settle_then_hang';
      const first = await pay(h);
      expect(first.status).to.equal(503);
      standin.settleBehaviour = 'normal';
      const ticket = first.body.redemption_ticket;
      const results = await Promise.all([pay(h, ticket), pay(h, ticket), pay(h, ticket)]);
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).to.have.length(1);
      for (const s of statuses.filter((x) => x !== 200)) expect([402, 409]).to.include(s);
      expect(standin.transfersFrom(payer.address)).to.have.length(1);
    });
  });

  it('a failed handler is not settled and its payment is released: the buyer pays nothing', async () => {
    const gw = await startTestGateway({ ...fixtures(FAILING), clock: NOW_ISO, env: env() });
    try {
      const h = await header();
      const before = { ...standin.calls };
      const failed = await gw.get(`/v1/${FAILING.tail}?fail=unavailable`, { 'X-PAYMENT': h });
      expect(failed.status).to.equal(503);
      expect(failed.body.error).to.equal('source_unavailable');
      expect(failed.headers.get('payment-response')).to.equal(null);
      expect(standin.calls.verify - before.verify).to.equal(1);
      expect(standin.calls.settle - before.settle).to.equal(0);
      expect(standin.transfersFrom(payer.address)).to.have.length(0);
      const ok = await gw.get(`/v1/${FAILING.tail}?fail=none`, { 'X-PAYMENT': h });
      expect(ok.status).to.equal(200);
      expect(ok.body.failed).to.equal(false);
      expect(standin.transfersFrom(payer.address)).to.have.length(1);
    } finally {
      await gw.close();
    }
  });

  describe('a payment the ledger holds, retried after its authorization expired (issue 34, item 1)', () => {
    let gw: TestGateway;
    /** The gateway's clock, in Unix seconds; the stand-in's stays at NOW (it is not asked after expiry). */
    let at = NOW;
    const EXPIRED = NOW + 300 + 60;
    before(async () => {
      gw = await startTestGateway({
        ...fixtures(ECHO),
        clock: { now: () => new Date(at * 1000) },
        env: env(),
      });
    });
    after(() => gw.close());
    beforeEach(() => {
      at = NOW;
    });
    const pay = (h: string, ticket?: string) =>
      gw.get(PATH, { 'X-PAYMENT': h, ...(ticket ? { 'Payment-Redemption-Ticket': ticket } : {}) });
    /** A v2 payment carrying a payment identifier, as the x402 extension puts it. */
    const withIdentifier = async () =>
      toBase64({
        ...payer.v2(await payer.sign(terms, NOW), terms, `http://gateway.test/v1/${ECHO.tail}`),
        extensions: { 'payment-identifier': { info: { id: `pay_${randomBytes(16).toString('hex')}` } } },
      });
    /** What a body of a payment that moved must never say. */
    const neverAsksAnew = (body: unknown) =>
      expect(JSON.stringify(body)).to.not.match(/sign a (fresh|new)|Nothing was charged/i);

    it('with a payment identifier: the kept answer is given again after the authorization expired, for 24 hours after the settlement; then payment_already_used says it was settled', async () => {
      const h = await withIdentifier();
      standin.settleBehaviour = 'settle_then_hang';
      expect((await pay(h)).status).to.equal(503);
      standin.settleBehaviour = 'normal';
      const served = await pay(h);
      expect(served.status).to.equal(200);
      const [transfer] = standin.transfersFrom(payer.address);

      at = EXPIRED;
      const replay = await pay(h);
      expect(replay.status, replay.text).to.equal(200);
      expect(replay.headers.get('idempotent-replayed')).to.equal('true');
      expect(replay.body.n).to.equal(3);
      expect(replay.body._gateway.payment.transaction).to.equal(transfer.transaction);
      expect(replay.headers.get('payment-response')).to.equal(served.headers.get('payment-response'));
      at = NOW + 24 * 3600 - 1;
      expect((await pay(h)).status).to.equal(200);

      at = NOW + 24 * 3600;
      const used = await pay(h);
      expect(used.status).to.equal(402);
      expect(used.body.payment_error).to.include({
        code: 'payment_already_used',
        settled: true,
        transaction: transfer.transaction,
      });
      expect(used.body.payment_error.message).to.match(/for 24 hours after the settlement/);
      neverAsksAnew(used.body.message);
      expect(standin.transfersFrom(payer.address)).to.have.length(1);
    });

    for (const [how, identified] of [
      ['a payment identifier', true],
      ['a redemption ticket', false],
    ] as const) {
      it(`with ${how}, unknown when the authorization expired, without a chain reader (the stand-in leg): 503 settlement_pending saying it expired and naming the transaction, for the operator; the entry is kept`, async () => {
        const h = identified ? await withIdentifier() : await header();
        standin.settleBehaviour = 'settle_then_pending';
        const first = await pay(h);
        expect(first.status).to.equal(503);
        standin.settleBehaviour = 'normal';
        const [transfer] = standin.transfersFrom(payer.address);
        const settles = standin.calls.settle;

        at = EXPIRED;
        const late = await pay(h, first.body.redemption_ticket);
        expect(late.status, late.text).to.equal(503);
        expect(late.body).to.include({
          error: 'settlement_pending',
          redeem_with: 'operator_reconciliation',
          authorization_expired: true,
          transaction: transfer.transaction,
          payer: payer.address.toLowerCase(),
        });
        expect(late.body.message)
          .to.match(/expired/)
          .and.to.include(transfer.transaction);
        neverAsksAnew(late.body);
        expect(late.body).to.not.have.property('n');
        expect(standin.calls.settle, 'no settlement is attempted after expiry').to.equal(settles);
        const unresolved = await gw.gateway.store.payments.listUnresolved(new Date(at * 1000));
        expect(unresolved.map((e) => e.transaction)).to.include(transfer.transaction);
      });
    }

    it('settled without a payment identifier: payment_already_used after expiry (and before) says it was settled, with its transaction, and that no answer is kept', async () => {
      const h = await header();
      expect((await pay(h)).status).to.equal(200);
      const [transfer] = standin.transfersFrom(payer.address);
      for (const when of [NOW, EXPIRED]) {
        at = when;
        const used = await pay(h);
        expect(used.status).to.equal(402);
        expect(used.body.payment_error).to.include({
          code: 'payment_already_used',
          settled: true,
          transaction: transfer.transaction,
        });
        expect(used.body.payment_error.message).to.match(
          /No answer is kept for a payment without a payment identifier/,
        );
        expect(used.body.message).to.include(transfer.transaction);
        neverAsksAnew(used.body.message);
        neverAsksAnew(used.body.payment_error);
      }
      expect(standin.transfersFrom(payer.address)).to.have.length(1);
    });

    it('expired after the gateway settled nothing for it (the facilitator refused it): 402 authorization_expired says nothing was charged by this gateway', async () => {
      const h = await header();
      standin.verifyBehaviour = 'reject';
      expect((await pay(h)).status).to.equal(402);
      standin.verifyBehaviour = 'normal';
      at = EXPIRED;
      const late = await pay(h);
      expect(late.status).to.equal(402);
      expect(late.body.payment_error.code).to.equal('authorization_expired');
      expect(late.body.payment_error.message).to.match(/never settled this payment: nothing was charged/);
      expect(standin.transfersFrom(payer.address)).to.have.length(0);
    });
  });

  describe('ledger states survive a restart (same DATA_DIR)', () => {
    let dataDir: string;
    beforeEach(() => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'jpgw-ledger-'));
    });
    afterEach(() => rmSync(dataDir, { recursive: true, force: true }));
    const start = () =>
      startTestGateway({ ...fixtures(ECHO), clock: NOW_ISO, env: { ...env(), DATA_DIR: dataDir } });

    it('a settled payment is still refused after a restart', async () => {
      const h = await header();
      const a = await start();
      expect((await a.get(PATH, { 'X-PAYMENT': h })).status).to.equal(200);
      await a.close();
      const b = await start();
      try {
        const replay = await b.get(PATH, { 'X-PAYMENT': h });
        expect(replay.status).to.equal(402);
        expect(replay.body.payment_error.code).to.equal('payment_already_used');
      } finally {
        await b.close();
      }
      expect(standin.transfersFrom(payer.address)).to.have.length(1);
    });

    it('an unknown settlement is still reserved after a restart and is served once on retry', async () => {
      const h = await header();
      standin.settleBehaviour = 'settle_then_hang';
      standin.repeatSettle = 'nonce_used';
      const a = await start();
      const first = await a.get(PATH, { 'X-PAYMENT': h });
      expect(first.status).to.equal(503);
      await a.close();
      standin.settleBehaviour = 'normal';
      const b = await start();
      try {
        const retry = await b.get(PATH, {
          'X-PAYMENT': h,
          'Payment-Redemption-Ticket': first.body.redemption_ticket,
        });
        expect(retry.status).to.equal(200);
        expect(retry.body.n).to.equal(3);
      } finally {
        await b.close();
      }
      expect(standin.transfersFrom(payer.address)).to.have.length(1);
    });

    it('a payment whose call is still running at shutdown is released, never settled, and buys the call after a restart', async () => {
      const slowPath = `/v1/${SLOW.tail}?ms=1000`;
      const startSlow = () =>
        startTestGateway({ ...fixtures(SLOW), clock: NOW_ISO, env: { ...env(), DATA_DIR: dataDir } });
      const h = await header();
      const settlesBefore = standin.calls.settle;
      const a = await startSlow();
      const pending = a.get(slowPath, { 'X-PAYMENT': h }).catch((err: Error) => err);
      await new Promise((r) => setTimeout(r, 300)); // verified, the handler is running
      await a.gateway.close(50);
      rmSync(a.dataDir, { recursive: true, force: true });
      const outcome = await pending;
      expect(outcome instanceof Error || outcome.status !== 200).to.equal(true);
      await new Promise((r) => setTimeout(r, 1000)); // the handler ends after the stop: it must not settle
      expect(standin.calls.settle).to.equal(settlesBefore);

      const b = await startSlow();
      try {
        const retry = await b.get(slowPath, { 'X-PAYMENT': h });
        expect(retry.status).to.equal(200);
        expect(retry.body).to.include({ n: 1, waited_ms: 1000 });
      } finally {
        await b.close();
      }
      expect(standin.transfersFrom(payer.address)).to.have.length(1);
    });
  });

  describe('two gateway processes sharing one store', () => {
    const mongoUri = process.env.MONGODB_URI;
    let storeDir: string | undefined;
    const mongoDb = `jpgw_paid_${process.pid}_${Date.now()}`;
    let gateways: Gateway[] = [];
    let urls: string[] = [];

    before(async () => {
      // Each gateway opens the store itself, as two processes would: two SQLite connections to
      // one directory, or two MongoDB clients to one database.
      storeDir = mkdtempSync(path.join(tmpdir(), 'jpgw-shared-'));
      const shared = mongoUri ? { MONGODB_URI: mongoUri, MONGODB_DB: mongoDb } : { DATA_DIR: storeDir };
      const config = loadConfig({
        ...env(),
        ...shared,
        LOG_LEVEL: 'silent',
        BASE_URL: 'http://gateway.test',
      });
      for (let i = 0; i < 2; i++) {
        const scope = container.createChildContainer();
        scope.register(UPSTREAM_CONFIG, { useValue: config.upstreams });
        const g = await buildGateway({
          config: config.gateway,
          service: SERVICE,
          products: PRODUCTS,
          pluginDirs: [FIXTURE_PLUGINS_DIR],
          container: scope,
          clock: fixedClock(NOW_ISO),
          onlyPlugins: [ECHO.endpointId],
        });
        const { port } = await g.listen(0, '127.0.0.1');
        gateways.push(g);
        urls.push(`http://127.0.0.1:${port}`);
      }
    });
    after(async () => {
      for (const g of gateways) await g.close();
      if (mongoUri) {
        const client = await MongoClient.connect(mongoUri);
        await client.db(mongoDb).dropDatabase();
        await client.close();
      }
      if (storeDir) rmSync(storeDir, { recursive: true, force: true });
      gateways = [];
      urls = [];
    });

    it(`serve one response for a payment sent to both at once (${mongoUri ? 'MongoDB' : 'two SQLite connections to one directory; set MONGODB_URI for MongoDB'})`, async () => {
      const h = await header();
      const results = await Promise.all(
        [...urls, ...urls].map(async (u) =>
          readResponse(await fetch(u + PATH, { headers: { 'X-PAYMENT': h } })),
        ),
      );
      expect(results.filter((r) => r.status === 200)).to.have.length(1);
      expect(standin.transfersFrom(payer.address)).to.have.length(1);
      const late = await readResponse(await fetch(urls[1] + PATH, { headers: { 'X-PAYMENT': h } }));
      expect(late.body.payment_error.code).to.equal('payment_already_used');
    });
  });
});
