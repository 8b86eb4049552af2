/**
 * The buyer portal in a real headless browser (test/support/browser.ts), on the kernel's fixture
 * plugins: every page loads without console errors and is no wider than the viewport at 1280 and
 * 390 px (screenshots under test-output/portal/); the try-it, key and filter flows work by
 * clicking; the pages read and the try-it form works without JavaScript; the reference renders
 * openapi.json. test/products/ opens every page of the endpoints in plugins/ the same way.
 */
import { expect } from 'chai';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import {
  CHROMIUM,
  CHROMIUM_FLAGS,
  chromiumOrSkip,
  expectEveryPageFits,
  SCREENSHOTS,
  watch,
  WIDTHS,
} from '../support/browser';
import { FIXTURE_PLUGINS_DIR, startTestGateway, type TestGateway } from '../support/gateway';

describe('buyer portal in headless chromium', function () {
  this.timeout(180_000);
  if (!chromiumOrSkip()) return;
  let gw: TestGateway;
  let browser: Browser;
  before(async () => {
    // Key creation restricted to another origin: the portal's own calls are same-origin and unaffected.
    gw = await startTestGateway({
      pluginDirs: [FIXTURE_PLUGINS_DIR],
      clock: '2026-11-22T03:00:00Z',
      env: { KEYS_CREATE_ALLOWED_ORIGINS: 'https://partner.example' },
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
  });
  after(async () => {
    await browser?.close();
    await gw?.close();
  });

  for (const width of WIDTHS) {
    it(`every page at ${width} px: loads without console errors, is no wider than the viewport, screenshot saved`, async () => {
      await expectEveryPageFits(browser, gw, width, SCREENSHOTS);
    });
  }

  it('home links every page; the navigation filter narrows the endpoint list', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems = watch(page);
    await page.goto(`${gw.url}/portal`);
    const links = await page.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    for (const p of ['/portal/keys', '/portal/mcp', '/portal/x402', '/portal/errors', '/portal/reference'])
      expect(links).to.include(p);
    for (const p of gw.gateway.registry.sold()) expect(links).to.include(`/portal/endpoints/${p.endpointId}`);
    const filter = page.locator('#endpoint-filter');
    // Matches the summaries "Echoes a number and a note" and "Echoes a number at a known price".
    await filter.fill('echo');
    const visible = await page
      .locator('nav.side li:visible a')
      .evaluateAll((as) => as.map((a) => a.textContent));
    expect(visible).to.have.members(['local-fx-echo', 'enrich-fx-priced']);
    expect(visible).to.not.include('local-fx-slow');
    expect(visible.length).to.be.below(gw.gateway.registry.sold().length / 2);
    await filter.fill('zzzz');
    expect(await page.locator('nav.side .filter-empty').isVisible()).to.equal(true);
    expect(problems).to.deep.equal([]);
    await page.close();
  });

  it("try-it on an endpoint page: the free preview answers the handler's real answer; an invalid value shows the 422 hints", async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 800 } });
    const problems = watch(page);
    await page.goto(`${gw.url}/portal/endpoints/local-fx-echo`);
    const form = page.locator('form.try-it');
    await form.locator('input[name="n"]').fill('7');
    await form.locator('input[name="note"]').fill('ポータルから、with a long note of text');
    await form.locator('button.send-preview').click();
    const result = form.locator('pre.result');
    await result.filter({ hasText: 'HTTP 200' }).waitFor({ timeout: 15_000 });
    const text = (await result.textContent()) ?? '';
    const json = JSON.parse(text.slice(text.indexOf('{')));
    expect(json).to.include({ n: 7, note: 'ポータルから、with a long note of text' });
    expect(json._gateway.surface).to.equal('preview');
    await result.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'try-it-preview-390.png') });
    const wide = await page.evaluate<boolean>('document.documentElement.scrollWidth > window.innerWidth');
    expect(wide, 'the result box makes the page wider than the viewport').to.equal(false);

    await form.locator('input[name="n"]').fill('12');
    // The browser's own min/max check would block the submit: bypass it to see the gateway's answer.
    await form.evaluate((f) => f.setAttribute('novalidate', ''));
    await form.locator('button.send-preview').click();
    await result.filter({ hasText: 'HTTP 422' }).waitFor({ timeout: 15_000 });
    expect(await result.textContent()).to.include('correction_hints');
    // Chromium logs every 4xx answer of fetch; the 422 is the one this test asked for.
    expect(problems.filter((p) => !/status of 422/.test(p))).to.deep.equal([]);
    await page.close();
  });

  it('key flow by clicking: create a key (shown once, kept in sessionStorage), call through the broker from try-it, see balance, spent and the call', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = watch(page);
    const origins = new Set<string>();
    page.on('request', (r) => origins.add(new URL(r.url()).origin));
    await page.goto(`${gw.url}/portal/endpoints/local-fx-echo`);
    expect(await page.locator('.key-note').textContent()).to.include('No API key in this tab');
    expect(await page.locator('nav.side a[aria-current="page"]').textContent()).to.equal('local-fx-echo');

    await page.goto(`${gw.url}/portal/keys`);
    await page.locator('#key-create input[name="owner_label"]').fill('browser test');
    await page.locator('#key-create button[type="submit"]').click();
    const keyValue = page.locator('#key-value');
    await keyValue.filter({ hasText: 'jpgw_' }).waitFor({ timeout: 15_000 });
    const apiKey = ((await keyValue.textContent()) ?? '').trim();
    expect(apiKey).to.match(/^jpgw_/);
    expect(await page.locator('#key-created').textContent()).to.include('shown once');
    expect(await page.evaluate<string | null>("sessionStorage.getItem('jpgw-portal-api-key')")).to.equal(
      apiKey,
    );
    expect(await page.evaluate<number>('localStorage.length')).to.equal(0);
    await page.locator('#key-balance').filter({ hasText: 'USDC' }).waitFor({ timeout: 15_000 });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'keys-created-1280.png'), fullPage: true });

    await page.goto(`${gw.url}/portal/endpoints/local-fx-echo`);
    expect(await page.locator('.key-note').textContent()).to.include('Using the key');
    const form = page.locator('form.try-it');
    await form.locator('input[name="n"]').fill('8');
    await form.locator('button.send-broker').click();
    const result = form.locator('pre.result');
    await result.filter({ hasText: 'HTTP 200' }).waitFor({ timeout: 15_000 });
    const text = (await result.textContent()) ?? '';
    expect(text).to.include('charged 1000 micro-USDC');
    const json = JSON.parse(text.slice(text.indexOf('\n\n') + 2));
    expect(json.n).to.equal(8);
    expect(json._gateway.surface).to.equal('broker');
    await result.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'try-it-broker-1280.png') });

    await page.goto(`${gw.url}/portal/keys`);
    const recent = page.locator('#key-recent tbody');
    await recent.filter({ hasText: 'jp-local-pack-v1-fx-echo' }).waitFor({ timeout: 15_000 });
    expect(await page.locator('#key-spent').textContent()).to.include('in 1 call');
    expect(await page.locator('#key-created').isVisible()).to.equal(false); // shown once only
    await page.screenshot({ path: path.join(SCREENSHOTS, 'keys-usage-1280.png'), fullPage: true });

    await page.locator('#key-forget').click();
    expect(await page.evaluate<string | null>("sessionStorage.getItem('jpgw-portal-api-key')")).to.equal(
      null,
    );
    expect([...origins]).to.deep.equal([gw.url]);
    expect(problems).to.deep.equal([]);
    await context.close();
  });

  it('reads and works without JavaScript: navigation lists every endpoint; the form submits through /portal/try to the preview JSON', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${gw.url}/portal`);
    expect(await page.locator('nav.side li a').count()).to.equal(gw.gateway.registry.sold().length);
    expect(await page.locator('#endpoint-filter').isVisible()).to.equal(false);
    await page.goto(`${gw.url}/portal/endpoints/local-fx-echo`);
    expect(await page.locator('h2#parameters').isVisible()).to.equal(true);
    expect(await page.locator('details.samples[open] pre').first().isVisible()).to.equal(true);
    const form = page.locator('form.try-it');
    await form.locator('input[name="n"]').fill('9');
    await Promise.all([
      // The empty note is dropped.
      page.waitForURL(/\/preview\/v1\/local\/fx\/echo\?n=9$/),
      form.locator('button.send-preview').click(),
    ]);
    const body = JSON.parse((await page.locator('body').textContent()) ?? '{}');
    expect(body.n).to.equal(9);
    expect(body).to.not.have.property('note');
    expect(body._gateway.surface).to.equal('preview');
    await context.close();
  });
});
