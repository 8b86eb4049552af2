/**
 * The code samples of every endpoint page, as a buyer copies them, run against a real gateway:
 * curl and JavaScript (fetch) for the free preview and the broker on every endpoint, the x402
 * samples (curl's 402, and @x402/fetch paying through the facilitator stand-in) on a few, and the
 * Python (requests) preview and broker samples where python3 has requests installed.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { PROJECT_ROOT } from '../../config/paths';
import { randomAddress } from '../core/payments/payer';
import { startFacilitatorStandin, type FacilitatorStandin } from '../support/facilitator-standin';
import { startTestGateway, type TestGateway } from '../support/gateway';

const run = promisify(execFile);
// Under the project, so that a sample's `import '@x402/fetch'` resolves from its node_modules.
const SAMPLES = path.join(PROJECT_ROOT, 'test-output', 'portal', 'samples');
const BASE = 'http://gateway.test';

type Samples = Record<string, Record<string, string>>;

function unescapeHtml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** The samples of an endpoint page by surface and language, as the page shows them. */
function samplesOf(page: string): Samples {
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

describe('code samples of the endpoint pages, run against the gateway', function () {
  this.timeout(240_000);
  let gw: TestGateway;
  let standin: FacilitatorStandin;
  let apiKey: string;
  const pages = new Map<string, Samples>();
  const env = () => ({ ...process.env, API_KEY: apiKey });

  before(async () => {
    standin = await startFacilitatorStandin();
    gw = await startTestGateway({
      clock: '2026-11-23T03:00:00Z',
      env: {
        X402_PAY_TO: randomAddress(),
        X402_FACILITATOR_URL: standin.url,
        TRIAL_CREDIT_MICRO_USDC: '100000000',
        BROKER_LIMIT_PER_MINUTE: '1000',
      },
    });
    apiKey = (await gw.post('/keys/create', { owner_label: 'samples' })).body.api_key;
    for (const p of gw.gateway.registry.sold()) {
      const page = (await gw.get(`/portal/endpoints/${p.endpointId}`)).text;
      // The page is written for the public base URL; the test gateway listens on loopback.
      pages.set(p.endpointId, JSON.parse(JSON.stringify(samplesOf(page)).split(BASE).join(gw.url)));
    }
    mkdirSync(SAMPLES, { recursive: true });
  });
  after(async () => {
    await gw?.close();
    await standin?.close();
  });

  async function runJs(name: string, code: string, extraEnv: Record<string, string> = {}): Promise<string> {
    const file = path.join(SAMPLES, `${name}.mjs`);
    writeFileSync(file, code + '\n');
    const { stdout } = await run(process.execPath, [file], {
      env: { ...env(), ...extraEnv },
      timeout: 60_000,
    });
    return stdout;
  }

  it('every endpoint page has curl, JavaScript and Python samples for preview, broker and x402', () => {
    expect(pages.size).to.equal(gw.gateway.registry.sold().length);
    for (const [id, s] of pages) {
      for (const surface of ['preview', 'broker', 'x402'])
        expect(Object.keys(s[surface] ?? {}), `${id} ${surface}`).to.have.members([
          'curl',
          'javascript',
          'python',
        ]);
      expect(s.x402!.javascript).to.include("from '@x402/fetch'");
      expect(s.preview!.python).to.include('import requests');
    }
  });

  it('the curl samples: preview and broker answer 200 with the payload on every endpoint; x402 answers 402', async () => {
    for (const [id, s] of pages) {
      const preview = JSON.parse((await run('sh', ['-c', s.preview!.curl!], { env: env() })).stdout);
      expect(preview._gateway?.surface, `${id} preview: ${JSON.stringify(preview).slice(0, 300)}`).to.equal(
        'preview',
      );
      const broker = JSON.parse((await run('sh', ['-c', s.broker!.curl!], { env: env() })).stdout);
      expect(broker._gateway?.surface, `${id} broker: ${JSON.stringify(broker).slice(0, 300)}`).to.equal(
        'broker',
      );
    }
    const paid = (await run('sh', ['-c', pages.get('local-holiday')!.x402!.curl!])).stdout;
    expect(paid).to.match(/^HTTP\/1\.1 402/);
  });

  it('the JavaScript fetch samples: preview and broker answer 200 with the payload on every endpoint', async () => {
    for (const [id, s] of pages) {
      for (const surface of ['preview', 'broker']) {
        const out = await runJs(`${id}-${surface}`, s[surface]!.javascript!);
        expect(out, `${id} ${surface}`).to.match(/^200 /);
        expect(out, `${id} ${surface}`).to.include(`surface: '${surface}'`);
      }
    }
  });

  it('the JavaScript x402 sample (@x402/fetch) pays through the facilitator and gets the data', async () => {
    for (const id of ['local-holiday', 'local-consumption-tax', 'grants-detail']) {
      const key = generatePrivateKey();
      const out = await runJs(`${id}-x402`, pages.get(id)!.x402!.javascript!, { EVM_PRIVATE_KEY: key });
      expect(out, id).to.match(/^200 /);
      expect(out, id).to.include("surface: 'x402'");
      expect(standin.transfersFrom(privateKeyToAccount(key).address), id).to.have.length(1);
    }
  });

  it('the Python requests samples: preview and broker answer 200 (where python3 has requests)', async function () {
    try {
      await run('python3', ['-c', 'import requests']);
    } catch {
      this.skip();
    }
    for (const id of ['local-holiday', 'local-payroll-summary', 'enrich-company-by-name', 'grants-detail']) {
      const s = pages.get(id)!;
      for (const surface of ['preview', 'broker']) {
        const out = (await run('python3', ['-c', s[surface]!.python!], { env: env() })).stdout;
        expect(out, `${id} ${surface}`).to.match(/^200 /);
        expect(out, `${id} ${surface}`).to.include(`'surface': '${surface}'`);
      }
    }
  });
});
