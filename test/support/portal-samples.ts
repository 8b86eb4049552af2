/**
 * The code samples of the portal's endpoint pages, as a buyer copies them, and a way to run them:
 * shared by the kernel's test on its fixture plugins (test/portal/) and the product-wide test over
 * plugins/ (test/products/).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../../config/paths';
import type { TestGateway } from './gateway';

export const run = promisify(execFile);

// Under the project, so that a sample's `import '@x402/fetch'` resolves from its node_modules.
const SAMPLES = path.join(PROJECT_ROOT, 'test-output', 'portal', 'samples');

/** Code samples by surface (preview, broker, x402), then by language (curl, javascript, python). */
export type Samples = Record<string, Record<string, string>>;

function unescapeHtml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** The samples of an endpoint page by surface and language, as the page shows them. */
export function samplesOf(page: string): Samples {
  const out: Samples = {};
  for (const d of page.matchAll(
    /<details class="samples" data-surface="(\w+)"[^>]*>([\s\S]*?)<\/details>/g,
  )) {
    const bySurface: Record<string, string> = {};
    for (const m of d[2]!.matchAll(
      /<div class="sample" data-language="(\w+)">[\s\S]*?<pre class="code"><code>([\s\S]*?)<\/code><\/pre>/g,
    ))
      bySurface[m[1]!] = unescapeHtml(m[2]!);
    out[d[1]!] = bySurface;
  }
  return out;
}

/**
 * The samples of every sold endpoint's page, by endpoint id. The pages are written for the public
 * base URL; the samples are rewritten to the test gateway's loopback address.
 */
export async function samplesOfEverySold(gw: TestGateway): Promise<Map<string, Samples>> {
  const base = gw.gateway.config.baseUrl;
  const pages = new Map<string, Samples>();
  for (const p of gw.gateway.registry.sold()) {
    const page = (await gw.get(`/portal/endpoints/${p.endpointId}`)).text;
    pages.set(p.endpointId, JSON.parse(JSON.stringify(samplesOf(page)).split(base).join(gw.url)));
  }
  mkdirSync(SAMPLES, { recursive: true });
  return pages;
}

/** Runs a JavaScript sample as a buyer would (`node sample.mjs`); its standard output. */
export async function runJs(name: string, code: string, env: NodeJS.ProcessEnv): Promise<string> {
  const file = path.join(SAMPLES, `${name}.mjs`);
  writeFileSync(file, code + '\n');
  const { stdout } = await run(process.execPath, [file], { env, timeout: 60_000 });
  return stdout;
}

/** Whether python3 with `requests` is installed (the Python samples need it). */
export async function pythonHasRequests(): Promise<boolean> {
  try {
    await run('python3', ['-c', 'import requests']);
    return true;
  } catch {
    return false;
  }
}
