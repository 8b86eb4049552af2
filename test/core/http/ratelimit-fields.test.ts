/**
 * Rate limits announced on every rate-limited surface (issue 29, item 3) in the fields of
 * draft-ietf-httpapi-ratelimit-headers: RateLimit-Policy `"name";q=;w=` and RateLimit
 * `"name";r=;t=`. The preview has its own limit (PREVIEW_REQUESTS_PER_MINUTE); every 429 keeps
 * Retry-After. Browsers may read the fields (CORS).
 */
import { expect } from 'chai';
import { startFacilitatorStandin, type FacilitatorStandin } from '../../support/facilitator-standin';
import { ECHO, fixtures } from '../../support/fx-endpoints';
import { startTestGateway, type TestGateway, type TestResponse } from '../../support/gateway';

/** The members of a RateLimit field: policy name → parameters. */
function members(value: string | null): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const member of (value ?? '').split(/,\s*/).filter(Boolean)) {
    const [name, ...params] = member.split(';');
    out[JSON.parse(name) as string] = Object.fromEntries(
      params.map((p) => [p.split('=')[0], Number(p.split('=')[1])]),
    );
  }
  return out;
}

const limitOf = (res: TestResponse) => members(res.headers.get('ratelimit'));
const policyOf = (res: TestResponse) => members(res.headers.get('ratelimit-policy'));

function expect429(res: TestResponse, policy: string): void {
  expect(res.status, res.text).to.equal(429);
  expect(res.body.error).to.equal('rate_limited');
  const retry = Number(res.headers.get('retry-after'));
  expect(retry).to.be.at.least(1);
  expect(limitOf(res)[policy]).to.deep.equal({ r: 0, t: retry });
}

describe('RateLimit and RateLimit-Policy on every rate-limited surface', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({
      ...fixtures(ECHO),
      env: {
        PREVIEW_REQUESTS_PER_MINUTE: '3',
        BROKER_LIMIT_PER_MINUTE: '2',
        KEY_CREATE_LIMIT_PER_HOUR: '5',
        TRIAL_CREDIT_MICRO_USDC: '100000',
      },
    });
  });
  after(() => gw.close());

  it('the preview: its limit on every answer, then 429 with Retry-After, shared with /preview/mcp', async () => {
    const seen: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await gw.get(`/preview/v1/${ECHO.tail}?n=${i + 1}`);
      expect(res.status).to.equal(200);
      expect(policyOf(res)).to.deep.equal({ preview: { q: 3, w: 60 } });
      const { r, t } = limitOf(res).preview;
      seen.push(r);
      expect(t).to.be.within(1, 60);
    }
    expect(seen).to.deep.equal([2, 1, 0]);
    expect429(await gw.get(`/preview/v1/${ECHO.tail}?n=1`), 'preview');
    const mcp = await gw.post(
      '/preview/mcp',
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { accept: 'application/json, text/event-stream' },
    );
    expect429(mcp, 'preview');
  });

  it('the broker: the per-key limit, then 429', async () => {
    const { body, headers } = await gw.post('/keys/create', { owner_label: 'limits' });
    expect(policyOf({ headers } as TestResponse)).to.deep.equal({ keys_create: { q: 5, w: 3600 } });
    expect(limitOf({ headers } as TestResponse).keys_create).to.deep.equal({ r: 4, t: 3600 });
    const call = () =>
      gw.post('/broker/call', { product_id: ECHO.brokerId, query: { n: 1 } }, { 'X-API-Key': body.api_key });
    const first = await call();
    expect(first.status).to.equal(200);
    expect(policyOf(first)).to.deep.equal({ broker_key: { q: 2, w: 60 } });
    expect(limitOf(first).broker_key).to.deep.equal({ r: 1, t: 60 });
    expect(limitOf(await call()).broker_key.r).to.equal(0);
    expect429(await call(), 'broker_key');
  });

  it('browsers may read the fields and send the MCP headers', async () => {
    const res = await gw.get(`/preview/v1/${ECHO.tail}?n=1`, { Origin: 'https://agent.example' });
    const exposed = (res.headers.get('access-control-expose-headers') ?? '').split(', ');
    expect(exposed).to.include.members(['RateLimit', 'RateLimit-Policy', 'Retry-After', 'Mcp-Session-Id']);
    const pre = await fetch(`${gw.url}/preview/mcp`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://agent.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type,mcp-session-id,mcp-protocol-version',
      },
    });
    expect(pre.status).to.equal(204);
    const allowed = (pre.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(', ');
    expect(allowed).to.include.members(['content-type', 'mcp-session-id', 'mcp-protocol-version']);
  });
});

describe('RateLimit fields of requests carrying a payment', () => {
  let standin: FacilitatorStandin;
  let gw: TestGateway;
  before(async () => {
    standin = await startFacilitatorStandin();
    gw = await startTestGateway({
      ...fixtures(ECHO),
      env: {
        X402_PAY_TO: '0x1111111111111111111111111111111111111111',
        X402_FACILITATOR_URL: standin.url,
        PAID_PAYMENTS_PER_MINUTE: '2',
      },
    });
  });
  after(async () => {
    await gw.close();
    await standin.close();
  });

  it('count only requests with a payment, announced on the 402 of a refused payment, then 429', async () => {
    const unpaid = await gw.get(`/v1/${ECHO.tail}?n=1`);
    expect(unpaid.status).to.equal(402);
    expect(unpaid.headers.get('ratelimit')).to.equal(null);
    const paid = () => gw.get(`/v1/${ECHO.tail}?n=1`, { 'X-PAYMENT': 'not-a-payment' });
    const first = await paid();
    expect(first.status).to.equal(402);
    expect(policyOf(first)).to.deep.equal({ x402_payments: { q: 2, w: 60 } });
    expect(limitOf(first).x402_payments.r).to.equal(1);
    expect(limitOf(await paid()).x402_payments.r).to.equal(0);
    expect429(await paid(), 'x402_payments');
  });
});
