/**
 * Probes for orchestrators: `/health/live` says the process answers (it touches nothing, so a store
 * outage never gets a healthy process restarted), `/health/ready` says it can serve calls: the store
 * answers and the plugin registry sells at least one endpoint. While the gateway stops, the front
 * door answers both 503 `shutting_down`, so a balancer stops sending before connections close.
 * `/health` (gateway-routes.ts) stays the detailed report.
 */
import type { Router } from 'express';
import { jsonResponse, mount, type ApiCatalog } from '../http/api-catalog';
import type { PluginRegistry } from '../plugins/registry';
import type { StoreHealth } from './gateway-routes';

const READINESS = {
  type: 'object',
  required: ['status', 'store', 'registry'],
  properties: {
    status: { enum: ['ready', 'not_ready'] },
    store: {
      type: 'object',
      required: ['kind', 'state'],
      properties: { kind: { type: 'string' }, state: { enum: ['ok', 'down'] }, detail: { type: 'string' } },
    },
    registry: {
      type: 'object',
      required: ['state', 'loaded', 'sold'],
      properties: {
        state: {
          enum: ['ok', 'empty'],
          description: '`empty`: no plugin is sold, so no call can be served.',
        },
        loaded: { type: 'integer' },
        sold: { type: 'integer' },
      },
    },
  },
};

/** What the probes read. */
export interface HealthProbesDeps {
  readonly catalog: ApiCatalog;
  readonly registry: PluginRegistry;
  storeHealth(): Promise<StoreHealth>;
}

export function mountHealthProbes(router: Router, s: HealthProbesDeps): void {
  mount(
    router,
    s.catalog,
    'get',
    '/health/live',
    {
      operationId: 'getLiveness',
      summary: 'Liveness probe: the process answers (checks nothing else)',
      tags: ['gateway'],
      responses: {
        '200': jsonResponse('The process is live.', {
          type: 'object',
          required: ['status'],
          properties: { status: { const: 'live' } },
        }),
      },
    },
    (_req, res) => {
      res.setHeader('Cache-Control', 'no-store');
      res.json({ status: 'live' });
    },
  );

  mount(
    router,
    s.catalog,
    'get',
    '/health/ready',
    {
      operationId: 'getReadiness',
      summary: 'Readiness probe: the store answers and the plugin registry sells endpoints',
      tags: ['gateway'],
      responses: {
        '200': jsonResponse('Ready to serve calls.', READINESS),
        '503': jsonResponse('Not ready: the store is down or nothing is sold.', READINESS),
      },
    },
    async (_req, res) => {
      const store = await s.storeHealth();
      const loaded = s.registry.all().length;
      const sold = s.registry.sold().length;
      const registry = { state: sold > 0 ? 'ok' : 'empty', loaded, sold };
      const ready = store.state === 'ok' && sold > 0;
      res.setHeader('Cache-Control', 'no-store');
      res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', store, registry });
    },
  );
}
