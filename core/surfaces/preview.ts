/**
 * Free preview surface `GET /preview/v1/{tail}`: no credential, same handler and JSON shape as
 * production, and a body that says plainly it is a preview for evaluation only.
 */
import type { Router } from 'express';
import type { GatewayConfig } from '../config';
import { soldPluginFor } from './lookup';
import type { PreviewRate } from './preview-rate';
import type { SurfaceDeps } from './surface-deps';
import { answerCaching, answeredNotModified, sendAnswerJson } from './answer-http';

import { MCP_PATH, PREVIEW_PATH_PREFIX as PREVIEW_PREFIX } from '../http/paths';
import type { RegisteredPlugin } from '../plugins/registry';
import type { EndpointPayload } from '../plugins/contract';
import { NOTHING_TO_AUTHORIZE, RUN_UNCHARGED, type Exchange, type SurfacePlan } from './pipeline';

const NOTICE =
  'Free preview for evaluation only: the same handler and JSON shape as production, without a service commitment. ' +
  'For production use call the paid path (x402), the marketplace listing, the key-metered broker, or the MCP tools on /mcp.';

/** The `_gateway` fields that mark an answer as a preview (on /preview/v1 and /preview/mcp alike). */
export function previewGatewayExtras(
  config: GatewayConfig,
  plugin: RegisteredPlugin,
): Record<string, unknown> {
  return {
    preview: true,
    notice: NOTICE,
    production: {
      x402_url: `${config.baseUrl}/v1/${plugin.tail}`,
      broker: { call: 'POST /broker/call', product_id: plugin.brokerId },
      mcp: { url: `${config.baseUrl}${MCP_PATH}`, tool: plugin.endpointId },
    },
  };
}

/** The preview's choices: admitted by its per-client rate, free, answered with the preview's marks. */
export function previewPlan(
  s: SurfaceDeps,
  rate: PreviewRate,
): SurfacePlan<Exchange, undefined, EndpointPayload, void> {
  // The preview's extra _gateway fields are constant per endpoint: built once.
  const extras = new Map(s.registry.sold().map((p) => [p.endpointId, previewGatewayExtras(s.config, p)]));
  return {
    label: 'preview',
    noStore: false,
    admitHandlers: [rate.admit],
    resolve: ({ req }) => soldPluginFor(s.registry, req, PREVIEW_PREFIX),
    read: ({ req }, plugin) => plugin.query.parse(req.query),
    authorize: NOTHING_TO_AUTHORIZE,
    settle: RUN_UNCHARGED,
    answer({ x: { req, res }, plugin }, payload) {
      if (answeredNotModified(req, res, answerCaching(s.executor, plugin, payload, 'public'))) return;
      sendAnswerJson(
        req,
        res,
        s.executor.json(plugin, payload, 'preview', req, extras.get(plugin.endpointId), true),
      );
    },
  };
}

/**
 * Mounts the preview surface behind its per-client rate (`rate`, which /preview/mcp shares; built
 * by the composition root). Its operations: core/discovery/surface-operations.ts.
 */
export function mountPreviewSurface(router: Router, s: SurfaceDeps, rate: PreviewRate): void {
  router.get(`${PREVIEW_PREFIX}/*tail`, ...s.pipeline.route(previewPlan(s, rate)));
}
