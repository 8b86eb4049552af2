/**
 * Bounded, seeded fuzzing of every operation in openapi.json on every surface, plus unknown paths
 * and raw HTTP, for a set of plugins: the kernel's fixtures (test/fuzz/fuzz.test.ts) or plugins/
 * (test/products/fuzz.test.ts). A systematic sweep comes first (every Unicode whitespace character, in each
 * placement, in every query parameter, broker query value, POST string field and path segment;
 * nesting depths up to 10,000 and sizes at the body limit on every POST path), then random cases
 * mixing every input class of inputs.ts and bodies.ts.
 *
 * What must hold: no 5xx (other than the documented "not configured" 503s); every error is JSON
 * with a stable code (except the spec's text-only 401 of /keys/status) and no stack trace; the
 * process stays up with Object.prototype untouched; and nothing malformed is charged: a broker
 * key's balance falls by exactly the prices of its fresh 2xx answers, x402 money moves only for
 * 2xx answers, and a query parameter holding whitespace alone is refused, not served (on the
 * fixtures: a typed one; a free-text fixture parameter may hold any text).
 *
 * Reproducible: FUZZ_SEED and FUZZ_CASES pick the run. Cases are drawn in order from one
 * generator, so the requests in flight (FUZZ_CONCURRENCY) do not change what is sent.
 * FUZZ_SHOW lists more failures than the first 20; FUZZ_DUMP=<file> appends the failing requests
 * in full, as JSON lines.
 */
import { expect } from 'chai';
import { appendFileSync } from 'node:fs';
import http from 'node:http';
import { startTestGateway, type TestGateway } from '../support/gateway';
import type { PluginSet } from '../support/plugin-sets';
import { startFacilitatorStandin, type FacilitatorStandin } from '../support/facilitator-standin';
import { randomAddress, TestPayer, toBase64, type Terms, usdcOnBase } from '../core/payments/payer';
import {
  ALL_SPACES,
  bracketName,
  chance,
  CONTROL_BYTES,
  enc,
  fuzzValue,
  int,
  NASTY,
  ODD_NUMBERS,
  oddHeaderValue,
  pct,
  pick,
  placeSpace,
  PROTO_NAMES,
  rng,
  SPACE_FORMS,
  UNICODE_SPACES,
  whitespaced,
  withBadBytes,
  wireQueryText,
  withLoneSurrogate,
  type Rand,
  type SpaceForm,
} from './inputs';
import {
  BODY_LIMIT,
  bodySize,
  compressedBody,
  damageText,
  mutateEntries,
  nested,
  objectText,
  paddedBody,
  withInvalidUtf8,
  type Entries,
  type NestKind,
} from './bodies';
import { send, sendRaw, type Answer, type Outgoing } from './wire';
import { MAX_URL_LENGTH } from '../../core/http/client-errors';

const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const CASES = Number(process.env.FUZZ_CASES ?? 20_000);
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 24);
/** Below this many cases the coverage checks are skipped (the sweep alone is about 7,500). */
const FULL_RUN = 20_000;
const ALLOWED_503 = new Set([
  'marketplace_proxy_not_configured',
  'payment_not_configured',
  'x402_not_configured',
]);
const MARKETPLACE_SECRET = 'fuzz-secret-value-0001';
const POOL_KEYS = 4;

export interface FuzzOptions {
  /**
   * Trial credit of each pool key: more than the others spend in a full run, less than key 0
   * (which most broker cases use) would, so that running out of credit is exercised too.
   */
  trialCredit: number;
  /**
   * Which query parameters must refuse white space alone: every one but the documented string
   * flags, or only typed ones (a pattern, an enum, a format, a number), for a set whose free-text
   * parameters accept any text.
   */
  blankRefused: 'every' | 'typed';
}

interface Param {
  name: string;
  required: boolean;
  /** A valid value, as query text. */
  example: string;
  /** The same value as JSON (a number stays a number). */
  json: string;
  /** A string flag: any text is valid, whitespace too (its description says so). */
  anyText: boolean;
  /** A string with no pattern, enum or format. */
  freeText: boolean;
}

interface Operation {
  method: string;
  /** The path template of openapi.json. */
  path: string;
  query: Param[];
  /** A valid body, for POST operations. */
  body?: Entries;
}

interface Product {
  brokerId: string;
  tail: string;
  price: number;
  query: Param[];
}

/** What the cases are built from: the spec's operations and the gateway's products and keys. */
interface World {
  ops: Operation[];
  getOps: Operation[];
  postOps: Operation[];
  products: Product[];
  /** Valid values of path parameters ({id}, {endpointId}). */
  pathValues: Record<string, string[]>;
  apiKeys: string[];
  blankRefused: FuzzOptions['blankRefused'];
}

interface Case extends Outgoing {
  /** The operation aimed at ("GET /v1/…"), for the coverage count. */
  target: string;
  /** Whole request as bytes, over a connection of its own. */
  raw?: Buffer;
  /** Sign a real x402 payment of this price just before sending. */
  payPrice?: number;
  /** A query parameter holds whitespace alone: it must be refused, never served (and charged). */
  blank?: boolean;
}

/** The planner's state: the seeded generator and a tally of the input classes drawn. */
interface Plan {
  r: Rand;
  w: World;
  note(tag: string): void;
}

// ---------------------------------------------------------------------------------------------
// The world, from openapi.json and the registry.

type SpecParam = {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  example?: string;
  schema?: { type?: string; pattern?: string; enum?: unknown[]; format?: string };
};
type SpecOp = {
  parameters?: SpecParam[];
  requestBody?: {
    content: Record<
      string,
      { schema?: { properties?: Record<string, { examples?: unknown[] }> }; example?: unknown }
    >;
  };
};

function paramOf(p: SpecParam): Param {
  const example = String(p.example ?? 'x');
  const t = p.schema?.type;
  const literal = (t === 'integer' || t === 'number' || t === 'boolean') && /^[-0-9.a-z]+$/.test(example);
  return {
    name: p.name,
    required: p.required === true,
    example,
    json: literal ? example : JSON.stringify(example),
    anyText: /^String flag: any value/.test(p.description ?? ''),
    freeText: t === 'string' && !p.schema?.pattern && !p.schema?.enum && !p.schema?.format,
  };
}

/** A valid body: the spec's example, completed with each other property's example. */
function bodyOf(op: SpecOp): Entries | undefined {
  const json = op.requestBody?.content['application/json'];
  if (!json) return undefined;
  const example = (json.example ?? {}) as Record<string, unknown>;
  const entries: Entries = Object.entries(example).map(([k, v]) => [k, JSON.stringify(v)]);
  for (const [name, prop] of Object.entries(json.schema?.properties ?? {})) {
    if (!(name in example) && prop.examples?.[0] !== undefined)
      entries.push([name, JSON.stringify(prop.examples[0])]);
  }
  return entries;
}

async function worldOf(
  gw: TestGateway,
  apiKeys: string[],
  blankRefused: FuzzOptions['blankRefused'],
): Promise<World> {
  const doc = (await gw.get('/openapi.json')).body as { paths: Record<string, Record<string, SpecOp>> };
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      ops.push({
        method: method.toUpperCase(),
        path,
        query: (op.parameters ?? []).filter((p) => p.in === 'query').map(paramOf),
        body: bodyOf(op),
      });
    }
  }
  const registry = gw.gateway.registry;
  const products = registry.sold().map((p) => ({
    brokerId: p.brokerId,
    tail: p.tail,
    price: p.priceMicroUsdc,
    query: ops.find((o) => o.path === `/v1/${p.tail}`)?.query ?? [],
  }));
  return {
    ops,
    getOps: ops.filter((o) => o.method === 'GET'),
    postOps: ops.filter((o) => o.method === 'POST'),
    products,
    pathValues: {
      id: registry.products.map((p) => p.id),
      productId: registry.products.map((p) => p.id),
      endpointId: registry.sold().map((p) => p.endpointId),
    },
    apiKeys,
    blankRefused,
  };
}

// ---------------------------------------------------------------------------------------------
// Pieces shared by the cases.

/** Headers that pass the surface's guard, so that fuzzing reaches validation and the handlers. */
function guardHeaders(p: Plan, path: string): Record<string, string> {
  if (path.startsWith('/marketplace/')) {
    const name = pick(p.r, ['X-Marketplace-Proxy-Secret', 'X-Service-Marketplace-Secret']);
    return chance(p.r, 0.9) ? { [name]: MARKETPLACE_SECRET } : {};
  }
  if (path.startsWith('/broker/') || path.startsWith('/keys/status')) {
    return { 'X-API-Key': p.w.apiKeys[poolKey(p)] };
  }
  return {};
}

/** Required parameters with valid values, and each optional one half of the time. */
function validPairs(p: Plan, query: Param[]): Array<[string, string]> {
  return query.filter((q) => q.required || chance(p.r, 0.5)).map((q) => [q.name, q.example]);
}

function queryText(pairs: Array<[string, string]>): string {
  return pairs.length > 0 ? `?${pairs.map(([n, v]) => `${n}=${v}`).join('&')}` : '';
}

/** A real path for a template: each {param} gets a valid value. */
function fillPath(p: Plan, template: string): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => enc(pick(p.r, p.w.pathValues[name] ?? ['x'])));
}

const PAYMENTS = [
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

function b64(text: string): string {
  return Buffer.from(text).toString('base64');
}

/** A valid-looking value per header the gateway reads, for oddHeaderValue to damage. */
function headerSamples(w: World): Record<string, string> {
  return {
    'X-API-Key': w.apiKeys[0],
    'Idempotency-Key': 'k1',
    'X-Request-Id': 'req-1',
    'X-PAYMENT': PAYMENTS[6],
    'PAYMENT-SIGNATURE': PAYMENTS[6],
    'X-Marketplace-Proxy-Secret': MARKETPLACE_SECRET,
    'X-Service-Marketplace-Secret': MARKETPLACE_SECRET,
    'Content-Type': 'application/json',
    Accept: 'application/json',
    'X-Forwarded-For': '203.0.113.7',
    Origin: 'https://example.com',
    'Accept-Language': 'ja',
    'User-Agent': 'fuzz',
  };
}

/** Wrong, broken, huge and oddly encoded header values. */
function fuzzHeaders(p: Plan, headers: Record<string, string>): void {
  const r = p.r;
  if (chance(r, 0.3)) headers['X-PAYMENT'] = pick(r, PAYMENTS);
  if (chance(r, 0.1)) headers['PAYMENT-SIGNATURE'] = pick(r, PAYMENTS);
  if (chance(r, 0.2))
    headers['X-API-Key'] = pick(r, ['jpgw_x', 'jpgw_' + '1'.repeat(44), '', 'x'.repeat(3000)]);
  if (chance(r, 0.1)) headers['X-Marketplace-Proxy-Secret'] = pick(r, ['', 'wrong', 'x'.repeat(5000)]);
  if (chance(r, 0.2)) headers['Idempotency-Key'] = pick(r, ['k1', '', 'x'.repeat(400)]);
  if (chance(r, 0.1)) headers['X-Request-Id'] = pick(r, ['ok-id', 'bad id', 'x'.repeat(300)]);
  if (chance(r, 0.2))
    headers['Content-Type'] = pick(r, [
      'application/json',
      'text/plain',
      'application/json; charset=latin1',
      'application/json; charset=utf-16',
      'APPLICATION/JSON',
      'application/json;;',
      'multipart/form-data',
      'application/x-www-form-urlencoded',
    ]);
  if (chance(r, 0.1)) headers['Accept'] = pick(r, ['text/html', '*/*', 'application/xml']);
  if (chance(r, 0.3)) {
    p.note('odd header bytes');
    const samples = headerSamples(p.w);
    for (let i = int(r, 1, 3); i > 0; i--) {
      const name = pick(r, Object.keys(samples));
      headers[name] = oddHeaderValue(r, samples[name]);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The sweep: each Unicode whitespace character, in each placement, everywhere a text is read.

/** A placement per (character, place), rotating so that every character meets every placement. */
function formOf(space: number, place: number): SpaceForm {
  return SPACE_FORMS[(space + place) % SPACE_FORMS.length];
}

function spaced(space: number, place: number, valid: string): string {
  return placeSpace(ALL_SPACES[space], formOf(space, place), valid);
}

/** The value is White_Space alone: a parameter must refuse it, not read it as absent (or as a name). */
function blankOnly(w: World, space: number, place: number, param: Param): boolean {
  const form = formOf(space, place);
  const ch = ALL_SPACES[space];
  const mustRefuse = !param.anyText && (w.blankRefused === 'every' || !param.freeText);
  return (form === 'alone' || form === 'repeated') && UNICODE_SPACES.includes(ch) && mustRefuse;
}

/** Depths around the 16-level limit, then spread up to 10,000. */
const SWEEP_DEPTHS = [
  ...Array.from({ length: 24 }, (_, i) => i + 1),
  32,
  64,
  100,
  500,
  1000,
  2000,
  3000,
  5000,
  8000,
  10_000,
];

/**
 * Each of the 27 whitespace characters goes into every place once, in a placement that rotates
 * with the place, so every place also meets every placement.
 */
function* sweep(p: Plan): Generator<Case> {
  const { w } = p;
  let place = 0;
  // Every query parameter of every GET operation (on the preview, x402 and marketplace surfaces).
  for (const op of w.getOps) {
    for (const param of op.query) {
      place++;
      for (let s = 0; s < ALL_SPACES.length; s++) {
        const pairs = op.query.filter((q) => q.required && q !== param).map((q) => [q.name, q.example]);
        pairs.push([param.name, spaced(s, place, param.example)]);
        yield {
          method: 'GET',
          path: op.path + queryText(pairs.map(([n, v]) => [n, enc(v)])),
          headers: guardHeaders(p, op.path),
          target: `GET ${op.path}`,
          ...(blankOnly(w, s, place, param) ? { blank: true } : {}),
        };
      }
    }
  }
  // Every query value of every broker product, as a JSON string.
  for (const product of w.products) {
    for (const param of product.query) {
      place++;
      for (let s = 0; s < ALL_SPACES.length; s++) {
        const query: Entries = product.query
          .filter((q) => q.required && q !== param)
          .map((q) => [q.name, q.json]);
        query.push([param.name, JSON.stringify(spaced(s, place, param.example))]);
        const c = brokerCall(
          p,
          objectText([
            ['product_id', JSON.stringify(product.brokerId)],
            ['query', objectText(query)],
          ]),
        );
        yield blankOnly(w, s, place, param) ? { ...c, blank: true } : c;
      }
    }
  }
  // Every string field of every POST body (the broker's product_id included).
  for (const op of w.postOps) {
    for (const [field, value] of op.body ?? []) {
      if (!value.startsWith('"')) continue;
      place++;
      for (let s = 0; s < ALL_SPACES.length; s++) {
        const text = spaced(s, place, JSON.parse(value) as string);
        const body = objectText((op.body ?? []).map(([k, v]) => [k, k === field ? JSON.stringify(text) : v]));
        yield postCall(p, op, body);
      }
    }
  }
  // Path segments: templated parameters, and a segment of one data path on each surface.
  for (const op of w.getOps) {
    const dataPath = /^\/(preview\/|marketplace\/[^/]+\/)?v1\//.test(op.path);
    if (!op.path.includes('{') && !(dataPath && op.path.endsWith(`/v1/${w.products[0].tail}`))) continue;
    place++;
    for (let s = 0; s < ALL_SPACES.length; s++) {
      const segments = fillPath(p, op.path).split('/');
      const at = op.path.includes('{') ? segments.length - 1 : int(p.r, 1, segments.length - 1);
      segments[at] = enc(spaced(s, place, decodeURIComponent(segments[at])));
      yield {
        method: 'GET',
        path: segments.join('/'),
        headers: guardHeaders(p, op.path),
        target: `GET ${op.path}`,
      };
    }
  }
  // Nesting at every field of every POST body, in `query`'s values, and in a field no body has.
  for (const op of w.postOps) {
    const valid = op.body ?? [];
    const places = [...valid.map(([k]) => k), 'extra', ...(op.path === '/broker/call' ? ['query'] : [])];
    for (const depth of SWEEP_DEPTHS) {
      for (const kind of ['object', 'array'] as NestKind[]) {
        const at = pick(p.r, places);
        const deep = (leaf: string) => nested(depth, kind, leaf, pick(p.r, ['a', '', '__proto__']));
        let body: string;
        if (at === 'query') {
          // In the value of one query parameter of the first product that has any.
          const product = w.products.find((x) => x.query.length > 0) ?? w.products[0];
          const param = product.query[0] ?? { name: 'n', json: '1' };
          body = objectText([
            ['product_id', JSON.stringify(product.brokerId)],
            ['query', objectText([[param.name, deep(param.json)]])],
          ]);
        } else {
          const entries: Entries = valid.map(([k, v]) => [k, k === at ? deep(v) : v]);
          if (at === 'extra') entries.push(['extra', deep('1')]);
          body = objectText(entries);
        }
        yield postCall(p, op, body);
      }
    }
  }
  // Sizes one byte either side of the body limit, on every POST path.
  for (const op of w.postOps) {
    for (const bytes of [BODY_LIMIT - 1, BODY_LIMIT, BODY_LIMIT + 1]) {
      yield postCall(p, op, paddedBody(p.r, op.body ?? [], bytes));
    }
  }
}

/**
 * Key 0 carries most calls and runs out of credit midway (insufficient_credit while calls are in
 * flight); the others keep succeeding to the end.
 */
function poolKey(p: Plan): number {
  return chance(p.r, 0.55) ? 0 : int(p.r, 1, p.w.apiKeys.length - 1);
}

function brokerCall(p: Plan, body: string | Buffer, headers: Record<string, string> = {}): Case {
  return {
    method: 'POST',
    path: '/broker/call',
    headers: { 'Content-Type': 'application/json', 'X-API-Key': p.w.apiKeys[poolKey(p)], ...headers },
    body,
    target: 'POST /broker/call',
  };
}

function postCall(p: Plan, op: Operation, body: string | Buffer): Case {
  if (op.path === '/broker/call') return brokerCall(p, body);
  return {
    method: 'POST',
    path: op.path,
    headers: { 'Content-Type': 'application/json' },
    body,
    target: `POST ${op.path}`,
  };
}

// ---------------------------------------------------------------------------------------------
// Random cases, one generator per kind.

/** A GET operation with its query damaged: values, names, repeats, brackets, bad bytes. */
function queryCase(p: Plan): Case {
  const { r } = p;
  const op = pick(r, p.w.getOps);
  // [name, value, already on the wire]
  const pairs: Array<[string, string, boolean]> = validPairs(p, op.query).map(([n, v]) => [n, v, false]);
  const names = op.query.map((q) => q.name);
  for (let i = int(r, 0, 3); i > 0; i--) {
    const param = op.query.length > 0 ? pick(r, op.query) : { name: 'x', example: 'x' };
    switch (int(r, 0, 10)) {
      case 0:
        p.note('whitespace in query');
        pairs.push([param.name, whitespaced(r, param.example), false]);
        break;
      case 1:
        p.note('odd number in query');
        pairs.push([param.name, pick(r, ODD_NUMBERS), false]);
        break;
      case 2:
        p.note('repeated parameter');
        pairs.push([param.name, param.example, false], [param.name, fuzzValue(r, param.example), false]);
        break;
      case 3:
        p.note('bracket name');
        pairs.push([bracketName(r, param.name), param.example, false]);
        break;
      case 4:
        p.note('prototype name in query');
        pairs.push([pick(r, PROTO_NAMES), pick(r, [param.example, '1', 'polluted']), false]);
        break;
      case 5:
        p.note('bad percent-encoding in query');
        pairs.push([param.name, withBadBytes(r, param.example), true]);
        break;
      case 6:
        p.note('lone surrogate in query');
        pairs.push([param.name, pct(withLoneSurrogate(r, param.example)), true]);
        break;
      case 7:
        pairs.push([whitespaced(r, param.name), param.example, false]);
        break;
      case 8:
        pairs.push([pick(r, ['x', 'yeer', '', '%ZZ', ...names]), fuzzValue(r, param.example), false]);
        break;
      case 9:
        p.note('URL near the length limit');
        pairs.push([param.name, 'x'.repeat(MAX_URL_LENGTH - op.path.length + int(r, -64, 64)), true]);
        break;
      default:
        pairs.splice(int(r, 0, pairs.length), 1);
    }
  }
  const wire = pairs.map(([n, v, onWire]): [string, string] => [
    wireQueryText(r, n),
    onWire ? v : wireQueryText(r, v),
  ]);
  const headers = guardHeaders(p, op.path);
  if (chance(r, 0.4)) fuzzHeaders(p, headers);
  const price = p.w.products.find((x) => op.path === `/v1/${x.tail}`)?.price;
  const pay = price !== undefined && chance(r, 0.15);
  if (pay) p.note('real x402 payment');
  return {
    method: 'GET',
    path: fillPath(p, op.path) + queryText(wire),
    headers,
    target: `GET ${op.path}`,
    ...(pay ? { payPrice: price } : {}),
  };
}

/** A keyed broker call: a real product with its query damaged, sometimes the envelope too. */
function brokerCase(p: Plan): Case {
  const { r } = p;
  const product = pick(r, p.w.products);
  let query: Entries = product.query.filter((q) => q.required || chance(r, 0.5)).map((q) => [q.name, q.json]);
  if (chance(r, 0.85)) query = mutateEntries(r, query, p.note);
  let envelope: Entries = [
    ['product_id', JSON.stringify(product.brokerId)],
    ['query', objectText(query)],
  ];
  if (chance(r, 0.2)) envelope = mutateEntries(r, envelope, p.note);
  let body = objectText(envelope);
  if (chance(r, 0.05)) {
    p.note('damaged JSON');
    body = damageText(r, body);
  }
  const headers: Record<string, string> = {};
  if (chance(r, 0.3)) {
    p.note('idempotency key');
    headers['Idempotency-Key'] = pick(r, ['k1', 'k2', `k-${int(r, 0, 1e9)}`]);
  }
  const c = brokerCall(p, body, headers);
  if (chance(r, 0.15)) fuzzHeaders(p, c.headers);
  return c;
}

/** Any POST operation with a damaged body (the broker's with a valid key most of the time). */
function postCase(p: Plan): Case {
  const { r } = p;
  const op = pick(r, p.w.postOps);
  let body: string | Buffer = objectText(mutateEntries(r, op.body ?? [], p.note));
  if (chance(r, 0.15)) {
    p.note('damaged JSON');
    body = damageText(r, body);
  } else if (chance(r, 0.06)) {
    p.note('invalid UTF-8 in body');
    body = withInvalidUtf8(r, op.body ?? []);
  }
  const c = postCall(p, op, body);
  if (chance(r, 0.2)) fuzzHeaders(p, c.headers);
  if (op.path === '/broker/call' && chance(r, 0.2)) {
    c.headers['X-API-Key'] = pick(r, ['', 'jpgw_x', whitespaced(r, p.w.apiKeys[0])]);
  }
  return c;
}

/** Bodies near and over the limit: padded, deeply nested, chunked, or compressed bombs. */
function bigBodyCase(p: Plan): Case {
  const { r } = p;
  const op = pick(r, p.w.postOps);
  const bytes = bodySize(r);
  p.note('huge body');
  let c: Case;
  switch (int(r, 0, 5)) {
    case 0: {
      // Nesting as deep as the size allows: past 10,000 levels only over the limit.
      const depth = Math.floor((bytes - 20) / 2);
      c = postCall(p, op, `{"query":${nested(depth, 'array', '1')}}`);
      break;
    }
    case 1: {
      p.note('compressed body');
      const { encoding, body } = compressedBody(r);
      c = postCall(p, op, body);
      c.headers['Content-Encoding'] = encoding;
      break;
    }
    default:
      c = postCall(p, op, paddedBody(r, op.body ?? [], bytes));
  }
  if (chance(r, 0.3)) {
    p.note('chunked body');
    c.chunked = true;
  }
  return c;
}

/** Path segments with whitespace, bad bytes, lone surrogates, dot segments or nothing. */
function pathCase(p: Plan): Case {
  const { r } = p;
  const op = pick(r, p.w.ops);
  const segments = fillPath(p, op.path).split('/');
  const at = int(r, 1, segments.length - 1);
  const valid = decodeURIComponent(segments[at]);
  switch (int(r, 0, 5)) {
    case 0:
    case 1:
      p.note('whitespace in path');
      segments[at] = enc(whitespaced(r, valid));
      break;
    case 2:
      p.note('bad percent-encoding in path');
      segments[at] = withBadBytes(r, valid);
      break;
    case 3:
      p.note('lone surrogate in path');
      segments[at] = pct(withLoneSurrogate(r, valid));
      break;
    case 4:
      segments[at] = pick(r, ['', '.', '..', '%2e%2e', '%2F', valid.toUpperCase(), `${valid};x=1`]);
      break;
    default:
      segments[at] = enc(fuzzValue(r, valid)).slice(0, 300) || 'x';
  }
  const path = segments.join('/') + queryText(validPairs(p, op.query).map(([n, v]) => [n, enc(v)]));
  if (op.method === 'POST') return { ...postCall(p, op, objectText(op.body ?? [])), path };
  return { method: op.method, path, headers: guardHeaders(p, op.path), target: `${op.method} ${op.path}` };
}

/** Unknown paths, and odd spellings of a sold one (the first endpoint's tail). */
function junkPaths(w: World): string[] {
  const tail = w.products[0].tail;
  return [
    '/v1/',
    '/v1/local',
    '/preview/v1/../../etc/passwd',
    `/marketplace/other/v1/${tail}`,
    '/%E0%A4%A',
    `/preview/v1/${tail}/`,
    '//health',
    '/products/%00',
    '/keys/create',
    '/broker/call/x',
    '/__proto__',
    '/constructor/prototype',
    '*',
  ];
}

/** Unknown paths, and known paths with the wrong method (sometimes with a body). */
function junkCase(p: Plan): Case {
  const { r } = p;
  const op = pick(r, p.w.ops);
  const path = chance(r, 0.5) ? pick(r, junkPaths(p.w)) : fillPath(p, op.path);
  const method = pick(r, ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD']);
  const headers: Record<string, string> = {};
  fuzzHeaders(p, headers);
  const body = method === 'POST' || chance(r, 0.2) ? pick(r, NASTY) : undefined;
  if (body !== undefined && !headers['Content-Type']) headers['Content-Type'] = 'application/json';
  return { method, path, headers, ...(body !== undefined ? { body } : {}), target: 'junk' };
}

/** What no HTTP client sends: control bytes in header values and names, raw bytes in the target, smuggling. */
function rawCase(p: Plan): Case {
  const { r } = p;
  const op = pick(r, p.w.getOps);
  const path = fillPath(p, op.path) + queryText(validPairs(p, op.query).map(([n, v]) => [n, enc(v)]));
  const headers = guardHeaders(p, op.path);
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
  const samples = headerSamples(p.w);
  const name = pick(r, Object.keys(samples));
  const ctl = String.fromCharCode(pick(r, CONTROL_BYTES));
  let target = path;
  switch (int(r, 0, 4)) {
    case 0:
    case 1:
      p.note('control bytes in a header');
      lines.push(`${name}: ${samples[name]}${ctl}${samples[name]}`);
      break;
    case 2:
      lines.push(`${name}: ${samples[name]}`, ` folded${ctl}`); // obsolete line folding
      break;
    case 3:
      target = path + pick(r, ['\xff', '\xe3\x80\x80', ' x', '\x00']); // raw bytes in the request target
      break;
    default:
      lines.push(
        `X-Fo${ctl}o: 1`,
        'Content-Length: 0',
        pick(r, ['Transfer-Encoding: chunked', 'Content-Length: 5']),
      );
  }
  const head = [`GET ${target} HTTP/1.1`, 'Host: fuzz.test', ...lines, 'Connection: close', '', ''].join(
    '\r\n',
  );
  return {
    method: 'GET',
    path,
    headers: {},
    raw: Buffer.from(head, 'latin1'),
    target: `GET ${op.path}`,
  };
}

/** Case kinds with their weights. */
const KINDS: Array<[number, (p: Plan) => Case]> = [
  [40, queryCase],
  [20, brokerCase],
  [12, postCase],
  [5, bigBodyCase],
  [9, pathCase],
  [7, junkCase],
  [7, rawCase],
];

function randomCase(p: Plan): Case {
  let roll = p.r() * KINDS.reduce((sum, [weight]) => sum + weight, 0);
  for (const [weight, kind] of KINDS) {
    roll -= weight;
    if (roll < 0) return kind(p);
  }
  return KINDS[0][1](p);
}

/** The run: the sweep (cut short if FUZZ_CASES is smaller), then random cases up to FUZZ_CASES. */
function* planCases(p: Plan, total: number): Generator<Case> {
  let n = 0;
  for (const c of sweep(p)) {
    if (n++ >= total) return;
    yield c;
  }
  while (n++ < total) yield randomCase(p);
}

// ---------------------------------------------------------------------------------------------
// Checks.

/** The request, short enough for a failure message and long enough to reproduce most. */
function describeCase(c: Case): string {
  const text = (b: string | Buffer) => JSON.stringify(b.toString().slice(0, 200));
  if (c.raw) return `raw ${text(c.raw)}`;
  return `${c.method} ${c.path.slice(0, 200)}${c.body !== undefined ? ` body ${text(c.body)}` : ''}`;
}

/** Appends a failing request in full (body in base64) to a JSON-lines file, to replay it. */
function dumpCase(file: string, c: Case): void {
  const { method, path, headers, body, raw } = c;
  const bytes = raw ?? (body !== undefined ? Buffer.from(body) : undefined);
  appendFileSync(file, JSON.stringify({ method, path, headers, base64: bytes?.toString('base64') }) + '\n');
}

/** Why an answer breaks the error model (none when it is fine). */
function errorModelProblems(c: Case, res: Answer): string[] {
  const where = `${describeCase(c)} -> ${res.status}`;
  const problems: string[] = [];
  if (res.status >= 500) {
    let code: string;
    try {
      code = String(JSON.parse(res.body).error);
    } catch {
      code = '(not json)';
    }
    if (!(res.status === 503 && ALLOWED_503.has(code))) problems.push(`${where} ${code}`);
  }
  if (res.status >= 400 && c.method !== 'HEAD') {
    const textOnly = res.status === 401 && c.path.startsWith('/keys/status');
    // The portal answers a browser (Accept: text/html) a missing page as a page, everyone else JSON.
    const portalPage =
      res.status === 404 &&
      /^\/portal\//i.test(c.path) &&
      /text\/html/i.test(c.headers['Accept'] ?? '') &&
      /^text\/html/.test(res.contentType);
    if (textOnly) {
      if (!/^text\/plain/.test(res.contentType)) problems.push(`${where}: text-only 401 expected`);
    } else if (!portalPage) {
      let parsed: { error?: unknown; jsonrpc?: unknown } | undefined;
      try {
        parsed = JSON.parse(res.body);
      } catch {
        problems.push(`${where}: error body is not JSON: ${res.body.slice(0, 120)}`);
      }
      // The MCP transport's own refusals (405, 406, 415, a malformed JSON-RPC message) are
      // JSON-RPC errors, the shape MCP clients read: a numeric code and a message.
      const rpc = parsed?.error as { code?: unknown; message?: unknown } | undefined;
      const jsonRpcError =
        /^\/(preview\/)?mcp(\?|$)/i.test(c.path) &&
        parsed?.jsonrpc === '2.0' &&
        typeof rpc?.code === 'number' &&
        typeof rpc.message === 'string';
      if (parsed && !jsonRpcError && (typeof parsed.error !== 'string' || !/^[a-z0-9_]+$/.test(parsed.error)))
        problems.push(`${where}: no stable error code`);
      // Every other error is a problem (RFC 9457), except the 402 challenge whose body the spec fixes.
      const problem = parsed as
        { type?: unknown; title?: unknown; status?: unknown; instance?: unknown } | undefined;
      if (parsed && !jsonRpcError && parsed.error !== 'payment_required') {
        if (!/^application\/problem\+json/.test(res.contentType))
          problems.push(`${where}: not application/problem+json`);
        if (
          problem?.status !== res.status ||
          typeof problem.type !== 'string' ||
          typeof problem.title !== 'string'
        )
          problems.push(`${where}: problem members missing or wrong`);
      }
    }
  }
  if (/\bat .+\.js:\d+/.test(res.body)) problems.push(`${where}: stack trace in body`);
  return problems;
}

/** What each pool key should have been charged: the prices of its fresh (not replayed) 2xx answers. */
class BrokerLedger {
  readonly expected: number[];
  successes = 0;
  outOfCredit = 0;

  constructor(
    private readonly apiKeys: readonly string[],
    private readonly prices: ReadonlyMap<string, number>,
  ) {
    this.expected = new Array<number>(apiKeys.length).fill(0);
  }

  /** The pool key the server reads, if any: HTTP drops spaces and tabs around a header value. */
  private keyOf(c: Case): number {
    const value = c.headers['X-API-Key'];
    return value === undefined ? -1 : this.apiKeys.indexOf(value.replace(/^[ \t]+|[ \t]+$/g, ''));
  }

  record(c: Case, res: Answer): string[] {
    // Every request with a pool key counts, whatever its path: Express routes /BROKER/call and
    // /broker/call/ to the broker too. (Raw requests carry pool keys only to /keys/status.)
    const key = this.keyOf(c);
    if (key < 0) return [];
    const where = `${describeCase(c)} -> ${res.status}`;
    const charged = res.headers['x-credit-charged-micro-usdc'];
    const body = parseJson(res.body) as {
      error?: string;
      _gateway?: { surface?: string; broker_id?: string };
    };
    if (res.status < 200 || res.status >= 300) {
      if (body?.error === 'insufficient_credit') this.outOfCredit++;
      return charged === undefined || charged === '0' ? [] : [`${where}: charged ${charged} for an error`];
    }
    // A replay repeats the first answer's headers; it is not charged again.
    if (body?._gateway?.surface !== 'broker' || res.headers['idempotent-replayed'] === 'true') return [];
    const price = this.prices.get(body._gateway.broker_id ?? '');
    if (price === undefined) return [`${where}: a 2xx without a known broker_id`];
    this.expected[key] += price;
    this.successes++;
    return charged === String(price) ? [] : [`${where}: charged ${charged}, price ${price}`];
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function createKeys(gw: TestGateway, n: number): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await gw.post('/keys/create', { owner_label: `fuzz pool ${i}` });
    expect(res.status).to.equal(201);
    keys.push(res.body.api_key as string);
  }
  return keys;
}

async function balanceOf(gw: TestGateway, apiKey: string): Promise<{ balance: number; reserved: number }> {
  const res = await gw.get('/keys/status', { 'X-API-Key': apiKey });
  expect(res.status).to.equal(200);
  return { balance: res.body.balance.micro_usdc, reserved: res.body.reserved_in_flight.micro_usdc };
}

/** Input classes a full run must have drawn (the sweep covers whitespace and nesting on its own). */
const EXPECTED_TAGS = [
  'whitespace in query',
  'odd number in query',
  'repeated parameter',
  'bracket name',
  'prototype name in query',
  'bad percent-encoding in query',
  'lone surrogate in query',
  'whitespace in path',
  'bad percent-encoding in path',
  'lone surrogate in path',
  'deep nesting',
  'prototype name in body',
  'duplicate key',
  'whitespace in a key',
  'damaged JSON',
  'invalid UTF-8 in body',
  'huge body',
  'chunked body',
  'compressed body',
  'odd header bytes',
  'control bytes in a header',
  'idempotency key',
  'real x402 payment',
  'URL near the length limit',
  'lone surrogate in body',
];

export function describeFuzz(set: PluginSet, options: FuzzOptions): void {
  describe(`fuzz on ${set.label}: ${CASES} seeded requests (seed ${SEED}) against every operation on every surface`, function () {
    this.timeout(300_000);
    let gw: TestGateway;
    let standin: FacilitatorStandin;
    let payTo: string;
    before(async () => {
      standin = await startFacilitatorStandin();
      payTo = randomAddress();
      gw = await startTestGateway({
        pluginDirs: set.pluginDirs,
        ...(set.plugins ? { plugins: set.plugins } : {}),
        env: {
          MARKETPLACE_SECRETS: MARKETPLACE_SECRET,
          TRIAL_CREDIT_MICRO_USDC: String(options.trialCredit),
          // The pool keys make thousands of calls a minute; the limiter has tests of its own.
          BROKER_LIMIT_PER_MINUTE: '100000',
          X402_PAY_TO: payTo,
          X402_FACILITATOR_URL: standin.url,
        },
      });
    });
    after(async () => {
      await gw?.close();
      await standin?.close();
    });

    it('never answers 5xx, answers every error as JSON with a stable code, charges only 2xx, and stays up', async () => {
      const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();
      const apiKeys = await createKeys(gw, POOL_KEYS);
      const before = await Promise.all(apiKeys.map((k) => balanceOf(gw, k)));
      const world = await worldOf(gw, apiKeys, options.blankRefused);
      const tags = new Map<string, number>();
      const plan: Plan = { r: rng(SEED), w: world, note: (t) => tags.set(t, (tags.get(t) ?? 0) + 1) };
      const cases = planCases(plan, CASES);
      const sweepSize = [...sweep({ r: rng(SEED), w: world, note: () => {} })].length;

      const base = new URL(gw.url);
      const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
      const payer = new TestPayer();
      const ledger = new BrokerLedger(apiKeys, new Map(world.products.map((x) => [x.brokerId, x.price])));
      const failures: string[] = [];
      const statuses = new Map<number, number>();
      const targets = new Map<string, number>();
      let paid2xx = 0;
      let done = 0;

      const sendCase = async (c: Case): Promise<Answer> => {
        if (c.raw) return sendRaw(base, c.raw);
        if (c.payPrice !== undefined) {
          const terms: Terms = usdcOnBase(payTo, c.payPrice);
          c.headers['X-PAYMENT'] = toBase64(payer.v1(await payer.sign(terms, Math.floor(Date.now() / 1000))));
        }
        return send(agent, base, c);
      };
      // Workers draw cases from the one generator, in order: the plan does not depend on timing.
      const worker = async () => {
        for (let next = cases.next(); !next.done; next = cases.next()) {
          const c = next.value;
          let res: Answer;
          try {
            res = await sendCase(c);
          } catch (err) {
            failures.push(`${describeCase(c)}: no answer (${(err as Error).message})`);
            continue;
          } finally {
            done++;
          }
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          targets.set(c.target, (targets.get(c.target) ?? 0) + 1);
          // Only a GET is paid for (an OPTIONS answers 204 with Allow; a HEAD gets the challenge).
          if (c.method === 'GET' && res.status >= 200 && res.status < 300 && /^\/v1\//i.test(c.path))
            paid2xx++;
          const found = [...errorModelProblems(c, res), ...ledger.record(c, res)];
          if (c.blank && res.status >= 200 && res.status < 300)
            found.push(`${describeCase(c)} -> ${res.status}: whitespace alone was served`);
          if (found.length > 0 && process.env.FUZZ_DUMP) dumpCase(process.env.FUZZ_DUMP, c);
          failures.push(...found);
        }
      };
      const started = Date.now();
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      const seconds = (Date.now() - started) / 1000;
      agent.destroy();

      expect(done).to.equal(CASES);
      expect(
        failures.slice(0, Number(process.env.FUZZ_SHOW ?? 20)),
        `${failures.length} failures`,
      ).to.deep.equal([]);
      // The process is up and nothing reached Object.prototype.
      expect((await gw.get('/health')).status).to.equal(200);
      expect(Object.getOwnPropertyNames(Object.prototype).sort()).to.deep.equal(prototypeBefore);
      expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
      // Charges: each key lost exactly the prices of its 2xx answers, with nothing left on hold.
      const after = await Promise.all(apiKeys.map((k) => balanceOf(gw, k)));
      for (let i = 0; i < POOL_KEYS; i++) {
        expect(after[i].reserved, `key ${i} holds`).to.equal(0);
        expect(before[i].balance - after[i].balance, `key ${i} spent`).to.equal(ledger.expected[i]);
      }
      // x402: one settled transfer per 2xx answer, none for anything refused.
      expect(standin.transfers.length, 'x402 transfers').to.equal(paid2xx);
      // At least the main outcomes were exercised.
      for (const s of [200, 201, 400, 401, 402, 403, 404, 413, 414, 422, 431])
        expect(statuses.get(s) ?? 0, `status ${s}`).to.be.greaterThan(0);
      expect(ledger.successes, 'broker calls that succeeded').to.be.greaterThan(0);
      if (CASES >= FULL_RUN)
        expect(ledger.outOfCredit, 'broker calls refused for credit').to.be.greaterThan(0);
      expect(paid2xx, 'x402 calls that succeeded').to.be.greaterThan(0);
      if (CASES >= FULL_RUN) {
        expect(CASES).to.be.greaterThan(sweepSize);
        for (const op of world.ops)
          expect(targets.get(`${op.method} ${op.path}`) ?? 0, `${op.method} ${op.path}`).to.be.greaterThan(0);
        for (const tag of EXPECTED_TAGS) expect(tags.get(tag) ?? 0, tag).to.be.greaterThan(0);
      }
      if (process.env.REPORT_FUZZ)
        console.log(
          `fuzz: ${CASES} requests (sweep ${sweepSize}) in ${seconds.toFixed(1)} s, ${CONCURRENCY} in flight\n` +
            `statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}\n` +
            `broker successes ${ledger.successes}, out of credit ${ledger.outOfCredit}, x402 successes ${paid2xx}, ` +
            `spent ${JSON.stringify(ledger.expected)}\n` +
            `classes ${JSON.stringify(Object.fromEntries([...tags].sort()))}`,
        );
    });
  });
}
