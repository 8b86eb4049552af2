/**
 * The paid path against a hostile buyer (issue 15, items 1–4): a stranger who copies a payment
 * whose settlement is unknown, junk signatures aimed at a buyer's payment or at the ledger, floods
 * of payments, and aborted requests. The buyer and the attacker are two viem accounts; the
 * facilitator is the project's stand-in speaking the x402 wire format.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SIGN_IN_WITH_X } from '@x402/extensions/sign-in-with-x';
import { ledgerId, RELEASED_RETENTION_MINUTES } from '../../../core/payments/nonce-ledger';
import { killMidSettle, signPayerProof } from '../../support/crash-mid-settle';
import { startFacilitatorStandin, type FacilitatorStandin } from '../../support/facilitator-standin';
import { ECHO, fixtures, SLOW } from '../../support/fx-endpoints';
import { removeStoreFor, startTestGateway, storeEnvFor, type TestGateway } from '../../support/gateway';
import {
  randomAddress,
  randomNonce,
  TestPayer,
  toBase64,
  USDC_ON_BASE,
  usdcOnBase,
  type SignedAuthorization,
} from '../payments/payer';

const NOW_ISO = '2026-11-22T03:00:00Z';
const NOW = Date.parse(NOW_ISO) / 1000;
const ECHO_3 = `/v1/${ECHO.tail}?n=3&note=hi`;
const SAME_PRICE_ELSEWHERE = `/v1/${SLOW.tail}?ms=0&n=3`;

/** The same authorization with another signature of `bytes` random bytes. */
function withJunkSignature(signed: SignedAuthorization, bytes: number): SignedAuthorization {
  return { ...signed, signature: `0x${randomBytes(bytes).toString('hex')}` };
}

describe('paid surface against a hostile buyer', function () {
  this.timeout(30_000);
  let standin: FacilitatorStandin;
  let gw: TestGateway;
  let buyer: TestPayer;
  const attacker = new TestPayer();
  const payTo = randomAddress();
  const terms = usdcOnBase(payTo);
  const entryOf = (signed: SignedAuthorization) =>
    gw.gateway.store.payments.get(
      ledgerId({
        chainId: 8453,
        asset: USDC_ON_BASE,
        payer: signed.authorization.from,
        nonce: signed.authorization.nonce,
      }),
    );

  before(async () => {
    standin = await startFacilitatorStandin({ now: () => NOW });
    gw = await startTestGateway({
      ...fixtures(ECHO, SLOW),
      clock: NOW_ISO,
      env: { X402_PAY_TO: payTo, X402_FACILITATOR_URL: standin.url, X402_FACILITATOR_TIMEOUT_MS: '3000' },
    });
  });
  after(async () => {
    await gw.close();
    await standin.close();
  });
  beforeEach(() => {
    buyer = new TestPayer();
    standin.verifyBehaviour = 'normal';
    standin.settleBehaviour = 'normal';
    standin.repeatSettle = 'nonce_used';
  });

  /** The buyer pays, the facilitator broadcasts the transfer, unconfirmed: 503 with a ticket. */
  async function unknownSettlement(): Promise<{ signed: SignedAuthorization; ticket: string }> {
    const signed = await buyer.sign(terms, NOW);
    standin.settleBehaviour = 'settle_then_pending';
    const first = await gw.get(ECHO_3, { 'X-PAYMENT': toBase64(buyer.v1(signed)) });
    expect(first.status).to.equal(503);
    expect(first.body.error).to.equal('settlement_pending');
    standin.settleBehaviour = 'normal';
    expect(standin.transfersFrom(buyer.address)).to.have.length(1);
    return { signed, ticket: first.body.redemption_ticket as string };
  }

  describe('item 1: an unknown settlement is redeemed only by its own request', () => {
    it('a copied payment sent to another endpoint of the same price, or to another query, gets nothing; the buyer is then served once', async () => {
      const { signed, ticket } = await unknownSettlement();
      // The attacker copies the authorization and signature (public once broadcast) into a v1
      // payload, which names no resource, and even guesses the ticket header's name.
      const copied = toBase64(attacker.v1(signed));
      const elsewhere = await gw.get(SAME_PRICE_ELSEWHERE, { 'X-PAYMENT': copied });
      expect(elsewhere.status).to.equal(409);
      expect(elsewhere.body.error).to.equal('payment_redemption_refused');
      expect(elsewhere.body.reason).to.equal('request_mismatch');
      expect(elsewhere.body).to.not.have.property('n');
      const otherQuery = await gw.get(`/v1/${ECHO.tail}?n=4&note=hi`, { 'X-PAYMENT': copied });
      expect(otherQuery.body.reason).to.equal('request_mismatch');
      const sameRequest = await gw.get(ECHO_3, { 'X-PAYMENT': copied });
      expect(sameRequest.status).to.equal(409);
      expect(sameRequest.body.reason).to.equal('ticket_required');
      const guessed = await gw.get(ECHO_3, {
        'X-PAYMENT': copied,
        'Payment-Redemption-Ticket': randomBytes(24).toString('base64url'),
      });
      expect(guessed.body.reason).to.equal('ticket_mismatch');
      expect((await entryOf(signed))!).to.deep.include({ state: 'settle_unknown', attempts: 1 });

      // The same request with the parameters in another order is the same request.
      const retry = await gw.get(`/v1/${ECHO.tail}?note=hi&n=3`, {
        'X-PAYMENT': toBase64(buyer.v1(signed)),
        'Payment-Redemption-Ticket': ticket,
      });
      expect(retry.status).to.equal(200);
      expect(retry.body).to.include({ n: 3, note: 'hi' });
      expect(standin.transfersFrom(buyer.address)).to.have.length(1);
      const replay = await gw.get(ECHO_3, { 'X-PAYMENT': copied, 'Payment-Redemption-Ticket': ticket });
      expect(replay.status).to.equal(402);
      expect(replay.body.payment_error.code).to.equal('payment_already_used');
    });

    it('the reconciliation list names every unknown settlement with payer, nonce and transaction', async () => {
      const { signed } = await unknownSettlement();
      const unresolved = await gw.gateway.store.payments.listUnresolved(new Date(NOW * 1000));
      const mine = unresolved.find((e) => e.nonce === signed.authorization.nonce.toLowerCase());
      expect(mine).to.deep.include({ payer: buyer.address.toLowerCase(), state: 'settle_unknown' });
      expect(mine!.transaction).to.equal(standin.transfersFrom(buyer.address)[0].transaction);
    });
  });

  describe('item 2: junk signatures cannot release a buyer’s unknown settlement', () => {
    it('a 66-byte junk signature is refused locally: no facilitator call, the entry keeps its transaction, the buyer is served', async () => {
      const { signed, ticket } = await unknownSettlement();
      const before = { ...standin.calls };
      const junk = await gw.get(ECHO_3, {
        'X-PAYMENT': toBase64(attacker.v1(withJunkSignature(signed, 66))),
        'Payment-Redemption-Ticket': ticket,
      });
      expect(junk.status).to.equal(402);
      expect(junk.body.payment_error.code).to.equal('invalid_signature');
      expect(standin.calls).to.deep.equal(before);
      const entry = (await entryOf(signed))!;
      expect(entry.state).to.equal('settle_unknown');
      expect(entry.transaction).to.be.a('string');

      const retry = await gw.get(ECHO_3, {
        'X-PAYMENT': toBase64(buyer.v1(signed)),
        'Payment-Redemption-Ticket': ticket,
      });
      expect(retry.status).to.equal(200);
    });

    it('a smart-wallet-shaped junk signature (ABI words) for the same nonce is refused by the entry, without a settle call', async () => {
      const { signed, ticket } = await unknownSettlement();
      const before = { ...standin.calls };
      const junk = await gw.get(ECHO_3, {
        'X-PAYMENT': toBase64(attacker.v1(withJunkSignature(signed, 96))),
        'Payment-Redemption-Ticket': ticket,
      });
      expect(junk.status).to.equal(409);
      expect(junk.body.reason).to.equal('payment_mismatch');
      expect(standin.calls.settle).to.equal(before.settle);
      expect((await entryOf(signed))!.state).to.equal('settle_unknown');
    });

    it('a re-settlement the facilitator refuses is not a definite "not settled": the entry stays unresolved, never released', async () => {
      const { signed, ticket } = await unknownSettlement();
      standin.repeatSettle = 'invalid_signature';
      const retry = await gw.get(ECHO_3, {
        'X-PAYMENT': toBase64(buyer.v1(signed)),
        'Payment-Redemption-Ticket': ticket,
      });
      expect(retry.status).to.equal(503);
      expect(retry.body.error).to.equal('settlement_pending');
      expect(retry.body).to.not.have.property('redemption_ticket');
      const entry = (await entryOf(signed))!;
      expect(entry.state).to.equal('settle_unknown');
      expect(entry.transaction).to.be.a('string');
    });
  });

  describe('issue 34, item 3: the payer\u2019s Sign-In-With-X proof redeems its own payment, a stranger\u2019s does not', () => {
    it('a payer who lost its ticket redeems the unknown settlement with its proof, once; proofs of other keys or for other payments do nothing', async () => {
      const { signed } = await unknownSettlement();
      const mine = toBase64(buyer.v1(signed));
      const refused = await gw.get(ECHO_3, { 'X-PAYMENT': mine });
      expect(refused.status).to.equal(409);
      expect(refused.body.reason).to.equal('ticket_required');
      const declared = refused.body.extensions[SIGN_IN_WITH_X];
      expect(declared.info).to.include({
        domain: 'gateway.test',
        uri: `http://gateway.test/v1/${ECHO.tail}`,
        version: '1',
      });
      expect(declared.info.resources).to.deep.equal([`http://gateway.test/v1/${ECHO.tail}`]);
      expect(declared.supportedChains).to.deep.equal([{ chainId: 'eip155:8453', type: 'eip191' }]);
      expect(refused.body.hint).to.include('SIGN-IN-WITH-X');

      const copied = toBase64(attacker.v1(signed));
      const tries: Array<[string, Record<string, string>]> = [
        // The stranger signs the challenge with its own key.
        [
          'invalid_siwx_address',
          { 'SIGN-IN-WITH-X': (await signPayerProof(refused.body, attacker.account)).header },
        ],
        // The stranger names the payer but cannot sign for it.
        [
          'invalid_siwx_signature',
          {
            'SIGN-IN-WITH-X': (
              await signPayerProof(refused.body, {
                address: buyer.address,
                signMessage: (a: { message: string }) => attacker.account.signMessage(a),
              })
            ).header,
          },
        ],
        // The payer's proof for another gateway, or an old challenge.
        [
          'invalid_siwx_domain_mismatch',
          {
            'SIGN-IN-WITH-X': (
              await signPayerProof(refused.body, buyer.account, {
                domain: 'evil.test',
                uri: `http://evil.test/v1/${ECHO.tail}`,
              })
            ).header,
          },
        ],
        [
          'invalid_siwx_issued_at_too_old',
          {
            'SIGN-IN-WITH-X': (
              await signPayerProof(refused.body, buyer.account, {
                issuedAt: new Date((NOW - 600) * 1000).toISOString(),
              })
            ).header,
          },
        ],
        ['invalid_siwx_payload', { 'SIGN-IN-WITH-X': 'bm90IGEgcHJvb2Y=' }],
      ];
      for (const [code, headers] of tries) {
        const res = await gw.get(ECHO_3, { 'X-PAYMENT': copied, ...headers });
        expect(res.status, code).to.equal(409);
        expect(res.body.payer_proof_error.code, code).to.equal(code);
        expect(res.body).to.not.have.property('n');
      }
      expect((await entryOf(signed))!).to.deep.include({ state: 'settle_unknown', attempts: 1 });

      const proof = (await signPayerProof(refused.body, buyer.account)).header;
      const served = await gw.get(ECHO_3, { 'X-PAYMENT': mine, 'SIGN-IN-WITH-X': proof });
      expect(served.status, served.text).to.equal(200);
      expect(served.body).to.include({ n: 3, note: 'hi' });
      const [transfer] = standin.transfersFrom(buyer.address);
      expect(served.body._gateway.payment.transaction).to.equal(transfer.transaction);
      const again = await gw.get(ECHO_3, { 'X-PAYMENT': mine, 'SIGN-IN-WITH-X': proof });
      expect(again.status).to.equal(402);
      expect(again.body.payment_error).to.include({ code: 'payment_already_used', settled: true });
      expect(standin.transfersFrom(buyer.address)).to.have.length(1);
    });

    it('a proof redeems one take: when that re-settlement is unknown again, the same proof is refused and a new challenge redeems it', async () => {
      const { signed } = await unknownSettlement();
      const mine = toBase64(buyer.v1(signed));
      const refused = await gw.get(ECHO_3, { 'X-PAYMENT': mine });
      const proof = (await signPayerProof(refused.body, buyer.account)).header;
      standin.goDown();
      try {
        const down = await gw.get(ECHO_3, { 'X-PAYMENT': mine, 'SIGN-IN-WITH-X': proof });
        expect(down.status).to.equal(503);
        expect(down.body.error).to.equal('settlement_pending');
      } finally {
        await standin.comeBack();
      }
      const replayed = await gw.get(ECHO_3, { 'X-PAYMENT': mine, 'SIGN-IN-WITH-X': proof });
      expect(replayed.status).to.equal(409);
      expect(replayed.body.payer_proof_error.code).to.equal('invalid_siwx_nonce');
      const fresh = (await signPayerProof(replayed.body, buyer.account)).header;
      const served = await gw.get(ECHO_3, { 'X-PAYMENT': mine, 'SIGN-IN-WITH-X': fresh });
      expect(served.status, served.text).to.equal(200);
      expect(standin.transfersFrom(buyer.address)).to.have.length(1);
    });
  });

  describe('item 3: refused payments leave no lasting trace', () => {
    it('junk payments from random payers: refused locally, nothing written, no facilitator call', async () => {
      const before = { ...standin.calls };
      for (let i = 0; i < 20; i++) {
        const victim = new TestPayer();
        const signed = withJunkSignature(
          await victim.sign(terms, NOW, { validBefore: NOW + 360 * 86_400, nonce: randomNonce() }),
          66,
        );
        const res = await gw.get(ECHO_3, { 'X-PAYMENT': toBase64(attacker.v1(signed)) });
        expect(res.status).to.equal(402);
        expect(await entryOf(signed)).to.equal(null);
      }
      expect(standin.calls).to.deep.equal(before);
    });

    it('a smart-wallet-shaped signature goes to /verify before any ledger write; refused, it leaves nothing', async () => {
      const signed = withJunkSignature(await attacker.sign(terms, NOW), 128);
      const before = standin.calls.verify;
      const res = await gw.get(ECHO_3, { 'X-PAYMENT': toBase64(attacker.v1(signed)) });
      expect(res.status).to.equal(402);
      expect(res.body.payment_error.code).to.equal('facilitator_rejected');
      expect(standin.calls.verify).to.equal(before + 1);
      expect(await entryOf(signed)).to.equal(null);
    });

    it(`a payment /verify refuses is forgotten within ${RELEASED_RETENTION_MINUTES} minutes`, async () => {
      const signed = await buyer.sign(terms, NOW);
      standin.verifyBehaviour = 'reject';
      const res = await gw.get(ECHO_3, { 'X-PAYMENT': toBase64(buyer.v1(signed)) });
      expect(res.status).to.equal(402);
      const entry = (await entryOf(signed))!;
      expect(entry.state).to.equal('released');
      expect(entry.expiresAt.getTime() - NOW * 1000).to.be.at.most(RELEASED_RETENTION_MINUTES * 60_000);
    });
  });
});

describe('paid surface: per-client payment rate and a cap that counts work', function () {
  this.timeout(30_000);
  const payTo = randomAddress();
  const terms = usdcOnBase(payTo);

  it('payments beyond PAID_PAYMENTS_PER_MINUTE get 429 with Retry-After before any check; unpaid challenges are not counted', async () => {
    const standin = await startFacilitatorStandin({ now: () => NOW });
    const gw = await startTestGateway({
      ...fixtures(ECHO),
      clock: NOW_ISO,
      env: { X402_PAY_TO: payTo, X402_FACILITATOR_URL: standin.url, PAID_PAYMENTS_PER_MINUTE: '3' },
    });
    try {
      for (let i = 0; i < 5; i++) expect((await gw.get(ECHO_3)).status).to.equal(402);
      const buyer = new TestPayer();
      const statuses: number[] = [];
      let limited;
      for (let i = 0; i < 5; i++) {
        const res = await gw.get(ECHO_3, { 'X-PAYMENT': toBase64(buyer.v1(await buyer.sign(terms, NOW))) });
        statuses.push(res.status);
        if (res.status === 429) limited = res;
      }
      expect(statuses).to.deep.equal([200, 200, 200, 429, 429]);
      expect(limited!.body.error).to.equal('rate_limited');
      expect(Number(limited!.headers.get('retry-after'))).to.be.within(1, 60);
      expect(standin.calls.verify).to.equal(3);
    } finally {
      await gw.close();
      await standin.close();
    }
  });

  it('aborted requests keep their slot until their work ends: no more facilitator calls at once than the cap', async () => {
    const slow = `/v1/${SLOW.tail}?ms=1500`;
    const standin = await startFacilitatorStandin();
    const gw = await startTestGateway({
      ...fixtures(SLOW),
      env: { CONCURRENT_REQUESTS_PER_CLIENT: '2', X402_PAY_TO: payTo, X402_FACILITATOR_URL: standin.url },
    });
    try {
      const buyer = new TestPayer();
      const now = Math.floor(Date.now() / 1000);
      // Twelve paid requests, each abandoned by the client 100 ms after it was sent.
      for (let i = 0; i < 12; i++) {
        const h = toBase64(buyer.v1(await buyer.sign(terms, now)));
        const controller = new AbortController();
        const sent = fetch(gw.url + slow, {
          headers: { 'X-PAYMENT': h },
          signal: controller.signal,
        });
        await new Promise((r) => setTimeout(r, 100));
        controller.abort();
        await sent.catch(() => undefined);
      }
      // Every abandoned call whose work began verified its payment; only the cap's two did.
      expect(standin.calls.verify).to.equal(2);
      const next = await gw.get(slow, {
        'X-PAYMENT': toBase64(buyer.v1(await buyer.sign(terms, now))),
      });
      expect(next.status).to.equal(429);
      expect(next.body.error).to.equal('too_many_concurrent_requests');
      await new Promise((r) => setTimeout(r, 1800));
      const later = await gw.get(slow, {
        'X-PAYMENT': toBase64(buyer.v1(await buyer.sign(terms, now))),
      });
      expect(later.status).to.equal(200);
    } finally {
      await gw.close();
      await standin.close();
    }
  });
});

describe('paid surface: a gateway killed mid-settle (issue 34, items 1 and 3; facilitator stand-in)', function () {
  this.timeout(60_000);
  const payTo = randomAddress();
  const terms = usdcOnBase(payTo);
  const attacker = new TestPayer();
  /** Seconds added to the real clock, for the gateway started after the kill and for the stand-in. */
  let offset = 0;
  const nowSeconds = () => Math.floor(Date.now() / 1000) + offset;
  let standin: FacilitatorStandin;
  let dataDir: string;
  const env = () => ({
    X402_PAY_TO: payTo,
    X402_FACILITATOR_URL: standin.url,
    // The settle lease is this plus 60 s: 70 s.
    X402_FACILITATOR_TIMEOUT_MS: '10000',
  });
  const LEASE_OVER = 80;

  before(async () => {
    standin = await startFacilitatorStandin({ now: nowSeconds });
  });
  after(() => standin.close());
  beforeEach(() => {
    offset = 0;
    dataDir = mkdtempSync(path.join(tmpdir(), 'jpgw-killed-'));
    standin.settleBehaviour = 'settle_then_hang';
    standin.repeatSettle = 'idempotent';
  });
  afterEach(() => removeStoreFor(dataDir));

  /** The gateway process settling `headers`' payment is killed once the stand-in moved the money. */
  async function killedWhileSettling(buyer: TestPayer, headers: Record<string, string>): Promise<void> {
    await killMidSettle(
      { ...env(), ...storeEnvFor(dataDir) },
      [{ path: ECHO_3, headers }],
      async () => standin.transfersFrom(buyer.address).length === 1,
    );
    standin.settleBehaviour = 'normal';
  }
  const restart = () =>
    startTestGateway({
      ...fixtures(ECHO),
      clock: { now: () => new Date(nowSeconds() * 1000) },
      env: { ...env(), DATA_DIR: dataDir },
    });

  it('without a payment identifier: after the lease a stranger with the copied authorization is refused and cannot lock the payer out; the payer\u2019s proof redeems it, charged once', async () => {
    const buyer = new TestPayer();
    const signed = await buyer.sign(terms, nowSeconds());
    await killedWhileSettling(buyer, { 'X-PAYMENT': toBase64(buyer.v1(signed)) });
    offset = LEASE_OVER;
    const gw = await restart();
    try {
      const settles = standin.calls.settle;
      const copied = toBase64(attacker.v1(signed));
      let refusal;
      for (const headers of [
        {} as Record<string, string>,
        { 'Payment-Redemption-Ticket': randomBytes(24).toString('base64url') },
        { 'Payment-Redemption-Ticket': 'x' },
      ]) {
        refusal = await gw.get(ECHO_3, { 'X-PAYMENT': copied, ...headers });
        expect(refusal.status, refusal.text).to.equal(409);
        expect(refusal.body).to.include({
          error: 'payment_redemption_refused',
          reason: 'payer_proof_required',
          redeem_with: 'sign-in-with-x',
        });
        expect(refusal.body).to.not.have.property('n');
      }
      const own = await signPayerProof(refusal!.body, attacker.account);
      const withOwnKey = await gw.get(ECHO_3, { 'X-PAYMENT': copied, 'SIGN-IN-WITH-X': own.header });
      expect(withOwnKey.body).to.include({ reason: 'payer_proof_invalid' });
      expect(standin.calls.settle, 'the stranger caused no settlement').to.equal(settles);
      const entry = await gw.gateway.store.payments.get(
        ledgerId({
          chainId: 8453,
          asset: USDC_ON_BASE,
          payer: buyer.address,
          nonce: signed.authorization.nonce,
        }),
      );
      expect(entry).to.deep.include({ state: 'pending', phase: 'settle', attempts: 1, ticketHash: null });

      const proof = await signPayerProof(refusal!.body, buyer.account);
      const served = await gw.get(ECHO_3, {
        'X-PAYMENT': toBase64(buyer.v1(signed)),
        'SIGN-IN-WITH-X': proof.header,
      });
      expect(served.status, served.text).to.equal(200);
      expect(served.body).to.include({ n: 3, note: 'hi' });
      const [transfer] = standin.transfersFrom(buyer.address);
      expect(served.body._gateway.payment.transaction).to.equal(transfer.transaction);
      expect(standin.transfersFrom(buyer.address)).to.have.length(1);
      const late = await gw.get(ECHO_3, { 'X-PAYMENT': copied, 'SIGN-IN-WITH-X': proof.header });
      expect(late.status).to.equal(402);
      expect(late.body.payment_error.code).to.equal('payment_already_used');
    } finally {
      await gw.close();
    }
  });

  it('with a payment identifier, retried only after the authorization expired, without a chain reader: 503 settlement_pending naming the expiry, never a new signature; listed for the operator', async () => {
    const buyer = new TestPayer();
    const h = toBase64({
      ...buyer.v2(await buyer.sign(terms, nowSeconds()), terms, `http://gateway.test/v1/${ECHO.tail}`),
      extensions: { 'payment-identifier': { info: { id: `pay_${randomBytes(16).toString('hex')}` } } },
    });
    await killedWhileSettling(buyer, { 'PAYMENT-SIGNATURE': h });
    offset = 300 + 60;
    const gw = await restart();
    try {
      const late = await gw.get(ECHO_3, { 'PAYMENT-SIGNATURE': h });
      expect(late.status, late.text).to.equal(503);
      expect(late.body).to.include({
        error: 'settlement_pending',
        authorization_expired: true,
        redeem_with: 'operator_reconciliation',
      });
      expect(JSON.stringify(late.body)).to.not.match(/sign a (new|fresh)|Nothing was charged/i);
      const unresolved = await gw.gateway.store.payments.listUnresolved(new Date(nowSeconds() * 1000));
      expect(unresolved.map((e) => e.payer)).to.include(buyer.address.toLowerCase());
      expect(standin.transfersFrom(buyer.address)).to.have.length(1);
    } finally {
      await gw.close();
    }
  });
});
