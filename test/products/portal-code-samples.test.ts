/**
 * Product-wide: the code samples on the portal page of every endpoint sold from plugins/ run as a
 * buyer copies them: curl and JavaScript (fetch) for the preview and the broker on every endpoint;
 * the x402 JavaScript sample (@x402/fetch, through the facilitator stand-in) and the Python
 * samples on the cheapest endpoint of each product. No count, no endpoint named; the samples'
 * kernel behaviour is tested on the fixture plugins (test/portal/code-samples.test.ts).
 */
import { expect } from 'chai';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { RegisteredPlugin } from '../../core/plugins/registry';
import { randomAddress } from '../core/payments/payer';
import { startFacilitatorStandin, type FacilitatorStandin } from '../support/facilitator-standin';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { pythonHasRequests, run, runJs, samplesOfEverySold, type Samples } from '../support/portal-samples';

describe('code samples of every endpoint page of plugins/, run against the gateway', function () {
  this.timeout(600_000);
  let gw: TestGateway;
  let standin: FacilitatorStandin;
  let apiKey: string;
  let pages: Map<string, Samples>;
  const env = () => ({ ...process.env, API_KEY: apiKey });

  /** The cheapest sold endpoint of each product that sells any (the first in the registry's order among equals). */
  const cheapestOfEachProduct = (): RegisteredPlugin[] =>
    gw.gateway.registry.products.flatMap((product) => {
      const own = gw.gateway.registry.soldOfProduct(product.id);
      return own.length === 0
        ? []
        : [own.reduce((best, p) => (p.priceMicroUsdc < best.priceMicroUsdc ? p : best))];
    });

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
    pages = await samplesOfEverySold(gw);
  });
  after(async () => {
    await gw?.close();
    await standin?.close();
  });

  it('every endpoint page has curl, JavaScript and Python samples for preview, broker and x402', () => {
    expect([...pages.keys()]).to.deep.equal(gw.gateway.registry.sold().map((p) => p.endpointId));
    for (const [id, s] of pages)
      for (const surface of ['preview', 'broker', 'x402'])
        expect(Object.keys(s[surface] ?? {}), `${id} ${surface}`).to.have.members([
          'curl',
          'javascript',
          'python',
        ]);
  });

  it('the curl samples: preview and broker answer 200 with the payload on every endpoint', async () => {
    for (const [id, s] of pages) {
      for (const surface of ['preview', 'broker']) {
        const body = JSON.parse((await run('sh', ['-c', s[surface]!.curl!], { env: env() })).stdout);
        expect(body._gateway?.surface, `${id} ${surface}: ${JSON.stringify(body).slice(0, 300)}`).to.equal(
          surface,
        );
      }
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

  it('the JavaScript x402 sample pays through the facilitator and gets the data (cheapest of each product)', async () => {
    for (const p of cheapestOfEachProduct()) {
      const key = generatePrivateKey();
      const out = await runJs(`${p.endpointId}-x402`, pages.get(p.endpointId)!.x402!.javascript!, {
        ...env(),
        EVM_PRIVATE_KEY: key,
      });
      expect(out, p.endpointId).to.match(/^200 /);
      expect(out, p.endpointId).to.include("surface: 'x402'");
      expect(standin.transfersFrom(privateKeyToAccount(key).address), p.endpointId).to.have.length(1);
    }
  });

  it('the Python requests samples: preview and broker answer 200 (cheapest of each product, where python3 has requests)', async function () {
    if (!(await pythonHasRequests())) this.skip();
    for (const p of cheapestOfEachProduct()) {
      for (const surface of ['preview', 'broker']) {
        const out = (await run('python3', ['-c', pages.get(p.endpointId)![surface]!.python!], { env: env() }))
          .stdout;
        expect(out, `${p.endpointId} ${surface}`).to.match(/^200 /);
        expect(out, `${p.endpointId} ${surface}`).to.include(`'surface': '${surface}'`);
      }
    }
  });
});
