/**
 * The portal in a real headless browser: Debian's chromium driven by playwright-core. Shared by
 * the kernel's browser test on its fixture plugins (test/portal/) and the product-wide one over
 * every page of plugins/ (test/products/). Where chromium is not installed the tests are skipped
 * with the reason, unless REQUIRE_BROWSER=1 (set by .ci/run, which installs it) makes that a failure.
 */
import { expect } from 'chai';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { PROJECT_ROOT } from '../../config/paths';
import type { TestGateway } from './gateway';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// The flags Debian's chromium needs on a closed network, as root, without a display.
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
export const SCREENSHOTS = path.join(PROJECT_ROOT, 'test-output', 'portal');
export const WIDTHS = [1280, 390];

/** True when chromium is here; otherwise registers a test that skips, saying why (or fails under REQUIRE_BROWSER=1). */
export function chromiumOrSkip(): boolean {
  if (existsSync(CHROMIUM)) return true;
  it(`skipped: ${CHROMIUM} is not installed (apt-get install chromium; .ci/run installs it)`, function () {
    if (process.env.REQUIRE_BROWSER === '1') throw new Error(`REQUIRE_BROWSER=1 but ${CHROMIUM} is missing`);
    this.skip();
  });
  return false;
}

/** Collects console errors and warnings, page errors and failed requests of a page. */
export function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`requestfailed: ${r.url()}`));
  return problems;
}

/** Every page of the portal: the fixed ones, a page per product that sells, a page per sold endpoint. */
export function portalPages(gw: TestGateway): string[] {
  const reg = gw.gateway.registry;
  const products = [...new Set(reg.sold().map((p) => p.product.id))];
  return [
    '/portal',
    '/portal/errors',
    '/portal/keys',
    '/portal/mcp',
    '/portal/x402',
    '/portal/reference',
    ...products.map((id) => `/portal/products/${id}`),
    ...reg.sold().map((p) => `/portal/endpoints/${p.endpointId}`),
  ];
}

/**
 * Opens every page at `width` px: each answers 200, loads without console errors and is no wider
 * than the viewport; a full-page screenshot of each is saved under `dir`.
 */
export async function expectEveryPageFits(
  browser: Browser,
  gw: TestGateway,
  width: number,
  dir: string,
): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const problems: string[] = [];
  const page = await context.newPage();
  const seen = watch(page);
  for (const pagePath of portalPages(gw)) {
    const response = await page.goto(`${gw.url}${pagePath}`, { waitUntil: 'load' });
    expect(response?.status(), pagePath).to.equal(200);
    if (pagePath === '/portal/reference') {
      // Swagger UI renders openapi.json; open the first tag so its operations are measured too.
      await page.locator('#swagger-ui .opblock-tag').first().click({ timeout: 30_000 });
      await page.locator('#swagger-ui .opblock').first().waitFor({ timeout: 30_000 });
    }
    const [scroll, inner] = await page.evaluate<[number, number]>(
      '[document.documentElement.scrollWidth, window.innerWidth]',
    );
    if (scroll > inner) problems.push(`${pagePath}: ${scroll} px wide in a ${inner} px viewport`);
    const name = pagePath.replace(/^\/+/, '').replace(/[^a-z0-9]+/gi, '-') || 'portal';
    const file = path.join(dir, `${name}-${width}.png`);
    await page.screenshot({ path: file, fullPage: true });
    expect(existsSync(file)).to.equal(true);
    problems.push(...seen.splice(0).map((p) => `${pagePath}: ${p}`));
  }
  await context.close();
  expect(problems, problems.join('\n')).to.deep.equal([]);
}
