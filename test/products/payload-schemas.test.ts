/**
 * Every example of every sold endpoint (whatever plugins/ holds) answers a payload its published
 * JSON Schema accepts (the schema openapi.json carries), so the documentation cannot drift from
 * the answers.
 */
import { expect } from 'chai';
import Ajv2020 from 'ajv/dist/2020';
import { startTestGateway, type TestGateway } from '../support/gateway';

describe('every sold endpoint answers payloads its published schema accepts', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ clock: '2026-11-22T03:00:00Z' });
  });
  after(() => gw.close());

  it('every manifest example answers 200 with a payload its schema accepts', async () => {
    const problems: string[] = [];
    for (const plugin of gw.gateway.registry.sold()) {
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      const validate = ajv.compile(plugin.manifest.payloadSchema);
      for (const example of plugin.manifest.examples) {
        const qs = new URLSearchParams(
          Object.entries(example.query).map(([k, v]): [string, string] => [k, String(v)]),
        ).toString();
        const where = `${plugin.endpointId}?${qs}`;
        const res = await gw.get(`/preview/v1/${plugin.tail}?${qs}`);
        if (res.status !== 200) {
          problems.push(`${where}: ${res.status}`);
          continue;
        }
        const { _gateway, ...payload } = res.body;
        if (_gateway.endpoint_id !== plugin.endpointId)
          problems.push(`${where}: _gateway of ${_gateway.endpoint_id}`);
        if (!validate(payload)) problems.push(`${where}: ${JSON.stringify(validate.errors)}`);
      }
    }
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });

  it('every payload schema requires _attribution and _provenance, so an empty payload is refused', () => {
    for (const plugin of gw.gateway.registry.sold()) {
      expect(plugin.manifest.payloadSchema.required, plugin.endpointId).to.include.members([
        '_attribution',
        '_provenance',
      ]);
      const validate = new Ajv2020({ strict: false }).compile(plugin.manifest.payloadSchema);
      expect(validate({}), plugin.endpointId).to.equal(false);
    }
  });
});
