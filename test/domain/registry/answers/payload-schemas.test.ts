/**
 * Every example of the ten registry endpoints answers a payload its published JSON Schema accepts
 * (the schema openapi.json carries), so the documentation cannot drift from the answers.
 */
import { expect } from 'chai';
import Ajv2020 from 'ajv/dist/2020';
import { startTestGateway, type TestGateway } from '../../../support/gateway';
import { pluginFolders, REGISTRY_FOLDERS } from '../../../support/plugin-folders';

const PLUGINS = pluginFolders(REGISTRY_FOLDERS);

describe('registry endpoints: answers match their published payload schemas', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ plugins: PLUGINS, clock: '2026-11-22T03:00:00Z' });
  });
  after(() => gw.close());

  it('all ten are sold, each at its price', () => {
    const sold = gw.gateway.registry.sold().map((p) => [p.endpointId, p.priceMicroUsdc]);
    expect(Object.fromEntries(sold)).to.deep.equal({
      'local-houjin-lookup': 20_000,
      'local-houjin-number': 10_000,
      'local-invoice-issuer': 20_000,
      'local-invoice-lookup': 5_000,
      'enrich-company-by-name': 20_000,
      'enrich-company-by-number': 10_000,
      'enrich-company-by-domain': 30_000,
      'enrich-company-resolve': 30_000,
      'enrich-name-normalize': 10_000,
      'enrich-company-batch': 50_000,
    });
  });

  for (const id of PLUGINS) {
    it(`${id}: every manifest example answers 200 with a payload the schema accepts`, async () => {
      const plugin = gw.gateway.registry.sold().find((p) => p.endpointId === id)!;
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      const validate = ajv.compile(plugin.manifest.payloadSchema);
      for (const example of plugin.manifest.examples) {
        const qs = new URLSearchParams(
          Object.entries(example.query).map(([k, v]): [string, string] => [k, String(v)]),
        ).toString();
        const res = await gw.get(`/preview/v1/${plugin.manifest.tail}?${qs}`);
        expect(res.status, `${id} ${qs}`).to.equal(200);
        const { _gateway, ...payload } = res.body;
        expect(_gateway.endpoint_id).to.equal(id);
        const ok = validate(payload);
        expect(ok, `${id} ${qs}: ${JSON.stringify(validate.errors)}`).to.equal(true);
      }
    });
  }
});
