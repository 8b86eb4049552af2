/**
 * Product-wide: every page of the portal over the endpoints in plugins/, in headless chromium
 * (test/support/browser.ts), at 1280 and 390 px: each loads without console errors and is no wider
 * than the viewport, with a full-page screenshot under test-output/portal/products/ (their own
 * texts, long Japanese names included, are what could overflow). The portal's flows are tested on
 * the kernel's fixture plugins in test/portal/portal-browser.test.ts.
 */
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import {
  CHROMIUM,
  CHROMIUM_FLAGS,
  chromiumOrSkip,
  expectEveryPageFits,
  SCREENSHOTS,
  WIDTHS,
} from '../support/browser';
import { startTestGateway, type TestGateway } from '../support/gateway';

describe('every portal page of plugins/ in headless chromium', function () {
  this.timeout(300_000);
  if (!chromiumOrSkip()) return;
  let gw: TestGateway;
  let browser: Browser;
  before(async () => {
    gw = await startTestGateway({ clock: '2026-11-22T03:00:00Z' });
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
  });
  after(async () => {
    await browser?.close();
    await gw?.close();
  });

  for (const width of WIDTHS) {
    it(`every page at ${width} px: loads without console errors, is no wider than the viewport, screenshot saved`, async () => {
      await expectEveryPageFits(browser, gw, width, path.join(SCREENSHOTS, 'products'));
    });
  }
});
