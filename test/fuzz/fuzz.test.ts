/**
 * Bounded, seeded fuzzing of every operation in openapi.json on every surface, plus unknown paths:
 * random and malformed queries, headers (broken base64 payments, huge values, wrong types) and
 * bodies. The gateway must never answer 5xx (other than the documented "not configured" 503s),
 * every error must be JSON with a stable code (except the spec's text-only 401 of /keys/status),
 * and the process must stay up. Reproducible: FUZZ_SEED and FUZZ_CASES pick the run.
 */
import { expect } from 'chai';
import http from 'node:http';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { startFacilitatorStandin, type FacilitatorStandin } from '../support/facilitator-standin';
import { randomAddress, TestPayer, toBase64, USDC_ON_BASE, type Terms } from '../core/payments/payer';

const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const CASES = Number(process.env.FUZZ_CASES ?? 4000);
const ALLOWED_503 = new Set([
  'marketplace_proxy_not_configured',
  'payment_not_configured',
  'x402_not_configured',
]);

/** mulberry32: small, fast, seedable. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

const NASTY = [
  '',
  ' ',
  '0',
  '-1',
  '1.5',
  '1e3',
  '99999999999999999999999',
  'NaN',
  'Infinity',
  'true',
  'null',
  '[]',
  '{}',
  '%',
  '%E0%A4%A',
  '%00',
  '\u0000',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '株式会社トヨタ',
  'ｔｏｙｏｔａ',
  '𠮷野家',
  'T1180301018771',
  '1180301018771',
  '2026-02-30',
  '2026-13',
  'x'.repeat(5000),
  '🙂'.repeat(300),
  '__proto__',
  'constructor',
];

function randomValue(r: Rand): string {
  switch (Math.floor(r() * 6)) {
    case 0:
      return pick(r, NASTY);
    case 1:
      return String(Math.floor(r() * 2e8) - 1e8);
    case 2:
      return String(Math.floor(r() * 3000));
    case 3:
      return Array.from({ length: Math.floor(r() * 20) }, () =>
        String.fromCharCode(32 + (Math.floor(r() * 0xffff) % 0xd7ff)),
      ).join('');
    case 4:
      return enc(pick(r, NASTY));
    default:
      return pick(r, [
        '2026',
        '2024',
        '13',
        '01',
        '47',
        '10',
        '1',
        'true',
        'false',
        '2026-11-22',
        '2026-06',
        'toyota',
        'トヨタ',
        'example.co.jp',
      ]);
  }
}

function randomQuery(r: Rand, names: string[]): string {
  const parts: string[] = [];
  const n = Math.floor(r() * 5);
  for (let i = 0; i < n; i++) {
    const name =
      r() < 0.75 && names.length > 0
        ? pick(r, names)
        : pick(r, ['x', 'yeer', '__proto__', 'a[b]', 'limit[]', '', '%ZZ']);
    const value = randomValue(r);
    // Sometimes raw (possibly broken percent-encoding), sometimes encoded.
    parts.push(r() < 0.3 ? `${name}=${value}` : `${enc(name)}=${enc(value)}`);
  }
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

function randomHeaders(r: Rand): Record<string, string> {
  const h: Record<string, string> = {};
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const payments = [
    'not-base64!!',
    b64('not json'),
    b64('{}'),
    b64('[]'),
    b64(JSON.stringify({ x402Version: 1, scheme: 'exact', network: 'eip155:8453', payload: {} })),
    b64(
      JSON.stringify({
        x402Version: 2,
        payload: { signature: '0x00', authorization: { from: 'x', value: -1 } },
      }),
    ),
    b64(
      JSON.stringify({
        x402Version: 1,
        scheme: 'exact',
        network: 'eip155:8453',
        payload: {
          signature: '0x' + 'ab'.repeat(65),
          authorization: {
            from: '0x0000000000000000000000000000000000000001',
            to: '0x0000000000000000000000000000000000000002',
            value: '1000',
            validAfter: '0',
            validBefore: '99999999999',
            nonce: '0x' + '11'.repeat(32),
          },
        },
      }),
    ),
    'A'.repeat(12_000),
  ];
  if (r() < 0.3) h['X-PAYMENT'] = pick(r, payments);
  if (r() < 0.15) h['PAYMENT-SIGNATURE'] = pick(r, payments);
  if (r() < 0.2) h['X-API-Key'] = pick(r, ['jpgw_x', 'jpgw_' + '1'.repeat(44), '', 'x'.repeat(3000), '🙂']);
  if (r() < 0.2) h['X-Marketplace-Proxy-Secret'] = pick(r, ['', 'wrong', 'x'.repeat(5000)]);
  if (r() < 0.1) h['X-Service-Marketplace-Secret'] = pick(r, ['wrong', 'fuzz-secret-value-0001']);
  if (r() < 0.2) h['Idempotency-Key'] = pick(r, ['k1', '', 'x'.repeat(400), 'ü']);
  if (r() < 0.1) h['X-Request-Id'] = pick(r, ['ok-id', 'bad id', 'x'.repeat(300)]);
  if (r() < 0.2)
    h['Content-Type'] = pick(r, [
      'application/json',
      'text/plain',
      'application/json; charset=latin1',
      'multipart/form-data',
      'application/x-www-form-urlencoded',
    ]);
  if (r() < 0.1) h['Accept'] = pick(r, ['text/html', '*/*', 'application/xml']);
  return h;
}

function randomBody(r: Rand): string {
  const bodies = [
    '',
    '{',
    'null',
    '[]',
    '"text"',
    '{"owner_label":' + JSON.stringify(randomValue(r)) + '}',
    '{"product_id":' +
      JSON.stringify(randomValue(r)) +
      ',"query":{"year":' +
      JSON.stringify(randomValue(r)) +
      '}}',
    '{"product_id":"jp-local-pack-v1-holiday","query":' +
      pick(r, ['[]', '"x"', 'null', '{"__proto__":{"admin":true}}', '{"year":{"$gt":1}}']) +
      '}',
    '{"product_id":"jp-local-pack","rating":' +
      pick(r, ['0', '6', '"5"', 'null', '1e309', '3']) +
      ',"message":' +
      JSON.stringify(randomValue(r)) +
      '}',
    '{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}',
    '['.repeat(5000) + ']'.repeat(5000),
    '{"a":"' + 'x'.repeat(20_000) + '"}',
  ];
  return pick(r, bodies);
}

interface Raw {
  status: number;
  contentType: string;
  body: string;
}

/** Node's client refuses raw spaces and non-ASCII in paths: encode those, keep broken %-escapes. */
function wirePath(path: string): string {
  return path.replace(/[^\x21-\x7e]/g, (c) => pct(c));
}

/** Percent-encodes the UTF-8 bytes of a text (lone surrogates become U+FFFD, as on the wire). */
function pct(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`)
    .join('');
}

/** encodeURIComponent without its URIError on lone surrogates. */
function enc(text: string): string {
  return text.replace(/[^A-Za-z0-9\-_.!~*'()]/g, (c) => pct(c));
}

/** Header values must be Latin-1 text on the wire. */
function wireHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.replace(/[^\x20-\x7e]/g, '?')]));
}

/** Raw HTTP, so that malformed paths and headers reach the server as sent. */
function send(
  base: URL,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: base.hostname,
        port: base.port,
        method,
        path: wirePath(path),
        headers: {
          ...wireHeaders(headers),
          ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            body: text,
          }),
        );
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

describe(`fuzz: ${CASES} seeded requests (seed ${SEED}) against every operation on every surface`, function () {
  this.timeout(180_000);
  let gw: TestGateway;
  let standin: FacilitatorStandin;
  let payTo: string;
  before(async () => {
    standin = await startFacilitatorStandin();
    payTo = randomAddress();
    gw = await startTestGateway({
      env: {
        MARKETPLACE_SECRETS: 'fuzz-secret-value-0001',
        TRIAL_CREDIT_MICRO_USDC: '1000000',
        X402_PAY_TO: payTo,
        X402_FACILITATOR_URL: standin.url,
      },
    });
  });
  after(async () => {
    await gw.close();
    await standin.close();
  });

  it('never answers 5xx, answers every error as JSON with a stable code, and stays up', async () => {
    const doc = (await gw.get('/openapi.json')).body as {
      paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }> }>>;
    };
    const ops: Array<{ method: string; path: string; params: string[] }> = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        ops.push({
          method: method.toUpperCase(),
          path,
          params: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        });
      }
    }
    const junk = [
      '/v1/',
      '/v1/local',
      '/preview/v1/../../etc/passwd',
      '/marketplace/other/v1/local/holiday/jp',
      '/%E0%A4%A',
      '/preview/v1/local/holiday/jp/',
      '//health',
      '/products/%00',
      '/keys/create',
    ];
    const r = rng(SEED);
    const base = new URL(gw.url);
    const payer = new TestPayer();
    const prices = new Map(gw.gateway.registry.sold().map((p) => [`/v1/${p.tail}`, p.priceMicroUsdc]));
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let done = 0;
    const one = async () => {
      const useJunk = r() < 0.08;
      const op = pick(r, ops);
      const method = useJunk
        ? pick(r, ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'HEAD'])
        : r() < 0.9
          ? op.method
          : pick(r, ['PUT', 'DELETE', 'PATCH']);
      const template = useJunk ? pick(r, junk) : op.path;
      const path =
        template.replace(/\{[^}]+\}/g, () => enc(randomValue(r)).slice(0, 200) || 'x') +
        randomQuery(r, op.params);
      const headers = randomHeaders(r);
      // Some paid calls carry a real payment for the endpoint's price: the success path is fuzzed too.
      const paid = !useJunk && template.startsWith('/v1/') ? prices.get(template) : undefined;
      if (paid !== undefined && r() < 0.15) {
        const terms: Terms = {
          network: 'eip155:8453',
          chainId: 8453,
          asset: USDC_ON_BASE,
          payTo,
          price: paid,
          name: 'USD Coin',
          version: '2',
          maxTimeoutSeconds: 300,
        };
        headers['X-PAYMENT'] = toBase64(payer.v1(await payer.sign(terms, Math.floor(Date.now() / 1000))));
      }
      const body = method === 'POST' || r() < 0.05 ? randomBody(r) : undefined;
      if (body !== undefined && !headers['Content-Type']) headers['Content-Type'] = 'application/json';
      const res = await send(base, method, path, headers, body);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      const where = `${method} ${path.slice(0, 120)} -> ${res.status}`;
      if (res.status >= 500) {
        let code: string;
        try {
          code = String(JSON.parse(res.body).error);
        } catch {
          code = '(not json)';
        }
        if (!(res.status === 503 && ALLOWED_503.has(code)))
          failures.push(`${where} ${code} ${res.body.slice(0, 200)}`);
      }
      if (res.status >= 400 && method !== 'HEAD') {
        const textOnly = res.status === 401 && path.startsWith('/keys/status');
        if (textOnly) {
          if (!/^text\/plain/.test(res.contentType)) failures.push(`${where}: text-only 401 expected`);
        } else {
          let parsed: { error?: unknown; jsonrpc?: unknown } | undefined;
          try {
            parsed = JSON.parse(res.body);
          } catch {
            failures.push(`${where}: error body is not JSON: ${res.body.slice(0, 120)}`);
          }
          // The MCP transport's own refusals (405, 406, 415, a malformed JSON-RPC message) are
          // JSON-RPC errors, the shape MCP clients read: a numeric code and a message.
          const jsonRpcError =
            /^\/(preview\/)?mcp(\?|$)/.test(path) &&
            parsed?.jsonrpc === '2.0' &&
            typeof (parsed.error as { code?: unknown } | undefined)?.code === 'number' &&
            typeof (parsed.error as { message?: unknown }).message === 'string';
          if (
            parsed &&
            !jsonRpcError &&
            (typeof parsed.error !== 'string' || !/^[a-z0-9_]+$/.test(parsed.error))
          )
            failures.push(`${where}: no stable error code`);
          if (/\bat .+\.js:\d+/.test(res.body)) failures.push(`${where}: stack trace in body`);
        }
      }
      done++;
    };
    const CONCURRENCY = 8;
    for (let i = 0; i < CASES; i += CONCURRENCY) {
      await Promise.all(Array.from({ length: Math.min(CONCURRENCY, CASES - i) }, one));
    }
    expect(done).to.equal(CASES);
    expect(failures.slice(0, 20), `${failures.length} failures`).to.deep.equal([]);
    const health = await gw.get('/health');
    expect(health.status).to.equal(200);
    // At least the main outcomes were exercised.
    for (const s of [200, 401, 402, 403, 404, 422])
      expect(statuses.get(s) ?? 0, `status ${s}`).to.be.greaterThan(0);
    expect(standin.calls.settle, 'paid calls settled').to.be.greaterThan(0);
    if (process.env.REPORT_FUZZ)
      console.log(
        `fuzz statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}; settled ${standin.calls.settle}`,
      );
  });
});
