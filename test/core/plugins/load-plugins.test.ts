import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { container } from 'tsyringe';
import { PRODUCTS } from '../../../config/products';
import { loadPlugins, PluginBootError } from '../../../core/plugins/load-plugins';
import { makePluginsDir, writeJsPlugin, type JsPluginSpec } from '../../support/js-plugin';

/** Boots the loader over temporary plugin folders and returns the refusal message. */
function bootError(specs: JsPluginSpec[], extraDirSpecs: JsPluginSpec[] = []): string {
  const dir = makePluginsDir();
  const extra = makePluginsDir();
  try {
    for (const s of specs) writeJsPlugin(dir, s);
    for (const s of extraDirSpecs) writeJsPlugin(extra, s);
    loadPlugins({ dirs: [dir, extra], products: PRODUCTS, container: container.createChildContainer() });
  } catch (err) {
    expect(err).to.be.instanceOf(PluginBootError);
    return (err as Error).message;
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(extra, { recursive: true, force: true });
  }
  throw new Error('expected the boot to be refused');
}

describe('plugin boot checks', () => {
  it('loads a good plugin and derives its ids', () => {
    const dir = makePluginsDir();
    writeJsPlugin(dir, { folder: 'local-echo' });
    const registry = loadPlugins({
      dirs: [dir],
      products: PRODUCTS,
      container: container.createChildContainer(),
    });
    const p = registry.soldByTail('local/echo/echo');
    expect(p?.brokerId).to.equal('jp-local-pack-v1-echo');
    expect(p?.priceUsd).to.equal('0.001');
    rmSync(dir, { recursive: true, force: true });
  });

  const cases: Array<[string, JsPluginSpec[], RegExp, JsPluginSpec[]?]> = [
    [
      'a missing endpoint id',
      [{ folder: 'local-echo', fields: { endpointId: 'undefined' } }],
      /plugins\/local-echo: endpointId: .*must equal the folder name/,
    ],
    [
      'an endpoint id that is not the folder name',
      [{ folder: 'local-echo', fields: { endpointId: "'local-other'" } }],
      /plugins\/local-echo: endpointId:/,
    ],
    [
      'a duplicate endpoint id',
      [{ folder: 'local-echo' }],
      /plugins\/local-echo: endpointId: "local-echo" is already used by plugins\/local-echo/,
      [{ folder: 'local-echo', fields: { tail: "'local/echo/two'" } }],
    ],
    [
      'a duplicate tail',
      [{ folder: 'local-echo' }, { folder: 'local-echo-two', fields: { tail: "'local/echo/echo'" } }],
      /plugins\/local-echo-two: tail: "local\/echo\/echo" is already served by plugins\/local-echo/,
    ],
    [
      'an unknown product',
      [{ folder: 'local-echo', fields: { product: "'jp-nope'" } }],
      /plugins\/local-echo: product: unknown product "jp-nope"/,
    ],
    [
      'a zero price',
      [{ folder: 'local-echo', fields: { priceMicroUsdc: '0' } }],
      /plugins\/local-echo: priceMicroUsdc: must be a positive integer/,
    ],
    [
      'a fractional price',
      [{ folder: 'local-echo', fields: { priceMicroUsdc: '1500.5' } }],
      /plugins\/local-echo: priceMicroUsdc: must be a positive integer/,
    ],
    [
      'a price given as text',
      [{ folder: 'local-echo', fields: { priceMicroUsdc: "'1000'" } }],
      /plugins\/local-echo: priceMicroUsdc: must be a positive integer/,
    ],
    [
      'a price outside the product band',
      [{ folder: 'local-echo', fields: { priceMicroUsdc: '999999' } }],
      /priceMicroUsdc: 999999 is outside jp-local-pack's band/,
    ],
    [
      'an unknown lifecycle',
      [{ folder: 'local-echo', fields: { lifecycle: "'beta'" } }],
      /plugins\/local-echo: lifecycle: unknown lifecycle "beta"/,
    ],
    [
      'a tail outside the family',
      [{ folder: 'local-echo', fields: { tail: "'grants/echo'" } }],
      /plugins\/local-echo: tail: "grants\/echo" must start with the product's family segment "local\/"/,
    ],
    [
      'a malformed tail',
      [{ folder: 'local-echo', fields: { tail: "'local//Echo'" } }],
      /plugins\/local-echo: tail: must be segments/,
    ],
    [
      'an endpoint id outside the family',
      [{ folder: 'enrich-echo' }],
      /plugins\/enrich-echo: endpointId: "enrich-echo" must start with the product's family "local-"/,
    ],
    [
      'a handler that is not injectable',
      [{ folder: 'local-echo', notInjectable: true }],
      /plugins\/local-echo: handler: Handler is not injectable/,
    ],
    [
      'a handler whose dependency cannot be built',
      [{ folder: 'local-echo', unresolvableDependency: true }],
      /plugins\/local-echo: handler: Handler cannot be constructed/,
    ],
    [
      'an example the DTO refuses',
      [{ folder: 'local-echo', fields: { examples: '[{ query: { n: 42 } }]' } }],
      /plugins\/local-echo: examples\[0\]\.query\.n: .*out_of_range/,
    ],
    [
      'no examples',
      [{ folder: 'local-echo', fields: { examples: '[]' } }],
      /plugins\/local-echo: examples: must list at least one/,
    ],
    [
      'a parameter without description',
      [{ folder: 'local-echo', undocumentedParam: true }],
      /plugins\/local-echo: query\.n: needs a description/,
    ],
    [
      "a plugin for sale with the scaffold's placeholder summary",
      [{ folder: 'local-echo', fields: { summary: "'TODO: one line a buyer understands'" } }],
      /plugins\/local-echo: summary: still holds a placeholder \("TODO: one line/,
    ],
    [
      "a plugin for sale with the scaffold's placeholder source",
      [
        {
          folder: 'local-echo',
          fields: { source: "{ name: 'TODO: the public source', freshness: 'daily' }" },
        },
      ],
      /plugins\/local-echo: source\.name: still holds a placeholder/,
    ],
    [
      "a plugin for sale whose handler's coverage is the scaffold's placeholder",
      [
        {
          folder: 'local-echo',
          coverageBody:
            "return { kind: 'snapshot', as_of: '2026-01-01', summary: 'TODO: what the data covers' };",
        },
      ],
      /plugins\/local-echo: handler\.coverage\(\): still holds a placeholder/,
    ],
    [
      "a coverage kind the kernel does not know (the MCP tool's openWorldHint is read from it)",
      [
        {
          folder: 'local-echo',
          coverageBody: "return { kind: 'cached', as_of: '2026-01-01', summary: 'A table.' };",
        },
      ],
      /plugins\/local-echo: handler\.coverage\(\): kind must be one of snapshot, live, live_with_snapshot_fallback \(got "cached"\)/,
    ],
    [
      'cacheable answers from a live upstream (the same query would not get the same answer)',
      [
        {
          folder: 'local-echo',
          fields: { cacheableAnswers: 'true' },
          coverageBody: "return { kind: 'live', as_of: '2026-01-01', summary: 'The live register.' };",
        },
      ],
      /plugins\/local-echo: cacheableAnswers: is true, but handler\.coverage\(\) says the data is "live"/,
    ],
    [
      'a missing source',
      [{ folder: 'local-echo', fields: { source: 'undefined' } }],
      /plugins\/local-echo: source\.name: must name the public source/,
    ],
    [
      'a folder without manifest',
      [{ folder: 'local-echo', noManifest: true }],
      /plugins\/local-echo: manifest: no manifest/,
    ],
    [
      'a default export that is not definePlugin',
      [{ folder: 'local-echo', plainExport: true }],
      /plugins\/local-echo: manifest: the default export must be definePlugin/,
    ],
  ];
  for (const [what, specs, pattern, extra] of cases) {
    it(`refuses to start on ${what}, naming the folder and field`, () => {
      expect(bootError(specs, extra)).to.match(pattern);
    });
  }

  it('lists every problem of every folder in one refusal', () => {
    const message = bootError([
      { folder: 'local-echo', fields: { priceMicroUsdc: '-5', lifecycle: "'beta'" } },
      { folder: 'local-other', fields: { product: "'jp-nope'" } },
    ]);
    expect(message).to.match(/3 plugin problem/);
    expect(message)
      .to.include('plugins/local-echo: priceMicroUsdc')
      .and.include('plugins/local-echo: lifecycle')
      .and.include('plugins/local-other: product');
  });
});
