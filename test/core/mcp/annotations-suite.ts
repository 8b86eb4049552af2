/**
 * Every MCP tool's hints follow the facts a buyer can read elsewhere: idempotent exactly where the
 * manifest promises the same answer to the same query (cacheableAnswers), open-world exactly where
 * /product-status.json says the endpoint's data is not a dated snapshot (a live upstream), never
 * both; read-only and not destructive always. Run on the kernel's fixtures
 * (test/core/mcp/mcp-annotations.test.ts) and on plugins/ (test/products/), counting nothing.
 */
import { expect } from 'chai';
import { startTestGateway } from '../../support/gateway';
import { connectMcp } from '../../support/mcp-client';
import type { PluginSet } from '../../support/plugin-sets';

/** A deployment to read the hints on: its settings (e.g. live upstreams configured or not). */
export interface AnnotationsDeployment {
  label: string;
  env: Record<string, string>;
}

export function describeToolAnnotations(set: PluginSet, deployments: AnnotationsDeployment[]): void {
  describe(`MCP tool annotations of ${set.label}`, () => {
    for (const d of deployments) {
      it(`${d.label}: every tool's hints follow cacheableAnswers and the data kind in /product-status.json`, async () => {
        const gw = await startTestGateway({ pluginDirs: set.pluginDirs, env: d.env });
        const client = await connectMcp(gw, '/mcp');
        try {
          const { tools } = await client.listTools();
          const status = (await gw.get('/product-status.json')).body as {
            endpoints: Array<{ endpoint_id: string; data: { kind?: string } }>;
          };
          const sold = gw.gateway.registry.sold();
          expect(sold.length, 'sold endpoints').to.be.above(0);
          expect(tools.map((t) => t.name)).to.deep.equal(sold.map((p) => p.endpointId));
          for (const p of sold) {
            const tool = tools.find((t) => t.name === p.endpointId)!;
            const kind = status.endpoints.find((e) => e.endpoint_id === p.endpointId)?.data.kind;
            expect(tool.annotations, p.endpointId).to.deep.equal({
              title: p.manifest.summary,
              readOnlyHint: true,
              destructiveHint: false,
              idempotentHint: p.manifest.cacheableAnswers === true,
              openWorldHint: kind !== 'snapshot',
            });
            expect(
              tool.annotations!.idempotentHint && tool.annotations!.openWorldHint,
              p.endpointId,
            ).to.equal(false);
          }
        } finally {
          await client.close();
          await gw.close();
        }
      });
    }
  });
}
