/**
 * Checks of the discovery documents over every sold endpoint of a gateway's registry, shared by
 * the kernel's test on its fixture plugins (test/core/discovery/) and the product-wide test on
 * whatever plugins/ holds (test/products/).
 */
import { expect } from 'chai';
import { describeEndpoint, queryString } from '../../core/discovery/describe';
import type { TestGateway } from './gateway';
import { OpenApiValidator } from './openapi-validator';

/** The broker manifest lists every sold endpoint-level id, in the registry's order. */
export async function expectBrokerManifestListsEverySold(gw: TestGateway): Promise<void> {
  const m = (await gw.get('/.well-known/broker-manifest.json')).body;
  expect(m.endpoints.map((e: { product_id: string }) => e.product_id)).to.deep.equal(
    gw.gateway.registry.sold().map((p) => p.brokerId),
  );
}

/** llms.txt lists every sold endpoint with its price and broker id. */
export async function expectLlmsTxtListsEverySold(gw: TestGateway): Promise<void> {
  const t = (await gw.get('/llms.txt')).text;
  for (const p of gw.gateway.registry.sold())
    expect(t).to.include(`- ${p.tail}  ${p.priceUsd} USD  broker id ${p.brokerId}`);
}

/** portal.md documents every sold endpoint: parameters, price, source, freshness, examples per surface. */
export async function expectPortalMdDocumentsEverySold(gw: TestGateway): Promise<void> {
  const md = (await gw.get('/portal.md')).text;
  const base = gw.gateway.config.baseUrl;
  for (const p of gw.gateway.registry.sold()) {
    const e = describeEndpoint(p, gw.gateway.config);
    const qs = queryString(e.examples[0].query);
    expect(md).to.include(`#### ${p.endpointId}: ${p.manifest.summary}`);
    expect(md).to.include(`| Price | ${p.priceUsd} USD (${p.priceMicroUsdc} micro-USDC) per call |`);
    expect(md).to.include(p.manifest.source.freshness);
    for (const q of e.parameters) expect(md).to.include(`| \`${q.name}\` |`);
    expect(md).to.include(`curl '${base}${e.paths.preview}${qs}'`);
    expect(md).to.include(`curl -i '${base}${e.paths.x402}${qs}'`);
    expect(md).to.include(`curl '${base}${e.paths.marketplace}${qs}' -H 'X-Marketplace-Proxy-Secret`);
    expect(md).to.include(`"product_id":"${p.brokerId}"`);
  }
}

/**
 * The HTML portal has a page per sold endpoint, linked from the home page, under the portal's
 * CSP, with no inline code, and with its try-it form, price, parameters and code samples.
 */
export async function expectPortalPageForEverySold(gw: TestGateway): Promise<void> {
  const home = await gw.get('/portal');
  const csp = home.headers.get('content-security-policy');
  for (const p of gw.gateway.registry.sold()) {
    expect(home.text).to.include(`href="/portal/endpoints/${p.endpointId}"`);
    const path = `/portal/endpoints/${p.endpointId}`;
    const res = await gw.get(path);
    expect(res.status, path).to.equal(200);
    expect(res.headers.get('content-security-policy'), path).to.equal(csp);
    expect(res.headers.get('cache-control'), path).to.equal('public, max-age=300');
    const page = res.text;
    expect(page, path).to.not.match(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
    expect(page, path).to.not.match(/ style=/); // no inline style
    const e = describeEndpoint(p, gw.gateway.config);
    expect(page.match(/<form\s+class="try-it"/g)?.length, path).to.equal(1);
    expect(page).to.include(`action="/portal/try/${p.endpointId}"`);
    expect(page).to.include(`data-broker-id="${p.brokerId}"`);
    expect(page).to.include(`${p.priceUsd} USD (${p.priceMicroUsdc} micro-USDC)`);
    for (const q of e.parameters) expect(page, path).to.include(`<code>${q.name}</code>`);
    for (const surface of ['preview', 'broker', 'x402'])
      expect(page, path).to.include(`data-surface="${surface}"`);
    for (const language of ['curl', 'javascript', 'python'])
      expect(page, path).to.include(`data-language="${language}"`);
  }
}

/** The preview answer to every example of every sold endpoint validates against its published schema. */
export async function expectEveryExampleAnswerMatchesItsSchema(gw: TestGateway): Promise<void> {
  const v = new OpenApiValidator((await gw.get('/openapi.json')).body);
  for (const p of gw.gateway.registry.sold()) {
    const path = `/preview/v1/${p.tail}`;
    for (const example of p.manifest.examples) {
      const res = await gw.get(path + queryString(example.query));
      const where = `${path} ${JSON.stringify(example.query)}`;
      expect(res.status, where).to.equal(200);
      expect(v.responseErrors(path, 'get', '200', res.body), where).to.deep.equal([]);
    }
    const invalid = await gw.get(`${path}?zz_not_a_parameter=1`);
    expect(v.responseErrors(path, 'get', '422', invalid.body), path).to.deep.equal([]);
  }
}
