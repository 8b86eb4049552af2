/**
 * x402 discovery on every payment request the gateway can give, for every sold endpoint of a
 * plugin set: on the kernel's fixtures (x402-discovery.test.ts) and on plugins/
 * (test/products/x402-discovery.test.ts). Each 402 of the paid HTTP path (unpaid with no query,
 * with the example's query, with an invalid query; a payment refused on reading it, and one
 * refused by the checkout) and each PaymentRequired of the MCP tool (unpaid, refused payment,
 * insufficient credit) is checked with the x402 packages' own validators: @x402/core's
 * PaymentRequired schema, @x402/extensions' bazaar validators (`validateAndExtract`, the protocol
 * check `validateDiscoveryExtensionSpec`), its seller-metadata rules and the payment-identifier
 * validator. Then the stock clients (@x402/fetch and @x402/core with @x402/evm) pay through those
 * requests, and a facilitator's extraction (`extractDiscoveryInfo`) reads the listing from the
 * payment they send.
 */
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { parsePaymentRequired } from '@x402/core/schemas';
import { ExactEvmScheme } from '@x402/evm';
import {
  extractDiscoveryInfo,
  sanitizeResourceServiceMetadata,
  validateAndExtract,
  validateDiscoveryExtensionSpec,
  type DiscoveryExtension,
} from '@x402/extensions/bazaar';
import { isPaymentIdentifierRequired, validatePaymentIdentifier } from '@x402/extensions/payment-identifier';
import { wrapFetchWithPaymentFromConfig, x402Client } from '@x402/fetch';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { SERVICE } from '../../../config/service';
import type { RegisteredPlugin } from '../../../core/plugins/registry';
import { startFacilitatorStandin, type FacilitatorStandin } from '../../support/facilitator-standin';
import { startTestGateway, type TestGateway } from '../../support/gateway';
import { callTool, connectMcp, structured } from '../../support/mcp-client';
import type { PluginSet } from '../../support/plugin-sets';
import { fromBase64, randomAddress, TestPayer, toBase64, usdcOnBase } from './payer';

// Tests read arbitrary JSON shapes.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const BASE_URL = 'http://gateway.test';
const now = () => Math.floor(Date.now() / 1000);

/** Whether `part` is `whole` or a shortening of it: members left out, arrays cut, no value changed. */
export function isPartOf(part: unknown, whole: unknown): boolean {
  if (Array.isArray(part)) {
    return Array.isArray(whole) && part.length <= whole.length && part.every((p, i) => isPartOf(p, whole[i]));
  }
  if (part !== null && typeof part === 'object') {
    if (whole === null || typeof whole !== 'object' || Array.isArray(whole)) return false;
    const w = whole as Record<string, unknown>;
    return Object.entries(part).every(([k, v]) => k in w && isPartOf(v, w[k]));
  }
  return part === whole;
}

/**
 * Runs a validator of @x402/extensions, which compiles schemas with Ajv: Ajv warns on the console
 * about string formats it does not check (`date`); any other warning fails the test.
 */
function quietly<T>(run: () => T): T {
  const warn = console.warn;
  const other: unknown[] = [];
  console.warn = (...args: unknown[]) => {
    if (!/^unknown format "[^"]+" ignored in schema/.test(String(args[0]))) other.push(args);
  };
  try {
    return run();
  } finally {
    console.warn = warn;
    expect(other, 'validator warnings').to.deep.equal([]);
  }
}

export interface Expected {
  plugin: RegisteredPlugin;
  transport: 'http' | 'mcp';
  /** The JSON Schema of each query parameter as openapi.json publishes it, and the required ones. */
  params: { properties: Record<string, unknown>; required: string[] };
  /** The tool's inputSchema as tools/list gives it (MCP). */
  toolInputSchema?: unknown;
  /** The preview's answer to the first example, without _notice and _gateway. */
  answer: Record<string, unknown>;
  error: string;
}

/** Every check a PaymentRequired of the gateway must pass, whatever gave it. */
export function checkPaymentRequired(required: Json, e: Expected, where: string): void {
  const { plugin } = e;
  const parsed = parsePaymentRequired(required);
  expect(parsed.success, `${where}: @x402/core PaymentRequired schema`).to.equal(true);
  expect(required.x402Version, where).to.equal(2);
  expect(required.error, where).to.equal(e.error);
  expect(required.accepts[0], where).to.include({ scheme: 'exact', amount: String(plugin.priceMicroUsdc) });

  // Seller metadata: nothing a catalogue would drop.
  const r = required.resource;
  expect(r.url, where).to.equal(
    e.transport === 'http' ? `${BASE_URL}/v1/${plugin.tail}` : `mcp://tool/${plugin.endpointId}`,
  );
  expect(r.mimeType, where).to.equal('application/json');
  expect(r.description, where).to.be.a('string').and.have.length.within(1, 500);
  expect(r.description.startsWith(plugin.manifest.summary), where).to.equal(true);
  const seller = {
    serviceName: SERVICE.listing.serviceName,
    tags: plugin.product.tags,
    iconUrl: `${BASE_URL}/icon.svg`,
  };
  expect({ serviceName: r.serviceName, tags: r.tags, iconUrl: r.iconUrl }, where).to.deep.equal(seller);
  expect(sanitizeResourceServiceMetadata(r), `${where}: sanitized seller metadata`).to.deep.equal(seller);

  // Bazaar discovery, as a cataloguing facilitator validates it.
  const bazaar = required.extensions?.bazaar as DiscoveryExtension;
  const extracted = quietly(() => validateAndExtract(bazaar));
  expect(extracted.errors ?? [], `${where}: validateAndExtract`).to.deep.equal([]);
  expect(extracted.valid, where).to.equal(true);
  const spec = validateDiscoveryExtensionSpec(bazaar as unknown as Record<string, unknown>);
  expect(spec.errors ?? [], `${where}: validateDiscoveryExtensionSpec`).to.deep.equal([]);
  expect(spec.valid, where).to.equal(true);
  expect(bazaar.schema.$schema, where).to.equal('https://json-schema.org/draft/2020-12/schema');
  const example = plugin.manifest.examples[0]!.query;
  const info = bazaar.info as Json;
  if (e.transport === 'http') {
    expect(info.input, where).to.deep.equal({ type: 'http', method: 'GET', queryParams: example });
    const q = (bazaar.schema as Json).properties.input.properties.queryParams;
    expect(q.properties, `${where}: query schema = openapi.json's`).to.deep.equal(e.params.properties);
    expect(q.required, where).to.deep.equal(e.params.required);
  } else {
    expect(info.input, where).to.deep.equal({
      type: 'mcp',
      toolName: plugin.endpointId,
      description: plugin.manifest.summary,
      transport: 'streamable-http',
      inputSchema: e.toolInputSchema,
      example,
    });
  }
  expect(info.output?.type, `${where}: output`).to.equal('json');
  const shown = info.output.example;
  const words: string = (bazaar.schema as Json).properties.output.properties.example.description;
  expect(words, where).to.include(`${plugin.endpointId} answered to ${JSON.stringify(example)}`);
  if (words.includes('Abridged')) {
    expect(isPartOf(shown, e.answer), `${where}: the example is the real answer, abridged`).to.equal(true);
  } else {
    expect(shown, `${where}: the example is the real answer`).to.deep.equal(e.answer);
  }

  // The payment-identifier declaration: optional.
  const pid = required.extensions['payment-identifier'];
  expect(validatePaymentIdentifier(pid), `${where}: payment-identifier`).to.deep.equal({ valid: true });
  expect(isPaymentIdentifierRequired(pid), where).to.equal(false);
}

export function describeX402Discovery(set: PluginSet): void {
  describe(`x402 discovery on every payment request of ${set.label}`, function () {
    this.timeout(120_000);
    let standin: FacilitatorStandin;
    let gw: TestGateway;
    let mcp: Client;
    let keyed: Client;
    let sold: readonly RegisteredPlugin[];
    const payTo = randomAddress();
    const expected = new Map<string, Omit<Expected, 'transport' | 'error'>>();
    const of = (p: RegisteredPlugin, transport: Expected['transport'], error = 'payment_required') => ({
      ...expected.get(p.endpointId)!,
      transport,
      error,
    });
    const exampleQuery = (p: RegisteredPlugin) =>
      new URLSearchParams(
        Object.entries(p.manifest.examples[0]!.query).map(([k, v]): [string, string] => [k, String(v)]),
      ).toString();

    before(async () => {
      standin = await startFacilitatorStandin();
      gw = await startTestGateway({
        pluginDirs: set.pluginDirs,
        ...(set.plugins ? { plugins: set.plugins } : {}),
        env: { X402_PAY_TO: payTo, X402_FACILITATOR_URL: standin.url, TRIAL_CREDIT_MICRO_USDC: '0' },
      });
      sold = gw.gateway.registry.sold();
      mcp = await connectMcp(gw, '/mcp');
      const key = (await gw.post('/keys/create', { owner_label: 'no credit' })).body.api_key as string;
      keyed = await connectMcp(gw, '/mcp', { 'X-API-Key': key });
      const doc = (await gw.get('/openapi.json')).body;
      const tools = new Map((await mcp.listTools()).tools.map((t) => [t.name, t.inputSchema]));
      for (const p of sold) {
        const query = doc.paths[`/v1/${p.tail}`].get.parameters.filter((x: Json) => x.in === 'query');
        const preview = await gw.get(`/preview/v1/${p.tail}?${exampleQuery(p)}`);
        expect(preview.status, p.endpointId).to.equal(200);
        const { _notice, _gateway, ...answer } = preview.body;
        expected.set(p.endpointId, {
          plugin: p,
          params: {
            properties: Object.fromEntries(query.map((x: Json) => [x.name, x.schema])),
            required: query.filter((x: Json) => x.required).map((x: Json) => x.name),
          },
          toolInputSchema: tools.get(p.endpointId),
          answer,
        });
      }
    });
    after(async () => {
      await mcp?.close();
      await keyed?.close();
      await gw?.close();
      await standin?.close();
    });

    const http402 = async (
      p: RegisteredPlugin,
      pathAndQuery: string,
      headers: Record<string, string> = {},
    ) => {
      const res = await gw.get(pathAndQuery, headers);
      expect(res.status, `${p.endpointId} ${pathAndQuery}`).to.equal(402);
      return res;
    };

    it('HTTP: an unpaid request, with no query, the example query or an invalid one, gets a 402 that lists the endpoint', async () => {
      for (const p of sold) {
        for (const qs of ['', `?${exampleQuery(p)}`, '?zz_not_a_parameter=1']) {
          const res = await http402(p, `/v1/${p.tail}${qs}`);
          checkPaymentRequired(
            fromBase64(res.headers.get('payment-required')),
            of(p, 'http'),
            `${p.endpointId}${qs}`,
          );
          // Spec 7.1, to the letter: the body's x402 v1 `accepts` and the headers.
          expect(res.body.x402.accepts[0], p.endpointId).to.include({
            scheme: 'exact',
            network: 'eip155:8453',
            payTo,
            maxAmountRequired: String(p.priceMicroUsdc),
            resource: `/v1/${p.tail}`,
            mimeType: 'application/json',
          });
          expect(res.body.x402.mimeType).to.equal('application/json');
          expect(res.body.error).to.equal('payment_required');
          expect(res.headers.get('accept-payment')).to.equal('x402');
          expect(res.headers.get('x-payment-info')).to.equal('/.well-known/x402');
          if (qs === '?zz_not_a_parameter=1')
            expect(res.body.correction_hints, p.endpointId).to.be.an('array');
        }
      }
    });

    it('HTTP: a refused payment (unreadable, or refused by the checkout) gets a 402 that lists the endpoint too', async () => {
      for (const p of sold) {
        const path = `/v1/${p.tail}?${exampleQuery(p)}`;
        const unreadable = await http402(p, path, { 'X-PAYMENT': 'not base64!' });
        expect(unreadable.body.payment_error.code).to.equal('malformed_payment');
        checkPaymentRequired(
          fromBase64(unreadable.headers.get('payment-required')),
          of(p, 'http', 'malformed_payment'),
          `${p.endpointId} unreadable payment`,
        );
        const terms = usdcOnBase(payTo, p.priceMicroUsdc);
        const payer = new TestPayer();
        const short = payer.v2(
          await payer.sign(terms, now(), { value: String(p.priceMicroUsdc - 1) }),
          terms,
          `${BASE_URL}/v1/${p.tail}`,
        );
        const refused = await http402(p, path, { 'PAYMENT-SIGNATURE': toBase64(short) });
        expect(refused.body.payment_error.code).to.equal('amount_mismatch');
        checkPaymentRequired(
          fromBase64(refused.headers.get('payment-required')),
          of(p, 'http', 'amount_mismatch'),
          `${p.endpointId} payment refused by the checkout`,
        );
      }
    });

    it('MCP: an unpaid call, a refused payment and a key out of credit all carry the tool listing', async () => {
      for (const p of sold) {
        const args = p.manifest.examples[0]!.query;
        const unpaid = await callTool(mcp, p.endpointId, args);
        expect(unpaid.isError, p.endpointId).to.equal(true);
        checkPaymentRequired(structured(unpaid), of(p, 'mcp'), `${p.endpointId} unpaid tool call`);

        const unreadable = await callTool(mcp, p.endpointId, args, { 'x402/payment': { x402Version: 2 } });
        checkPaymentRequired(
          structured(unreadable),
          of(p, 'mcp', 'malformed_payment'),
          `${p.endpointId} unreadable payment`,
        );

        const terms = usdcOnBase(payTo, p.priceMicroUsdc);
        const payer = new TestPayer();
        const short = payer.v2(
          await payer.sign(terms, now(), { value: String(p.priceMicroUsdc - 1) }),
          terms,
          `mcp://tool/${p.endpointId}`,
        );
        const refused = await callTool(mcp, p.endpointId, args, { 'x402/payment': short });
        checkPaymentRequired(
          structured(refused),
          of(p, 'mcp', 'amount_mismatch'),
          `${p.endpointId} payment refused by the checkout`,
        );

        const noCredit = structured(await callTool(keyed, p.endpointId, args));
        expect(noCredit.error, p.endpointId).to.equal('insufficient_credit');
        // The tool error carries the PaymentRequired fields beside its own.
        checkPaymentRequired(
          { ...noCredit, error: 'payment_required' },
          of(p, 'mcp'),
          `${p.endpointId} insufficient credit`,
        );
      }
      expect(standin.calls.settle, 'nothing settled').to.equal(0);
    });

    it('HTTP: the stock client (@x402/fetch, @x402/evm) pays through every 402 and echoes the listing a facilitator reads', async () => {
      for (const p of sold) {
        const account = privateKeyToAccount(generatePrivateKey());
        let sent: string | null = null;
        const recording: typeof fetch = async (input, init) => {
          const request = new Request(input, init);
          sent = request.headers.get('PAYMENT-SIGNATURE') ?? sent;
          return fetch(request);
        };
        const pay = wrapFetchWithPaymentFromConfig(recording, {
          schemes: [{ network: 'eip155:8453', client: new ExactEvmScheme(account) }],
        });
        const res = await pay(`${gw.url}/v1/${p.tail}?${exampleQuery(p)}`);
        expect(res.status, `${p.endpointId}: ${res.status} ${await res.clone().text()}`).to.equal(200);
        expect(((await res.json()) as Json)._gateway.surface).to.equal('x402');
        expect(standin.transfersFrom(account.address), p.endpointId).to.have.length(1);

        const required = fromBase64((await gw.get(`/v1/${p.tail}`)).headers.get('payment-required'));
        const payment = fromBase64(sent);
        expect(payment.extensions, `${p.endpointId}: echoed`).to.deep.equal(required.extensions);
        expect(payment.resource, p.endpointId).to.deep.equal(required.resource);
        const listed = quietly(() => extractDiscoveryInfo(payment, payment.accepted));
        expect(listed, p.endpointId).to.deep.include({
          resourceUrl: `${BASE_URL}/v1/${p.tail}`,
          method: 'GET',
          serviceName: SERVICE.listing.serviceName,
          tags: p.product.tags,
          iconUrl: `${BASE_URL}/icon.svg`,
          discoveryInfo: required.extensions.bazaar.info,
        });
      }
    });

    it("MCP: the stock client's payload built from the PaymentRequired buys the call and carries the tool listing", async () => {
      for (const p of sold) {
        const account = privateKeyToAccount(generatePrivateKey());
        const client = x402Client.fromConfig({
          schemes: [{ network: 'eip155:8453', client: new ExactEvmScheme(account) }],
        });
        const args = p.manifest.examples[0]!.query;
        const required = structured(await callTool(mcp, p.endpointId, args));
        const payment = await client.createPaymentPayload(required);
        const paid = await callTool(mcp, p.endpointId, args, { 'x402/payment': payment });
        expect(paid.isError, p.endpointId).to.not.equal(true);
        expect(structured(paid)._gateway.paid_by, p.endpointId).to.equal('x402');
        const listed = quietly(() => extractDiscoveryInfo(payment, payment.accepted));
        expect(listed, p.endpointId).to.deep.include({
          toolName: p.endpointId,
          serviceName: SERVICE.listing.serviceName,
          discoveryInfo: required.extensions.bazaar.info,
        });
      }
    });

    it('serves the icon every listing names, from the gateway itself', async () => {
      const res = await gw.get('/icon.svg');
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('image/svg+xml');
      expect(res.text).to.equal(SERVICE.listing.iconSvg);
    });
  });
}
