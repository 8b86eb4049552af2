/**
 * A text parameter that refuses white space alone as blank (`blank_value`) refuses the other ways
 * of writing nothing too: U+0085 (NEXT LINE) and invisible format characters (zero-width space
 * and joiners, word joiner, byte-order mark), which the fuzz test found normalised to an empty
 * name and searched (issue 15). Every parameter of every endpoint in plugins/, from openapi.json.
 */
import { expect } from 'chai';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { PRODUCT_PLUGINS } from '../support/plugin-sets';

const INVISIBLE = ['\u0085', '\u200b\u200c', '\u200d', '\u2060\ufeff'];

interface QueryParam {
  name: string;
  in: string;
  required?: boolean;
  example?: unknown;
}

describe('blank text parameters of every plugin in plugins/', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ pluginDirs: PRODUCT_PLUGINS.pluginDirs });
  });
  after(() => gw.close());

  it('refuse U+0085 and invisible characters alone as blank_value, as they refuse white space alone', async () => {
    const doc = (await gw.get('/openapi.json')).body;
    for (const p of gw.gateway.registry.sold()) {
      const path = `/preview/v1/${p.tail}`;
      const params = (doc.paths[path].get.parameters as QueryParam[]).filter((q) => q.in === 'query');
      for (const param of params) {
        const others = params
          .filter((q) => q.required && q !== param)
          .map((q): [string, string] => [q.name, String(q.example)]);
        const ask = (value: string) =>
          gw.get(`${path}?${new URLSearchParams([...others, [param.name, value]])}`);
        const spaces = await ask('  ');
        if (spaces.body?.correction_hints?.[0]?.code !== 'blank_value') continue;
        for (const blank of INVISIBLE) {
          const res = await ask(blank);
          const where = `${p.endpointId} ${param.name}=${JSON.stringify(blank)}`;
          expect(res.status, where).to.equal(422);
          expect(res.body.correction_hints[0], where).to.include({
            parameter: param.name,
            code: 'blank_value',
          });
        }
      }
    }
  });
});
