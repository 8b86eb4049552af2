/**
 * The code samples of the endpoint pages, as a buyer copies them, run against a real gateway on
 * the kernel's fixture plugins: curl, JavaScript (fetch) and Python (requests, where python3 has
 * it) for the free preview and the broker, and the x402 samples (curl's 402, and @x402/fetch
 * paying through the facilitator stand-in), on every fixture. test/products/ runs the samples of
 * every endpoint in plugins/.
 */
import { expect } from 'chai';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { randomAddress } from '../core/payments/payer';
import { startFacilitatorStandin, type FacilitatorStandin } from '../support/facilitator-standin';
import { FIXTURE_PLUGINS_DIR, startTestGateway, type TestGateway } from '../support/gateway';
import { pythonHasRequests, run, runJs, samplesOfEverySold, type Samples } from '../support/portal-samples';

describe('code samples of the endpoint pages, run against the gateway', function () {
  this.timeout(240_000);
  let gw: TestGateway;
  let standin: FacilitatorStandin;
  let apiKey: string;
  let pages: Map<string, Samples>;
  const env = () => ({ ...process.env, API_KEY: apiKey });

  before(async () => {
    standin = await startFacilitatorStandin();
    gw = await startTestGateway({
      pluginDirs: [FIXTURE_PLUGINS_DIR],
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
      const preview = JSON.parse((await run('sh', ['-c', s.preview!.curl!], { env: env() })).stdout);
      expect(preview._gateway?.surface, `${id} preview: ${JSON.stringify(preview).slice(0, 300)}`).to.equal(
        'preview',
      );
      const broker = JSON.parse((await run('sh', ['-c', s.broker!.curl!], { env: env() })).stdout);
      expect(broker._gateway?.surface, `${id} broker: ${JSON.stringify(broker).slice(0, 300)}`).to.equal(
        'broker',
      );
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

  it('the JavaScript x402 sample (@x402/fetch) pays through the facilitator and gets the data, at each price', async () => {
    for (const [id, s] of pages) {
      const key = generatePrivateKey();
      const out = await runJs(`${id}-x402`, s.x402!.javascript!, { ...env(), EVM_PRIVATE_KEY: key });
      expect(out, id).to.match(/^200 /);
      expect(out, id).to.include("surface: 'x402'");
      const transfers = standin.transfersFrom(privateKeyToAccount(key).address);
      expect(transfers, id).to.have.length(1);
      const price = gw.gateway.registry.sold().find((p) => p.endpointId === id)!.priceMicroUsdc;
      expect(transfers[0].value, id).to.equal(String(price));
    }
  });

  it('the Python requests samples: preview and broker answer 200 (where python3 has requests)', async function () {
    if (!(await pythonHasRequests())) this.skip();
    for (const [id, s] of pages) {
      for (const surface of ['preview', 'broker']) {
        const out = (await run('python3', ['-c', s[surface]!.python!], { env: env() })).stdout;
        expect(out, `${id} ${surface}`).to.match(/^200 /);
        expect(out, `${id} ${surface}`).to.include(`'surface': '${surface}'`);
      }
    }
  });
});
