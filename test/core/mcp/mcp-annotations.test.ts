/**
 * The hints of every MCP tool (annotations), as the official SDK client reads them from
 * tools/list, derived from what the manifest and the handler state: read-only and not
 * destructive always, idempotent where the manifest promises the same answer to the same query
 * (cacheableAnswers), open-world where the handler's coverage names a live upstream or cannot
 * say. On the kernel's fixtures and on plugins written for the case (test/support/js-plugin.ts);
 * test/products/mcp-annotations.test.ts runs the suite over plugins/.
 */
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { ECHO, FAILING } from '../../support/fx-endpoints';
import { FIXTURE_PLUGINS_DIR, startTestGateway, type TestGateway } from '../../support/gateway';
import { makePluginsDir, writeJsPlugin } from '../../support/js-plugin';
import { connectMcp } from '../../support/mcp-client';
import { FIXTURE_PLUGINS } from '../../support/plugin-sets';
import { describeToolAnnotations } from './annotations-suite';

describeToolAnnotations(FIXTURE_PLUGINS, [{ label: 'snapshots only', env: {} }]);

describe('MCP tool annotations by the facts behind them', () => {
  let gw: TestGateway;
  let dir: string;
  before(async () => {
    dir = makePluginsDir();
    writeJsPlugin(dir, {
      folder: 'local-live',
      coverageBody: "return { kind: 'live', as_of: now.toISOString(), summary: 'The live register.' };",
    });
    writeJsPlugin(dir, {
      folder: 'local-fallback',
      coverageBody:
        "return { kind: 'live_with_snapshot_fallback', as_of: '2026-01-01', summary: 'Live, else a snapshot.' };",
    });
    writeJsPlugin(dir, {
      folder: 'local-blind',
      coverageBody: "throw new Error('the upstream did not answer');",
    });
    writeJsPlugin(dir, { folder: 'local-plain' });
    gw = await startTestGateway({
      pluginDirs: [FIXTURE_PLUGINS_DIR, dir],
      plugins: [
        ECHO.endpointId,
        FAILING.endpointId,
        'local-live',
        'local-fallback',
        'local-blind',
        'local-plain',
      ],
    });
  });
  after(async () => {
    await gw.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('tools/list (official SDK client) carries every hint: idempotent from cacheableAnswers, open-world from the coverage kind', async () => {
    for (const path of ['/mcp', '/preview/mcp'] as const) {
      const client = await connectMcp(gw, path);
      try {
        const { tools } = await client.listTools();
        const hints = Object.fromEntries(
          tools.map((t) => [t.name, [t.annotations?.idempotentHint, t.annotations?.openWorldHint]]),
        );
        expect(hints, path).to.deep.equal({
          // A snapshot table, cacheable: the same arguments get the same answer; nothing outside.
          [ECHO.endpointId]: [true, false],
          // A snapshot, but answers not promised to repeat.
          [FAILING.endpointId]: [false, false],
          'local-live': [false, true],
          'local-fallback': [false, true],
          // Coverage unknown (threw at boot, or no coverage() at all): not closed, as far as we know.
          'local-blind': [false, true],
          'local-plain': [false, true],
        });
        for (const t of tools) {
          expect(t.annotations, t.name).to.include({ readOnlyHint: true, destructiveHint: false });
          expect(t.annotations!.title, t.name).to.equal(t.title);
        }
      } finally {
        await client.close();
      }
    }
  });
});
