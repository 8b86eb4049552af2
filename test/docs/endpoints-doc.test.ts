/**
 * Endpoints are listed in one generated document (issue 26): docs/endpoints.md is what the loaded
 * plugins describe (the build rewrites it), and no hand-written document names an endpoint id or a
 * tail of a plugin for sale, so that retiring a folder leaves no document stale. Generated files and
 * the changelog (history) may name them.
 */
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../config/paths';
import type { RegisteredPlugin } from '../../core/plugins/registry';
import { ENDPOINTS_DOC, renderEndpointsDoc } from '../../tools/endpoints-doc';
import { startTestGateway, type TestGateway } from '../support/gateway';

/** Documents that may name endpoints: generated from the manifests, or history. */
const MAY_NAME = new Set([
  'docs/endpoints.md',
  'docs/glossary.md',
  'docs/glossary.json',
  'docs/changelog.md',
]);

function handWritten(): string[] {
  const docs = readdirSync(path.join(PROJECT_ROOT, 'docs'))
    .filter((f) => f.endsWith('.md') || f.endsWith('.json'))
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs].filter((f) => !MAY_NAME.has(f));
}

/** Where a text names an endpoint id, broker id or tail (as a whole word or path). */
function namings(text: string, plugin: Pick<RegisteredPlugin, 'endpointId' | 'brokerId' | 'tail'>): string[] {
  const hits: string[] = [];
  for (const name of [plugin.endpointId, plugin.brokerId, plugin.tail]) {
    const escaped = name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    const re = new RegExp(`(^|[^\\w-])${escaped}($|[^\\w/-])`, 'gm');
    for (const m of text.matchAll(re)) {
      const line = text.slice(0, m.index).split('\n').length;
      hits.push(`line ${line}: ${name}`);
    }
  }
  return hits;
}

describe('the endpoints are listed in one generated document', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({});
  });
  after(() => gw.close());

  it('docs/endpoints.md is what the loaded plugins describe (the build rewrites it)', () => {
    const manifests = gw.gateway.registry.sold().map((p) => p.manifest);
    expect(readFileSync(ENDPOINTS_DOC, 'utf8')).to.equal(renderEndpointsDoc(manifests));
  });

  it('recognises an endpoint id, broker id or tail in a sentence, not a longer name (the check can fail)', () => {
    const plugin = {
      endpointId: 'local-sample',
      brokerId: 'jp-local-pack-v1-sample',
      tail: 'local/sample/jp',
    };
    const text = 'Call local-sample, jp-local-pack-v1-sample or GET /v1/local/sample/jp?year=2026.';
    expect(namings(text, plugin)).to.deep.equal([
      'line 1: local-sample',
      'line 1: jp-local-pack-v1-sample',
      'line 1: local/sample/jp',
    ]);
    expect(namings('local-sample-extra and local/sample/jpx are others', plugin)).to.deep.equal([]);
  });

  it('no hand-written document names an endpoint id, broker id or tail of a plugin for sale', () => {
    const problems: string[] = [];
    for (const file of handWritten()) {
      const text = readFileSync(path.join(PROJECT_ROOT, file), 'utf8');
      for (const p of gw.gateway.registry.sold())
        for (const hit of namings(text, p)) problems.push(`${file} ${hit}`);
    }
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });
});
