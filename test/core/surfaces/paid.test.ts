import { expect } from 'chai';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startFacilitatorStandin, type FacilitatorStandin } from '../../support/facilitator-standin';
import { ECHO, fixtures, PRICED, SLOW } from '../../support/fx-endpoints';
import { startTestGateway, type TestGateway } from '../../support/gateway';
import { SERVICE } from '../../../config/service';
import {
  fromBase64,
  randomAddress,
  TestPayer,
  toBase64,
  USDC_ON_BASE,
  usdcOnBase,
  type Terms,
} from '../payments/payer';

const NOW_ISO = '2026-11-22T03:00:00Z';
const NOW = Date.parse(NOW_ISO) / 1000;
const RESOURCE = `/v1/${ECHO.tail}`;
const PATH = `${RESOURCE}?n=3`;
/** Another endpoint at the same price as the echo. */
const SAME_PRICE_ELSEWHERE = `/v1/${SLOW.tail}?ms=0`;

describe('paid surface GET /v1/{tail} (x402)', () => {
  let standin: FacilitatorStandin;
  let gw: TestGateway;
  let terms: Terms;
  let payer: TestPayer;
  const logs: string[] = [];

  before(async () => {
    standin = await startFacilitatorStandin({ now: () => NOW });
    const payTo = randomAddress();
    gw = await startTestGateway({
      ...fixtures(ECHO, SLOW, PRICED),
      clock: NOW_ISO,
      logs,
      env: {
        X402_PAY_TO: payTo,
        X402_FACILITATOR_URL: standin.url,
        X402_FACILITATOR_AUTH: 'Bearer standin-token',
      },
    });
    terms = usdcOnBase(payTo);
  });
  after(async () => {
    await gw.close();
    await standin.close();
  });
  beforeEach(() => {
    payer = new TestPayer();
    standin.verifyBehaviour = 'normal';
    standin.settleBehaviour = 'normal';
  });

  const v1Header = async (o = {}) => toBase64(payer.v1(await payer.sign(terms, NOW, o)));
  const pay = (header: string, path = PATH, name = 'X-PAYMENT') => gw.get(path, { [name]: header });

  describe('the 402 challenge', () => {
    it('answers an unpaid request with exactly the 402 of spec 7.1', async () => {
      const res = await gw.get(PATH);
      expect(res.status).to.equal(402);
      expect(res.headers.get('accept-payment')).to.equal('x402');
      expect(res.headers.get('x-payment-currency')).to.equal('USDC');
      expect(res.headers.get('x-payment-network')).to.equal('eip155:8453');
      expect(res.headers.get('x-payment-info')).to.equal('/.well-known/x402');
      expect(res.headers.get('content-type')).to.match(/^application\/json/);
      expect(res.headers.get('cache-control')).to.equal('no-store');
      expect(res.body.error).to.equal('payment_required');
      expect(res.body.message).to.match(/normal x402 payment handshake, not an outage/);
      expect(res.body.x402).to.deep.equal({
        accepts: [
          {
            scheme: 'exact',
            network: 'eip155:8453',
            asset: USDC_ON_BASE,
            payTo: terms.payTo,
            maxAmountRequired: '1000',
            resource: RESOURCE,
            description: gw.gateway.registry.soldByTail(ECHO.tail)!.manifest.summary,
            mimeType: 'application/json',
            maxTimeoutSeconds: 300,
            extra: { name: 'USD Coin', version: '2' },
          },
        ],
        description: res.body.x402.description,
        mimeType: 'application/json',
      });
      expect(res.body.x402.description)
        .to.be.a('string')
        .and.match(/0\.001 USD/);
      expect(res.body).to.not.have.property('payment_error');
      expect(res.body).to.not.have.property('correction_hints');
    });

    it('also speaks x402 v2: PAYMENT-REQUIRED is base64 JSON with x402Version 2, resource and accepts with amount', async () => {
      const res = await gw.get(PATH);
      const required = fromBase64(res.headers.get('payment-required'));
      const plugin = gw.gateway.registry.soldByTail(ECHO.tail)!;
      expect(required).to.deep.equal({
        x402Version: 2,
        error: 'payment_required',
        resource: {
          url: `http://gateway.test${RESOURCE}`,
          description: plugin.manifest.summary,
          mimeType: 'application/json',
          serviceName: SERVICE.listing.serviceName,
          tags: plugin.product.tags,
          iconUrl: 'http://gateway.test/icon.svg',
        },
        accepts: [
          {
            scheme: 'exact',
            network: 'eip155:8453',
            amount: '1000',
            asset: USDC_ON_BASE,
            payTo: terms.payTo,
            maxTimeoutSeconds: 300,
            extra: { name: 'USD Coin', version: '2' },
          },
        ],
        extensions: required.extensions,
      });
      expect(required.extensions).to.have.keys('bazaar', 'payment-identifier');
    });

    it('prices each endpoint from its manifest', async () => {
      const res = await gw.get(`/v1/${PRICED.tail}`);
      expect(res.status).to.equal(402);
      const plugin = gw.gateway.registry.soldByTail(PRICED.tail)!;
      expect(plugin.priceMicroUsdc).to.equal(PRICED.price);
      expect(res.body.x402.accepts[0].maxAmountRequired).to.equal(String(PRICED.price));
      expect(res.body.x402.accepts[0].resource).to.equal(`/v1/${PRICED.tail}`);
    });

    it('challenges an unpaid request with an invalid query too, listing its problems with correction_hints', async () => {
      const res = await gw.get(`${RESOURCE}?n=10&colour=red`);
      expect(res.status).to.equal(402);
      expect(res.body.x402.accepts[0].maxAmountRequired).to.equal('1000');
      expect(res.body.query_valid).to.equal(false);
      expect(res.body.invalid_parameters).to.have.members(['n', 'colour']);
      const n = res.body.correction_hints.find((h: { parameter: string }) => h.parameter === 'n');
      expect(n).to.include({ code: 'out_of_range', accepted: 'an integer from 1 to 9' });
      expect(res.body.query_note).to.match(/422/);
    });

    it('refuses an invalid query that carries a payment with 422, without verifying, settling or using the payment', async () => {
      const header = await v1Header();
      const before = { ...standin.calls };
      const res = await pay(header, `${RESOURCE}?n=10`);
      expect(res.status).to.equal(422);
      expect(res.body.error).to.equal('invalid_query');
      expect(res.body.correction_hints[0]).to.include({ parameter: 'n', code: 'out_of_range' });
      expect(standin.calls).to.deep.equal(before);
      expect(standin.transfersFrom(payer.address)).to.have.length(0);
      // The same payment still buys the corrected call: its nonce was not consumed.
      const ok = await pay(header);
      expect(ok.status).to.equal(200);
      expect(standin.transfersFrom(payer.address)).to.have.length(1);
    });

    it('answers HEAD with the challenge and never uses a payment sent with it', async () => {
      const header = await v1Header();
      const before = { ...standin.calls };
      const res = await fetch(`${gw.url}${PATH}`, { method: 'HEAD', headers: { 'X-PAYMENT': header } });
      expect(res.status).to.equal(402);
      expect(res.headers.get('payment-required')).to.be.a('string');
      expect(standin.calls).to.deep.equal(before);
      expect((await pay(header)).status).to.equal(200);
    });

    it('answers unknown tails with a JSON 404 and a hint', async () => {
      const res = await gw.get(`/v1/${PRICED.tail.slice(0, -2)}d`);
      expect(res.status).to.equal(404);
      expect(res.body).to.include({ error: 'unknown_endpoint' });
      expect(res.body.did_you_mean).to.deep.equal([`/v1/${PRICED.tail}`]);
    });
  });

  describe('paid calls', () => {
    it('serves a v1 X-PAYMENT: verify, handler, settle, then 200 with the data, the payment and the settlement headers', async () => {
      const before = { ...standin.calls };
      const res = await pay(await v1Header());
      expect(res.status).to.equal(200);
      // A deterministic answer: the buyer alone may keep it (its receipt is in the body).
      expect(res.headers.get('cache-control')).to.equal('private, max-age=300');
      expect(res.headers.get('etag')).to.match(/^W\/"[\w-]{22}"$/);
      expect(res.body.n).to.equal(3);
      expect(res.body._gateway).to.include({
        surface: 'x402',
        endpoint_id: ECHO.endpointId,
        price_micro_usdc: 1000,
      });
      const [transfer] = standin.transfersFrom(payer.address);
      expect(transfer).to.include({ to: terms.payTo, value: '1000' });
      expect(res.body._gateway.payment).to.deep.equal({
        payer: payer.address,
        amount_micro_usdc: '1000',
        amount_usdc: '0.001',
        network: 'eip155:8453',
        asset: USDC_ON_BASE,
        payTo: terms.payTo,
        scheme: 'exact',
        transaction: transfer.transaction,
        x402_version: 1,
      });
      const settlement = fromBase64(res.headers.get('x-payment-response'));
      expect(settlement).to.deep.equal({
        success: true,
        transaction: transfer.transaction,
        network: 'eip155:8453',
        payer: payer.address,
      });
      expect(fromBase64(res.headers.get('payment-response'))).to.deep.equal(settlement);
      expect(standin.calls.verify - before.verify).to.equal(1);
      expect(standin.calls.settle - before.settle).to.equal(1);
      expect(standin.authorizations.at(-1)).to.equal('Bearer standin-token');
    });

    it('serves an x402 v2 payload in PAYMENT-SIGNATURE and in X-PAYMENT', async () => {
      for (const name of ['PAYMENT-SIGNATURE', 'X-PAYMENT']) {
        const signed = await payer.sign(terms, NOW);
        const res = await pay(
          toBase64(payer.v2(signed, terms, `http://gateway.test${RESOURCE}`)),
          PATH,
          name,
        );
        expect(res.status, name).to.equal(200);
        expect(res.body._gateway.payment.x402_version).to.equal(2);
      }
      expect(standin.transfersFrom(payer.address)).to.have.length(2);
    });

    it('accepts CAIP-2 as the network of a v1 payload', async () => {
      const res = await pay(toBase64(payer.v1(await payer.sign(terms, NOW), 'eip155:8453')));
      expect(res.status).to.equal(200);
    });
  });

  describe('refusals (each a fresh 402 with a reason code; nothing charged, nothing asked of the facilitator)', () => {
    const wrongKey = privateKeyToAccount(generatePrivateKey());
    const cases: Array<[string, string, () => Promise<string>]> = [
      ['not base64', 'malformed_payment', async () => '%%% not base64 %%%'],
      ['base64 of no JSON', 'malformed_payment', async () => Buffer.from('hello').toString('base64')],
      [
        'JSON without an authorization',
        'malformed_payment',
        async () => toBase64({ x402Version: 1, scheme: 'exact', network: 'base', payload: {} }),
      ],
      [
        'a signature that is not hex',
        'malformed_payment',
        async () => {
          const s = await payer.sign(terms, NOW);
          return toBase64(payer.v1({ ...s, signature: 'zz' as `0x${string}` }));
        },
      ],
      [
        'x402Version 3',
        'unsupported_x402_version',
        async () => toBase64({ ...payer.v1(await payer.sign(terms, NOW)), x402Version: 3 }),
      ],
      [
        'scheme upto',
        'unsupported_scheme',
        async () => toBase64(payer.v1(await payer.sign(terms, NOW), 'base', 'upto')),
      ],
      [
        'wrong network (Base Sepolia)',
        'network_mismatch',
        async () => toBase64(payer.v1(await payer.sign(terms, NOW, { chainId: 84532 }), 'base-sepolia')),
      ],
      [
        'wrong network (v2 accepted)',
        'network_mismatch',
        async () =>
          toBase64(
            payer.v2(
              await payer.sign(terms, NOW, { chainId: 84532 }),
              terms,
              `http://gateway.test${RESOURCE}`,
              { network: 'eip155:84532' },
            ),
          ),
      ],
      [
        'wrong asset (v2 accepted)',
        'asset_mismatch',
        async () => {
          const other = randomAddress();
          return toBase64(
            payer.v2(
              await payer.sign(terms, NOW, { asset: other }),
              terms,
              `http://gateway.test${RESOURCE}`,
              { asset: other },
            ),
          );
        },
      ],
      ['wrong payTo', 'recipient_mismatch', async () => v1Header({ to: randomAddress() })],
      ['too little', 'amount_mismatch', async () => v1Header({ value: '999' })],
      ['too much', 'amount_mismatch', async () => v1Header({ value: '1001' })],
      ['expired', 'authorization_expired', async () => v1Header({ validBefore: NOW - 1 })],
      [
        'expiring within the settlement margin',
        'authorization_expired',
        async () => v1Header({ validBefore: NOW + 3 }),
      ],
      ['not yet valid', 'authorization_not_yet_valid', async () => v1Header({ validAfter: NOW + 3600 })],
      [
        'valid for years',
        'authorization_too_long',
        async () => v1Header({ validBefore: NOW + 5 * 365 * 86400 }),
      ],
      ['signed by another key', 'invalid_signature', async () => v1Header({ signWith: wrongKey })],
      ['signed for another token domain', 'invalid_signature', async () => v1Header({ domainName: 'USDC' })],
      [
        'for another resource (v2)',
        'resource_mismatch',
        async () =>
          toBase64(
            payer.v2(
              await payer.sign(terms, NOW),
              terms,
              `http://gateway.test${SAME_PRICE_ELSEWHERE.split('?')[0]}`,
            ),
          ),
      ],
    ];
    for (const [what, code, header] of cases) {
      it(`${what} → ${code}`, async () => {
        const before = { ...standin.calls };
        const res = await pay(await header());
        expect(res.status).to.equal(402);
        expect(res.headers.get('cache-control')).to.equal('no-store');
        expect(res.body.error).to.equal('payment_required');
        expect(res.body.payment_error.code).to.equal(code);
        expect(res.body.message).to.match(/Nothing was charged/);
        expect(res.body.x402.accepts[0].payTo).to.equal(terms.payTo);
        expect(fromBase64(res.headers.get('payment-required')).error).to.equal(code);
        expect(standin.calls).to.deep.equal(before);
        expect(standin.transfersFrom(payer.address)).to.have.length(0);
      });
    }

    it('a tampered value whose signature no longer matches → invalid_signature', async () => {
      const s = await payer.sign(terms, NOW, { value: '999' });
      const res = await pay(
        toBase64(payer.v1({ ...s, authorization: { ...s.authorization, value: '1000' } })),
      );
      expect(res.body.payment_error.code).to.equal('invalid_signature');
    });

    it('two different payments in X-PAYMENT and PAYMENT-SIGNATURE → conflicting_payment_headers', async () => {
      const res = await gw.get(PATH, {
        'X-PAYMENT': await v1Header(),
        'PAYMENT-SIGNATURE': await v1Header(),
      });
      expect(res.status).to.equal(402);
      expect(res.body.payment_error.code).to.equal('conflicting_payment_headers');
    });

    it('a v1 payload in PAYMENT-SIGNATURE → unsupported_x402_version', async () => {
      const res = await pay(await v1Header(), PATH, 'PAYMENT-SIGNATURE');
      expect(res.body.payment_error.code).to.equal('unsupported_x402_version');
    });
  });

  describe('one payment buys one response', () => {
    it('refuses a replay of a settled payment with payment_already_used; charged once', async () => {
      const header = await v1Header();
      expect((await pay(header)).status).to.equal(200);
      const again = await pay(header);
      expect(again.status).to.equal(402);
      expect(again.body.payment_error.code).to.equal('payment_already_used');
      expect(again.body).to.not.have.property('n');
      // Also on another endpoint with the same price.
      const elsewhere = await pay(header, SAME_PRICE_ELSEWHERE);
      expect(elsewhere.status).to.equal(402);
      expect(standin.transfersFrom(payer.address)).to.have.length(1);
    });

    it('serves exactly one of the same payment sent eight times at once', async () => {
      const header = await v1Header();
      const results = await Promise.all(Array.from({ length: 8 }, () => pay(header)));
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).to.have.length(1);
      for (const r of results.filter((x) => x.status !== 200)) {
        expect([402, 409]).to.include(r.status);
        expect(r.body).to.not.have.property('n');
        if (r.status === 402) expect(r.body.payment_error.code).to.equal('payment_already_used');
        else expect(r.body.error).to.equal('payment_in_progress');
      }
      expect(standin.transfersFrom(payer.address)).to.have.length(1);
    });
  });

  describe('facilitator answers', () => {
    it('a payment the facilitator refuses at verify → 402 facilitator_rejected with its reason; released for a retry', async () => {
      const header = await v1Header();
      standin.verifyBehaviour = 'reject';
      const res = await pay(header);
      expect(res.status).to.equal(402);
      expect(res.body.payment_error).to.include({
        code: 'facilitator_rejected',
        facilitator_reason: 'invalid_exact_evm_insufficient_balance',
      });
      standin.verifyBehaviour = 'normal';
      expect((await pay(header)).status).to.equal(200);
      expect(standin.transfersFrom(payer.address)).to.have.length(1);
    });

    it('a verify answer that is not a verify result → 502/503 facilitator_unavailable, no data, nothing charged', async () => {
      const settleCalls = standin.calls.settle;
      for (const [behaviour, status] of [
        ['http500', 503],
        ['garbage', 502],
      ] as const) {
        standin.verifyBehaviour = behaviour;
        const res = await pay(await v1Header());
        expect(res.status, behaviour).to.equal(status);
        expect(res.body.error).to.equal('facilitator_unavailable');
        expect(res.body).to.not.have.property('n');
        expect(res.headers.get('retry-after')).to.equal('5');
      }
      expect(standin.calls.settle).to.equal(settleCalls);
      expect(standin.transfersFrom(payer.address)).to.have.length(0);
    });

    it('a failed settlement → 402 settlement_failed with PAYMENT-RESPONSE success:false, no data, nothing charged; the payment can be retried', async () => {
      const header = await v1Header();
      standin.settleBehaviour = 'fail';
      const res = await pay(header);
      expect(res.status).to.equal(402);
      expect(res.body.payment_error).to.include({
        code: 'settlement_failed',
        facilitator_reason: 'invalid_exact_evm_transaction_failed',
      });
      expect(res.body).to.not.have.property('n');
      expect(res.body).to.not.have.property('_gateway');
      expect(fromBase64(res.headers.get('payment-response'))).to.include({
        success: false,
        errorReason: 'invalid_exact_evm_transaction_failed',
      });
      expect(standin.transfersFrom(payer.address)).to.have.length(0);
      standin.settleBehaviour = 'normal';
      expect((await pay(header)).status).to.equal(200);
      expect(standin.transfersFrom(payer.address)).to.have.length(1);
    });
  });

  it('logs every outcome with payer and nonce, never the signature', async () => {
    const signed = await payer.sign(terms, NOW);
    const header = toBase64(payer.v1(signed));
    await pay(header);
    await pay(header);
    const outcomes = logs
      .map((l) => JSON.parse(l) as { x402?: { outcome: string; payer: string; nonce: string } })
      .filter((l) => l.x402?.payer === payer.address.toLowerCase());
    expect(outcomes.map((l) => l.x402!.outcome)).to.deep.equal(['settled', 'replay_refused']);
    await pay(await v1Header(), `${RESOURCE}?n=10`);
    const unused = logs.map((l) => JSON.parse(l)).filter((l) => l.x402?.outcome === 'not_used_invalid_query');
    expect(unused.at(-1).x402.payer).to.equal(payer.address.toLowerCase());
    for (const l of outcomes) expect(l.x402!.nonce).to.equal(signed.authorization.nonce.toLowerCase());
    // A 304 (the buyer names the answer's tag) is logged as such, not as a failed handler.
    const tag = (await pay(await v1Header())).headers.get('etag')!;
    const held = await payer.sign(terms, NOW);
    expect(
      (await gw.get(PATH, { 'X-PAYMENT': toBase64(payer.v1(held)), 'If-None-Match': tag })).status,
    ).to.equal(304);
    const notModified = logs
      .map((l) => JSON.parse(l) as { x402?: { outcome: string; nonce: string } })
      .filter((l) => l.x402?.nonce === held.authorization.nonce.toLowerCase())
      .map((l) => l.x402!.outcome);
    expect(notModified).to.deep.equal(['not_settled_not_modified']);
    const sig = signed.signature.slice(2, 40);
    expect(logs.some((l) => l.includes(sig))).to.equal(false);
    expect(logs.some((l) => l.includes(header.slice(0, 40)))).to.equal(false);
  });
});

describe('paid surface without payment configuration', () => {
  it('answers 503 with an operator runbook naming the missing settings (even before a payment or a valid tail)', async () => {
    const gw = await startTestGateway(fixtures(ECHO));
    try {
      for (const path of [PATH, '/v1/local/nope']) {
        const res = await gw.get(path, { 'X-PAYMENT': 'whatever' });
        expect(res.status, path).to.equal(503);
        expect(res.headers.get('cache-control')).to.equal('no-store');
        expect(res.body.error).to.equal('payments_not_configured');
        expect(res.body.message).to.match(/Nothing was charged/);
        expect(res.body.runbook.missing).to.deep.equal(['X402_PAY_TO', 'X402_FACILITATOR_URL']);
        expect(res.body.runbook.documentation).to.include('docs/payments.md');
        const names = res.body.runbook.settings.map((s: { name: string }) => s.name);
        expect(names).to.include.members([
          'X402_PAY_TO',
          'X402_FACILITATOR_URL',
          'X402_FACILITATOR_AUTH',
          'X402_NETWORK',
        ]);
      }
      const known = await gw.get(RESOURCE);
      expect(known.body.hint).to.include(`/preview/v1/${ECHO.tail}`);
    } finally {
      await gw.close();
    }
  });

  it('names only the receiving wallet when the facilitator is set, and never shows the facilitator credential', async () => {
    const gw = await startTestGateway({
      ...fixtures(ECHO),
      env: { X402_FACILITATOR_URL: 'http://127.0.0.1:9', X402_FACILITATOR_AUTH: 'Bearer very-secret-token' },
    });
    try {
      const res = await gw.get(RESOURCE);
      expect(res.status).to.equal(503);
      expect(res.body.runbook.missing).to.deep.equal(['X402_PAY_TO']);
      expect(res.text).to.not.include('very-secret-token');
      const auth = res.body.runbook.settings.find(
        (s: { name: string }) => s.name === 'X402_FACILITATOR_AUTH',
      );
      expect(auth.status).to.equal('set');
    } finally {
      await gw.close();
    }
  });
});
