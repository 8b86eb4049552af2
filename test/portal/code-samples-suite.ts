/**
 * The code samples of the endpoint pages, run as a buyer copies them against a real gateway: curl,
 * JavaScript (fetch) and Python (requests, where python3 has it) for the free preview and the
 * broker, and the x402 samples (curl's 402, and @x402/fetch paying through the facilitator
 * stand-in). On a deployment without x402, the x402 samples say, and get, 503
 * payments_not_configured, never a 402. Written once; run on the kernel's fixture plugins
 * (code-samples.test.ts) and on every endpoint of plugins/ (test/products/portal-code-samples.test.ts),
 * counting nothing.
 */
import { expect } from 'chai';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { RegisteredPlugin } from '../../core/plugins/registry';
import { randomAddress } from '../core/payments/payer';
import { startFacilitatorStandin, type FacilitatorStandin } from '../support/facilitator-standin';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { pythonHasRequests, run, runJs, samplesOfEverySold, type Samples } from '../support/portal-samples';

export interface CodeSamplesRun {
  title: string;
  /** Plugin folders to load (default: plugins/). */
  pluginDirs?: string[];
  timeoutMs: number;
  /**
   * Which endpoints run the samples that cost a process each and a payment (x402 JavaScript,
   * Python): all of them, or the cheapest of each product (the samples differ only in their URL).
   */
  slowSamplesOn: 'every' | 'cheapest_of_each_product';
}

/** The endpoints the samples that cost a process each run on (CodeSamplesRun.slowSamplesOn). */
function slowChoice(gw: TestGateway, o: CodeSamplesRun): readonly RegisteredPlugin[] {
  const { registry } = gw.gateway;
  if (o.slowSamplesOn === 'every') return registry.sold();
  return registry.products.flatMap((product) => {
    const own = registry.soldOfProduct(product.id);
    return own.length === 0 ? [] : [own.reduce((a, p) => (p.priceMicroUsdc < a.priceMicroUsdc ? p : a))];
  });
}

export function describeCodeSamples(o: CodeSamplesRun): void {
  describe(o.title, function () {
    this.timeout(o.timeoutMs);
    let gw: TestGateway;
    let standin: FacilitatorStandin;
    let apiKey: string;
    let pages: Map<string, Samples>;
    const env = () => ({ ...process.env, API_KEY: apiKey });
    /** The endpoints the slow samples run on, with their samples. */
    const slowOnes = (): Array<[RegisteredPlugin, Samples]> =>
      slowChoice(gw, o).map((p) => [p, pages.get(p.endpointId)!]);

    before(async () => {
      standin = await startFacilitatorStandin();
      gw = await startTestGateway({
        ...(o.pluginDirs ? { pluginDirs: o.pluginDirs } : {}),
        clock: '2026-11-23T03:00:00Z',
        env: {
          X402_PAY_TO: randomAddress(),
          X402_FACILITATOR_URL: standin.url,
          TRIAL_CREDIT_MICRO_USDC: '100000000',
          BROKER_LIMIT_PER_MINUTE: '1000',
        },
      });
      apiKey = (await gw.post('/keys/create', { owner_label: 'samples' })).body.api_key;
      pages = await samplesOfEverySold(gw);
    });
    after(async () => {
      await gw?.close();
      await standin?.close();
    });

    it('every endpoint page has curl, JavaScript and Python samples for preview, broker and x402', () => {
      expect([...pages.keys()]).to.deep.equal(gw.gateway.registry.sold().map((p) => p.endpointId));
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
        for (const surface of ['preview', 'broker']) {
          const body = JSON.parse((await run('sh', ['-c', s[surface]!.curl!], { env: env() })).stdout);
          expect(body._gateway?.surface, `${id} ${surface}: ${JSON.stringify(body).slice(0, 300)}`).to.equal(
            surface,
          );
        }
        const paid = (await run('sh', ['-c', s.x402!.curl!])).stdout;
        expect(paid, id).to.match(/^HTTP\/1\.1 402/);
      }
    });

    it('the JavaScript fetch samples: preview and broker answer 200 with the payload on every endpoint', async () => {
      for (const [id, s] of pages) {
        for (const surface of ['preview', 'broker']) {
          const out = await runJs(`${id}-${surface}`, s[surface]!.javascript!, env());
          expect(out, `${id} ${surface}`).to.match(/^200 /);
          expect(out, `${id} ${surface}`).to.include(`surface: '${surface}'`);
        }
      }
    });

    it('the JavaScript x402 sample (@x402/fetch) pays through the facilitator and gets the data, at its price', async () => {
      for (const [p, s] of slowOnes()) {
        const key = generatePrivateKey();
        const out = await runJs(`${p.endpointId}-x402`, s.x402!.javascript!, {
          ...env(),
          EVM_PRIVATE_KEY: key,
        });
        expect(out, p.endpointId).to.match(/^200 /);
        expect(out, p.endpointId).to.include("surface: 'x402'");
        const transfers = standin.transfersFrom(privateKeyToAccount(key).address);
        expect(transfers, p.endpointId).to.have.length(1);
        expect(transfers[0].value, p.endpointId).to.equal(String(p.priceMicroUsdc));
      }
    });

    it('the Python requests samples: preview and broker answer 200 (where python3 has requests)', async function () {
      if (!(await pythonHasRequests())) this.skip();
      for (const [p, s] of slowOnes()) {
        for (const surface of ['preview', 'broker']) {
          const out = (await run('python3', ['-c', s[surface]!.python!], { env: env() })).stdout;
          expect(out, `${p.endpointId} ${surface}`).to.match(/^200 /);
          expect(out, `${p.endpointId} ${surface}`).to.include(`'surface': '${surface}'`);
        }
      }
    });
  });

  describe(`${o.title}, on a deployment without x402`, function () {
    this.timeout(o.timeoutMs);
    let gw: TestGateway;
    let pages: Map<string, Samples>;
    before(async () => {
      gw = await startTestGateway({
        ...(o.pluginDirs ? { pluginDirs: o.pluginDirs } : {}),
        clock: '2026-11-23T03:00:00Z',
      });
      pages = await samplesOfEverySold(gw);
    });
    after(() => gw?.close());

    it('every x402 sample says first that it gets 503 payments_not_configured, how x402 is switched on, and how to buy meanwhile', () => {
      for (const [id, s] of pages) {
        for (const [language, code] of Object.entries(s.x402 ?? {})) {
          const head = code.split('\n').slice(0, 3).join('\n');
          expect(head, `${id} ${language}`)
            .to.include('x402 is not configured on this deployment')
            .and.include('503 payments_not_configured')
            .and.include('no 402 challenge')
            .and.include('X402_PAY_TO and X402_FACILITATOR_URL')
            .and.include('an API key');
          expect(code, `${id} ${language}`).to.not.include('answers 402');
        }
      }
    });

    it('the x402 curl sample answers 503 payments_not_configured on every endpoint, as it says', async () => {
      for (const [id, s] of pages) {
        const out = (await run('sh', ['-c', s.x402!.curl!])).stdout;
        expect(out, id).to.match(/^HTTP\/1\.1 503/);
        expect(JSON.parse(out.slice(out.indexOf('\r\n\r\n') + 4)).error, id).to.equal(
          'payments_not_configured',
        );
      }
    });

    it('the x402 JavaScript sample (@x402/fetch) prints 503 payments_not_configured, as it says', async () => {
      for (const p of slowChoice(gw, o)) {
        const out = await runJs(`${p.endpointId}-x402-off`, pages.get(p.endpointId)!.x402!.javascript!, {
          ...process.env,
          EVM_PRIVATE_KEY: generatePrivateKey(),
        });
        expect(out, p.endpointId).to.match(/^503 /);
        expect(out, p.endpointId).to.include("error: 'payments_not_configured'");
      }
    });
  });
}
