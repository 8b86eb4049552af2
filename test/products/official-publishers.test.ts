/**
 * A plugin citing a publisher the shared list of official publishers lacks (domain/shared/
 * official-hosts.ts) passes the product's source checks only when its manifest declares that
 * publisher (`publishers: [{ name, host }]`), and only for itself; a bad declaration refuses the
 * start, naming the folder and the field. Fixture plugins in a temporary directory, so no product
 * folder is needed.
 */
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { container } from 'tsyringe';
import { PRODUCTS } from '../../config/products';
import { loadPlugins, PluginBootError } from '../../core/plugins/load-plugins';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { makePluginsDir, writeJsPlugin, type JsPluginSpec } from '../support/js-plugin';
import { manifestSourceProblems, payloadProblems } from './payload-walk';

/** Japan Post's postcode data: an official publisher, but not on a go.jp or lg.jp host. */
const POSTCODE_URL = 'https://www.post.japanpost.jp/zipcode/download.html';
const JAPAN_POST = "[{ name: 'Japan Post (日本郵便)', host: 'www.post.japanpost.jp' }]";

function citingJapanPost(folder: string, fields: Record<string, string> = {}): JsPluginSpec {
  return {
    folder,
    fields: {
      source: `{ name: 'Japan Post postcode data', freshness: 'monthly', url: '${POSTCODE_URL}' }`,
      ...fields,
    },
    handleBody: `return { n: q.n === undefined ? 1 : q.n, _attribution: 'Japan Post (日本郵便), postcode data', _provenance: { kind: 'snapshot', as_of: '2026-01-01', sources: [{ name: 'Japan Post postcode data', url: '${POSTCODE_URL}' }] } };`,
  };
}

describe('official publishers a plugin declares', () => {
  let dir: string;
  let gw: TestGateway;
  before(async () => {
    dir = makePluginsDir();
    writeJsPlugin(dir, citingJapanPost('local-declared', { publishers: JAPAN_POST }));
    writeJsPlugin(dir, citingJapanPost('local-undeclared'));
    gw = await startTestGateway({ pluginDirs: [dir] });
  });
  after(async () => {
    await gw.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const plugin = (id: string) => gw.gateway.registry.sold().find((p) => p.endpointId === id)!;
  const walk = (id: string) =>
    payloadProblems(gw, 'preview', plugin(id), { marketplaceSecret: '', apiKey: '' });

  it('a plugin citing a publisher the shared list lacks fails the checks without declaring it', async () => {
    expect(await walk('local-undeclared')).to.deep.equal([
      'local-undeclared n=3: no official source URL in _provenance.sources',
    ]);
    expect(manifestSourceProblems(plugin('local-undeclared'))).to.deep.equal([
      `local-undeclared: source.url ${POSTCODE_URL} is not on an official publisher's host`,
    ]);
  });

  it('passes them once its manifest declares the publisher (another plugin declaring it does not count)', async () => {
    expect(await walk('local-declared')).to.deep.equal([]);
    expect(manifestSourceProblems(plugin('local-declared'))).to.deep.equal([]);
  });
});

describe('the publishers manifest field at boot', () => {
  function bootError(fields: Record<string, string>): string {
    const dir = makePluginsDir();
    try {
      writeJsPlugin(dir, { folder: 'local-bad', fields });
      loadPlugins({ dirs: [dir], products: PRODUCTS, container: container.createChildContainer() });
    } catch (err) {
      expect(err).to.be.instanceOf(PluginBootError);
      return (err as Error).message;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    throw new Error('expected the boot to be refused');
  }

  it('refuses a value that is not a list, naming the folder and the field', () => {
    expect(bootError({ publishers: "'www.post.japanpost.jp'" })).to.match(
      /plugins\/local-bad: publishers: must be a list of \{ name, host \}/,
    );
  });

  it('refuses a publisher without a name, or whose host is a URL, naming each', () => {
    const message = bootError({
      publishers:
        "[{ name: ' ', host: 'www.post.japanpost.jp' }, { name: 'Japan Post', host: 'https://www.post.japanpost.jp/' }]",
    });
    expect(message)
      .to.match(/plugins\/local-bad: publishers\[0\]\.name: must name the publisher/)
      .and.match(/plugins\/local-bad: publishers\[1\]\.host: must be a lower-case host name/);
    expect(message).not.to.match(/publishers\[0\]\.host|publishers\[1\]\.name/);
  });

  it('refuses an upper-case or single-label host', () => {
    for (const host of ['WWW.POST.JAPANPOST.JP', 'localhost', 'www.post.japanpost.jp:443'])
      expect(bootError({ publishers: `[{ name: 'X', host: '${host}' }]` }), host).to.match(
        /publishers\[0\]\.host: must be a lower-case host name/,
      );
  });

  it('accepts a good declaration', () => {
    const dir = makePluginsDir();
    try {
      writeJsPlugin(dir, { folder: 'local-good', fields: { publishers: JAPAN_POST } });
      const registry = loadPlugins({
        dirs: [dir],
        products: PRODUCTS,
        container: container.createChildContainer(),
      });
      expect(registry.sold()[0].manifest.publishers).to.deep.equal([
        { name: 'Japan Post (日本郵便)', host: 'www.post.japanpost.jp' },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
