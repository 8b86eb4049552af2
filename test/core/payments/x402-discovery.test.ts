/**
 * x402 discovery on the kernel's fixture plugins (the same suite runs over plugins/ in
 * test/products/x402-discovery.test.ts), and what the fixtures cannot show: an example that fails
 * or comes late at boot, answers too large for a payment request, declarations built once, and
 * seller metadata a catalogue would drop refused at boot.
 */
import { expect } from 'chai';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ExactEvmScheme } from '@x402/evm';
import { validateAndExtract, validateDiscoveryExtensionSpec } from '@x402/extensions/bazaar';
import { wrapFetchWithPaymentFromConfig } from '@x402/fetch';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { loadConfig } from '../../../config/env';
import { PRODUCTS } from '../../../config/products';
import { SERVICE } from '../../../config/service';
import { sellerListingProblems } from '../../../core/discovery/seller-listing';
import { buildGateway } from '../../../core/gateway/app';
import { BAZAAR_BUDGET_BYTES } from '../../../core/payments/discovery-extensions';
import { resourceDescription } from '../../../core/payments/offers';
import type { RegisteredPlugin } from '../../../core/plugins/registry';
import { startFacilitatorStandin, type FacilitatorStandin } from '../../support/facilitator-standin';
import { FIXTURE_PLUGINS_DIR, startTestGateway, type TestGateway } from '../../support/gateway';
import { callTool, connectMcp, structured } from '../../support/mcp-client';
import { makePluginsDir, writeJsPlugin } from '../../support/js-plugin';
import { FIXTURE_PLUGINS } from '../../support/plugin-sets';
import { fromBase64, randomAddress } from './payer';
import { describeX402Discovery, isPartOf } from './x402-discovery-suite';

describeX402Discovery(FIXTURE_PLUGINS);

const PROVENANCE = "_provenance: { kind: 'snapshot', as_of: '2026-01-01', sources: [{ name: 'test' }] }";

/** The bazaar declaration of the paid path of `tail`, from an unpaid request. */
async function bazaarOf(gw: TestGateway, tail: string) {
  const res = await gw.get(`/v1/${tail}`);
  expect(res.status).to.equal(402);
  return fromBase64(res.headers.get('payment-required')).extensions.bazaar;
}

describe('x402 discovery: example answers at boot', function () {
  this.timeout(30_000);
  let dir: string;
  let standin: FacilitatorStandin;
  const env = () => ({ X402_PAY_TO: randomAddress(), X402_FACILITATOR_URL: standin.url });
  before(async () => {
    standin = await startFacilitatorStandin();
  });
  beforeEach(() => {
    dir = makePluginsDir();
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  after(() => standin.close());

  it('computes each example answer once, at boot: no 402 runs a handler, and every 402 sends the same bytes', async () => {
    writeJsPlugin(dir, {
      folder: 'local-counted',
      handleBody: `globalThis.exampleRuns = (globalThis.exampleRuns ?? 0) + 1; return { n: q.n, _attribution: 'test fixture', ${PROVENANCE} };`,
    });
    const runs = globalThis as { exampleRuns?: number };
    delete runs.exampleRuns;
    const gw = await startTestGateway({ pluginDirs: [dir], env: env() });
    const client = await connectMcp(gw, '/mcp');
    try {
      expect(runs.exampleRuns).to.equal(1);
      const headers = new Set<string | null>();
      for (let i = 0; i < 5; i++) {
        headers.add((await gw.get('/v1/local/counted/echo?n=2')).headers.get('payment-required'));
        expect(
          structured(await callTool(client, 'local-counted', { n: 2 })).extensions.bazaar.info.output.example,
        ).to.deep.equal({
          n: 3,
          _attribution: 'test fixture',
          _provenance: { kind: 'snapshot', as_of: '2026-01-01', sources: [{ name: 'test' }] },
        });
      }
      expect(headers.size).to.equal(1);
      expect(runs.exampleRuns, 'handler runs').to.equal(1);
    } finally {
      await client.close();
      await gw.close();
    }
  });

  it('an example that fails at boot leaves the declaration valid, without an output example, and says so in the log', async () => {
    writeJsPlugin(dir, {
      folder: 'local-down',
      handleBody: "throw new errors.SourceUnavailableError('the upstream is down');",
    });
    const logs: string[] = [];
    const gw = await startTestGateway({ pluginDirs: [dir], env: env(), logs });
    try {
      const bazaar = await bazaarOf(gw, 'local/down/echo');
      expect(validateAndExtract(bazaar).valid).to.equal(true);
      expect(validateDiscoveryExtensionSpec(bazaar).valid).to.equal(true);
      expect(bazaar.info.input).to.deep.equal({ type: 'http', method: 'GET', queryParams: { n: 3 } });
      expect(bazaar.info).to.not.have.property('output');
      const line = logs.map((l) => JSON.parse(l)).find((l) => /no example answer/.test(l.msg));
      expect(line).to.include({ endpoint_id: 'local-down', level: 40 });
      expect(line.err).to.include({ code: 'source_unavailable' });
    } finally {
      await gw.close();
    }
  });

  it('an example slower than the wait does not hold up the start: the declarations take it when it comes', async () => {
    // The example answers only once the test releases it, so the start cannot have waited for it
    // (the start's own wait is bounded by EXAMPLE_ANSWER_WAIT_MS), whatever the machine's load.
    const release = path.join(dir, 'release-local-late');
    writeJsPlugin(dir, {
      folder: 'local-late',
      handleBody: `return new Promise((r) => { const t = setInterval(() => { if (require('node:fs').existsSync(${JSON.stringify(release)})) { clearInterval(t); r({ n: q.n, _attribution: 'test fixture', ${PROVENANCE} }); } }, 20); });`,
    });
    const gw = await startTestGateway({ pluginDirs: [dir], env: env() });
    try {
      const early = await bazaarOf(gw, 'local/late/echo');
      expect(validateAndExtract(early).valid).to.equal(true);
      expect(early.info).to.not.have.property('output');
      writeFileSync(release, '');
      let late = early;
      for (let i = 0; i < 200 && !late.info.output; i++) {
        await new Promise((r) => setTimeout(r, 50));
        late = await bazaarOf(gw, 'local/late/echo');
      }
      expect(validateAndExtract(late).valid).to.equal(true);
      expect(late.info.output.example).to.include({ n: 3 });
    } finally {
      await gw.close();
    }
  });

  it('an answer too large for a payment request is abridged (arrays first, then whole members), each value as answered, and still paid by the stock client', async () => {
    writeJsPlugin(dir, {
      folder: 'local-large',
      handleBody:
        "return { n: q.n, rows: Array.from({ length: 400 }, (_, i) => ({ i, label: 'row ' + i })), " +
        "essay: 'x'.repeat(9000), _attribution: 'test fixture', " +
        `${PROVENANCE} };`,
    });
    const gw = await startTestGateway({ pluginDirs: [dir], env: env() });
    try {
      const bazaar = await bazaarOf(gw, 'local/large/echo');
      expect(validateAndExtract(bazaar).valid).to.equal(true);
      expect(Buffer.byteLength(JSON.stringify(bazaar))).to.be.at.most(BAZAAR_BUDGET_BYTES);
      const answer = (await gw.get('/preview/v1/local/large/echo?n=3')).body;
      const shown = bazaar.info.output.example;
      expect(isPartOf(shown, answer)).to.equal(true);
      expect(shown.rows).to.deep.equal([{ i: 0, label: 'row 0' }]);
      expect(shown).to.not.have.property('essay');
      expect(shown).to.include({ n: 3, _attribution: 'test fixture' });
      expect(bazaar.schema.properties.output.properties.example.description).to.include(
        'Abridged to fit the payment request: arrays cut to their first item; left out: _provenance, essay.',
      );
      const account = privateKeyToAccount(generatePrivateKey());
      const pay = wrapFetchWithPaymentFromConfig(fetch, {
        schemes: [{ network: 'eip155:8453', client: new ExactEvmScheme(account) }],
      });
      expect((await pay(`${gw.url}/v1/local/large/echo?n=3`)).status).to.equal(200);
    } finally {
      await gw.close();
    }
  });
});

describe('x402 discovery: seller metadata', () => {
  const listing = (over: Partial<typeof SERVICE.listing>) => ({
    ...SERVICE,
    listing: { ...SERVICE.listing, ...over },
  });

  it('the configured service and products pass the x402 rules', () => {
    expect(sellerListingProblems(SERVICE, PRODUCTS)).to.deep.equal([]);
  });

  it('names every value a catalogue would drop', () => {
    const product = PRODUCTS[0]!;
    const problems = (service: typeof SERVICE, tags: string[] = product.tags) =>
      sellerListingProblems(service, [{ ...product, tags }]);
    expect(problems(listing({ serviceName: 'ジャパン公共データ' }))[0]).to.match(
      /^service listing\.serviceName/,
    );
    expect(problems(listing({ serviceName: 'x'.repeat(33) }))).to.have.length(1);
    expect(problems(listing({ serviceName: '' }))).to.have.length(1);
    expect(problems(listing({ iconSvg: '<html></html>' }))[0]).to.match(/must be an SVG document/);
    expect(
      problems(
        listing({ iconSvg: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>' }),
      )[0],
    ).to.match(/scripts/);
    expect(
      problems(listing({ iconSvg: '<svg xmlns="http://www.w3.org/2000/svg" onload="x()"/>' })),
    ).to.have.length(1);
    for (const tags of [
      ['a', 'b', 'c', 'd', 'e', 'f'],
      ['japan', 'Japan'],
      ['税金'],
      ['x'.repeat(33)],
      [''],
    ]) {
      expect(problems(SERVICE, tags), JSON.stringify(tags)).to.have.length(1);
      expect(problems(SERVICE, tags)[0]).to.match(new RegExp(`^product ${product.id} tags`));
    }
  });

  it('refuses to start with seller metadata a catalogue would drop, naming the setting', async () => {
    const dataDir = makePluginsDir();
    const config = loadConfig({ LOG_LEVEL: 'silent', BASE_URL: 'http://gateway.test', DATA_DIR: dataDir });
    let refused: Error | undefined;
    try {
      await buildGateway({
        config: config.gateway,
        service: listing({ serviceName: 'Japan Public-Data Gateway — 日本' }),
        products: PRODUCTS,
        pluginDirs: [FIXTURE_PLUGINS_DIR],
      });
    } catch (err) {
      refused = err as Error;
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
    expect(refused?.message).to.match(
      /^Seller listing \(config\/service\.ts, config\/products\.ts\):\n {2}service listing\.serviceName/,
    );
  });

  it('serves the icon as a discovery document (cacheable, no script can run in it) and documents the route', async () => {
    const gw = await startTestGateway({ pluginDirs: [FIXTURE_PLUGINS_DIR] });
    try {
      const res = await gw.get('/icon.svg');
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('image/svg+xml');
      expect(res.headers.get('cache-control')).to.equal('public, max-age=300');
      expect(res.headers.get('content-security-policy')).to.include("default-src 'none'");
      expect(res.text).to.equal(SERVICE.listing.iconSvg);
      expect((await gw.get('/openapi.json')).body.paths['/icon.svg'].get.operationId).to.equal(
        'getServiceIcon',
      );
    } finally {
      await gw.close();
    }
  });
});

describe('x402 discovery: resource.description', () => {
  const of = (summary: string, description?: string) =>
    resourceDescription({ manifest: { summary, description } } as unknown as RegisteredPlugin);

  it('is the summary and the description, whole when they fit in 500 characters', () => {
    expect(of('Echoes n')).to.equal('Echoes n');
    expect(of('Echoes n', 'Answers n. Nothing else.')).to.equal('Echoes n. Answers n. Nothing else.');
    expect(of('Echoes n.', 'Answers n.')).to.equal('Echoes n. Answers n.');
  });

  it('is cut after the last whole sentence that fits, or else after a word', () => {
    const sentences = Array.from({ length: 40 }, (_, i) => `Sentence number ${i} says a little.`).join(' ');
    const cut = of('Summary', sentences);
    expect(cut.length).to.be.at.most(500);
    expect(cut).to.match(/^Summary\. Sentence number 0 says a little\. .* says a little\.$/);
    const words = of('Summary', 'word '.repeat(200));
    expect(words.length).to.be.at.most(500);
    expect(words).to.match(/ word…$/);
  });
});
