/**
 * One parameter vocabulary on every endpoint in plugins/ (issue 29, item 5), read from
 * openapi.json: `verbose` reads true/false/1/0 in any case the same way everywhere (JSON booleans
 * on the broker too) and refuses anything else with the same problem, except where the spec makes
 * it a string flag (any text); every prefecture parameter accepts the code, the Japanese name and
 * the romaji name, answers the same for each, and refuses anything else with the same problem.
 */
import { expect } from 'chai';
import { startTestGateway, type TestGateway, type TestResponse } from '../support/gateway';
import { PRODUCT_PLUGINS } from '../support/plugin-sets';

interface QueryParam {
  name: string;
  in: string;
  required?: boolean;
  example?: unknown;
  description?: string;
  schema?: { type?: string };
}

const PREF_PARAMS = new Set(['pref', 'pref_code']);

/** The answer without what differs per call. */
function data(res: TestResponse): Record<string, unknown> {
  expect(res.status, res.text.slice(0, 300)).to.equal(200);
  const { _gateway: _, ...rest } = res.body as Record<string, unknown>;
  return rest;
}

describe('one parameter vocabulary on every endpoint in plugins/', () => {
  let gw: TestGateway;
  let key: string;
  let operations: Array<{ path: string; brokerId: string; params: QueryParam[] }>;

  before(async () => {
    gw = await startTestGateway({
      pluginDirs: PRODUCT_PLUGINS.pluginDirs,
      env: { TRIAL_CREDIT_MICRO_USDC: '5000000' },
    });
    key = (await gw.post('/keys/create', { owner_label: 'vocabulary' })).body.api_key as string;
    const doc = (await gw.get('/openapi.json')).body;
    operations = gw.gateway.registry.sold().map((p) => {
      const path = `/preview/v1/${p.tail}`;
      const params = (doc.paths[path].get.parameters as QueryParam[]).filter((q) => q.in === 'query');
      return { path, brokerId: p.brokerId, params };
    });
  });
  after(() => gw.close());

  const ask = (path: string, params: QueryParam[], extra: Array<[string, string]>) => {
    const required = params
      .filter((q) => q.required && !extra.some(([n]) => n === q.name))
      .map((q): [string, string] => [q.name, String(q.example)]);
    return gw.get(`${path}?${new URLSearchParams([...required, ...extra])}`);
  };

  it('verbose: true/TRUE/1 and false/False/0 read alike everywhere, JSON booleans on the broker too', async () => {
    let checked = 0;
    for (const { path, brokerId, params } of operations) {
      if (!params.some((q) => q.name === 'verbose')) continue;
      checked++;
      const off = data(await ask(path, params, []));
      const on = data(await ask(path, params, [['verbose', 'true']]));
      expect(on, path).to.not.deep.equal(off);
      for (const v of ['TRUE', '1'])
        expect(data(await ask(path, params, [['verbose', v]])), `${path} ${v}`).to.deep.equal(on);
      for (const v of ['false', 'False', '0'])
        expect(data(await ask(path, params, [['verbose', v]])), `${path} ${v}`).to.deep.equal(off);
      const required = Object.fromEntries(params.filter((q) => q.required).map((q) => [q.name, q.example]));
      const broker = await gw.post(
        '/broker/call',
        { product_id: brokerId, query: { ...required, verbose: true } },
        { 'X-API-Key': key },
      );
      expect(data(broker), `${brokerId} verbose: true`).to.deep.equal(on);
    }
    expect(checked).to.be.above(0);
  });

  it("verbose: anything else is refused with one problem everywhere, except the spec's string flags", async () => {
    const refusals = new Set<string>();
    for (const { path, params } of operations) {
      const verbose = params.find((q) => q.name === 'verbose');
      if (!verbose) continue;
      const res = await ask(path, params, [['verbose', 'maybe']]);
      if (verbose.schema?.type === 'string') {
        // The spec's "string-flag": an unconstrained string, on unless an off word.
        expect(verbose.description, path).to.match(/^String flag: any value/);
        expect(data(res), path).to.deep.equal(data(await ask(path, params, [['verbose', 'true']])));
        continue;
      }
      expect(verbose.schema?.type, path).to.equal('boolean');
      expect(res.status, path).to.equal(422);
      const { parameter, code, accepted, hint } = res.body.correction_hints[0];
      expect({ parameter, code }, path).to.deep.equal({ parameter: 'verbose', code: 'not_a_boolean' });
      refusals.add(JSON.stringify({ accepted, hint }));
    }
    expect(refusals.size).to.equal(1);
  });

  it('prefectures: the code, the Japanese name (with or without its suffix) and romaji give the same answer', async () => {
    let checked = 0;
    for (const { path, params } of operations) {
      for (const param of params.filter((q) => PREF_PARAMS.has(q.name))) {
        checked++;
        const byCode = data(await ask(path, params, [[param.name, '13']]));
        expect(JSON.stringify(byCode), path).to.include('"13"');
        for (const form of ['東京都', '東京', 'Tokyo', 'tokyo', 'ＴＯＫＹＯ']) {
          const res = await ask(path, params, [[param.name, form]]);
          expect(data(res), `${path} ${param.name}=${form}`).to.deep.equal(byCode);
        }
        expect(data(await ask(path, params, [[param.name, '大阪府']])), path).to.deep.equal(
          data(await ask(path, params, [[param.name, '27']])),
        );
      }
    }
    expect(checked).to.be.above(0);
  });

  it('prefectures: anything else is refused with one problem everywhere', async () => {
    const refusals = new Set<string>();
    for (const { path, params } of operations) {
      for (const param of params.filter((q) => PREF_PARAMS.has(q.name))) {
        for (const bad of ['Atlantis', '48', '1']) {
          const res = await ask(path, params, [[param.name, bad]]);
          expect(res.status, `${path} ${param.name}=${bad}`).to.equal(422);
          const { parameter, code, accepted } = res.body.correction_hints[0];
          expect({ parameter, code }, path).to.deep.equal({
            parameter: param.name,
            code: 'unknown_prefecture',
          });
          refusals.add(accepted as string);
        }
        const empty = await ask(path, params, [[param.name, '']]);
        expect(empty.body.correction_hints[0].code, `${path} empty`).to.equal('empty_value');
      }
    }
    expect([...refusals]).to.have.length(1);
  });
});
