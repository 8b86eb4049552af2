/**
 * The HTML portal's routes: the pages (portal/pages.ts), their stylesheet and script, the no-JS
 * try-it redirect and Swagger UI's files from node_modules (served from this origin, no CDN).
 * Pages are built once and sent as discovery documents (compressed, cacheable for 5 minutes) under
 * a content security policy that allows only this origin's scripts and styles.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Request, Response, Router } from 'express';
import { ERROR_REF, mount } from '../../http/api-catalog';
import { documentOnce, DiscoveryDocument } from '../../http/discovery-document';
import { HttpError } from '../../http/errors';
import type { DiscoveryRoutesDeps } from '../facts';
import { examplePlugin } from '../../plugins/example-plugin';
import { describeEndpoint } from '../describe';
import { errorRows } from '../portal';
import { PORTAL_CSS, PORTAL_SCRIPT, REFERENCE_SCRIPT } from '../portal-assets';
import { html } from './html';
import { PortalPages, type ExampleAnswer, type PortalPage } from './pages';
import { previewGatewayExtras } from '../../surfaces/preview';

/** The portal runs no inline code: everything it loads comes from this origin. */
export const PORTAL_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
  "form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const HTML_TYPE = 'text/html; charset=utf-8';

/** Swagger UI's files the reference page loads, by the name they are served under. */
const SWAGGER_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

function swaggerDir(): string {
  return path.dirname(require.resolve('swagger-ui-dist/package.json'));
}

const text = (description: string, type: string) => ({
  description,
  content: { [type]: { schema: { type: 'string' } } },
});

function idParam(name: string, example: string | undefined) {
  return {
    name,
    in: 'path' as const,
    required: true,
    schema: { type: 'string' },
    ...(example !== undefined ? { example } : {}),
  };
}

export function mountPortalRoutes(router: Router, s: DiscoveryRoutesDeps): void {
  // Path examples name what this gateway sells (core/plugins/example-plugin.ts).
  const example = examplePlugin(s.registry);
  const exampleProduct = example?.product.id ?? s.registry.products[0]?.id;
  let pages: PortalPages | undefined;
  // Built on first use, after every route has been mounted.
  const site = () => (pages ??= new PortalPages(s, errorRows(s)));
  const cache = new Map<string, DiscoveryDocument>();
  // Keyed by the page's own path (the one its navigation marks as current).
  const page = (key: string, build: (p: PortalPages) => PortalPage | undefined) => {
    let doc = cache.get(key);
    if (!doc) {
      const built = build(site());
      if (!built) return undefined;
      doc = new DiscoveryDocument(site().layout(built, key), HTML_TYPE);
      cache.set(key, doc);
    }
    return doc;
  };
  const sendPage = (
    req: Request,
    res: Response,
    key: string,
    build: (p: PortalPages) => PortalPage | undefined,
  ) => {
    const doc = page(key, build);
    if (doc) {
      res.setHeader('Content-Security-Policy', PORTAL_CSP);
      doc.send(req, res);
      return;
    }
    // Errors are JSON with a stable code, except for a browser asking for HTML.
    if (req.accepts(['json', 'html']) !== 'html') {
      const code = key.startsWith('/portal/products/') ? 'unknown_product_id' : 'unknown_endpoint';
      throw new HttpError(404, code, 'No portal page has that id.', { hint: 'See /portal.' });
    }
    res.status(404).setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Security-Policy', PORTAL_CSP);
    res.vary('Accept');
    res.type('html').send(
      site().layout({
        title: 'Not found',
        body: html`<h1>Not found</h1>
          <p>
            No page at <code>${req.path}</code>. The endpoints are listed in the navigation and on
            <a href="/portal">the home page</a>.
          </p>`,
      }),
    );
  };
  const htmlPage = (summary: string) => ({
    summary,
    tags: ['discovery'],
    responses: { '200': text('The page (reads without JavaScript).', 'text/html') },
  });

  mount(
    router,
    s.catalog,
    'get',
    '/portal',
    {
      operationId: 'getPortal',
      ...htmlPage('The buyer portal: what we sell, the ways to pay, quick start, every endpoint'),
    },
    (req, res) => sendPage(req, res, '/portal', (p) => p.home()),
  );
  mount(
    router,
    s.catalog,
    'get',
    '/portal/products/:productId',
    {
      operationId: 'getPortalProduct',
      ...htmlPage("A product's page: its endpoints, prices, sources and freshness"),
      parameters: [idParam('productId', exampleProduct)],
    },
    (req, res) =>
      sendPage(req, res, `/portal/products/${String(req.params.productId)}`, (p) =>
        p.product(String(req.params.productId)),
      ),
  );
  mount(
    router,
    s.catalog,
    'get',
    '/portal/endpoints/:endpointId',
    {
      operationId: 'getPortalEndpoint',
      ...htmlPage(
        "An endpoint's page: parameters, price per surface, source and freshness, try-it, example and code samples",
      ),
      parameters: [idParam('endpointId', example?.endpointId)],
    },
    async (req, res) => {
      const id = String(req.params.endpointId);
      const key = `/portal/endpoints/${id}`;
      // The page shows a real answer to the first example, taken once when the page is first built.
      const answer = cache.has(key) ? undefined : await exampleAnswer(s, id, req);
      sendPage(req, res, key, (p) => p.endpoint(id, answer));
    },
  );
  mount(
    router,
    s.catalog,
    'get',
    '/portal/errors',
    { operationId: 'getPortalErrors', ...htmlPage('Errors and what to do; limits') },
    (req, res) => sendPage(req, res, '/portal/errors', (p) => p.errorsPage()),
  );
  mount(
    router,
    s.catalog,
    'get',
    '/portal/keys',
    {
      operationId: 'getPortalKeys',
      ...htmlPage('Create an API key in the browser and watch its balance and recent calls'),
    },
    (req, res) => sendPage(req, res, '/portal/keys', (p) => p.keys()),
  );
  mount(
    router,
    s.catalog,
    'get',
    '/portal/mcp',
    { operationId: 'getPortalMcp', ...htmlPage('The MCP server: configuration, payment, tools') },
    (req, res) => sendPage(req, res, '/portal/mcp', (p) => p.mcp()),
  );
  mount(
    router,
    s.catalog,
    'get',
    '/portal/x402',
    {
      operationId: 'getPortalX402',
      ...htmlPage(
        'Pay per call with x402: the handshake, or what paid paths answer while this deployment takes no payments',
      ),
    },
    (req, res) => sendPage(req, res, '/portal/x402', (p) => p.x402()),
  );
  mount(
    router,
    s.catalog,
    'get',
    '/portal/reference',
    {
      operationId: 'getPortalReference',
      ...htmlPage('The API reference, rendered from /openapi.json by Swagger UI'),
    },
    (req, res) => sendPage(req, res, '/portal/reference', (p) => p.reference()),
  );

  const css = documentOnce(() => PORTAL_CSS, 'text/css; charset=utf-8');
  const script = documentOnce(() => PORTAL_SCRIPT, 'text/javascript; charset=utf-8');
  const referenceScript = documentOnce(() => REFERENCE_SCRIPT, 'text/javascript; charset=utf-8');
  mount(
    router,
    s.catalog,
    'get',
    '/portal.css',
    {
      operationId: 'getPortalCss',
      summary: "The portal's stylesheet",
      tags: ['discovery'],
      responses: { '200': text('CSS.', 'text/css') },
    },
    (req, res) => css().send(req, res),
  );
  mount(
    router,
    s.catalog,
    'get',
    '/portal.js',
    {
      operationId: 'getPortalJs',
      summary: "The portal's script: endpoint filter, copy buttons, try-it, the key panel",
      tags: ['discovery'],
      responses: { '200': text('JavaScript.', 'text/javascript') },
    },
    (req, res) => script().send(req, res),
  );
  mount(
    router,
    s.catalog,
    'get',
    '/portal/reference.js',
    {
      operationId: 'getPortalReferenceJs',
      summary: 'Starts Swagger UI on the reference page',
      tags: ['discovery'],
      responses: { '200': text('JavaScript.', 'text/javascript') },
    },
    (req, res) => referenceScript().send(req, res),
  );

  const swagger = new Map<string, DiscoveryDocument>();
  mount(
    router,
    s.catalog,
    'get',
    '/portal/assets/swagger-ui/:file',
    {
      operationId: 'getPortalSwaggerUiAsset',
      summary: "Swagger UI's stylesheet and script (swagger-ui-dist from npm, served from this origin)",
      tags: ['discovery'],
      parameters: [idParam('file', 'swagger-ui.css')],
      responses: {
        '200': text('The file.', 'text/javascript'),
        '404': jsonResponseError('Not one of the files the reference page loads (code `not_found`).'),
      },
    },
    (req, res) => {
      const name = String(req.params.file);
      const type = Object.hasOwn(SWAGGER_FILES, name) ? SWAGGER_FILES[name] : undefined;
      if (!type)
        throw new HttpError(404, 'not_found', 'No such portal asset.', { hint: 'See /portal/reference.' });
      let doc = swagger.get(name);
      if (!doc) {
        doc = new DiscoveryDocument(readFileSync(path.join(swaggerDir(), name), 'utf8'), type);
        swagger.set(name, doc);
      }
      doc.send(req, res);
    },
  );

  mount(
    router,
    s.catalog,
    'get',
    '/portal/try/:endpointId',
    {
      operationId: 'portalTry',
      summary:
        "The portal's try-it form without JavaScript: drops empty fields and redirects to the preview path",
      tags: ['discovery'],
      parameters: [idParam('endpointId', example?.endpointId)],
      responses: {
        '303': { description: 'Redirect to the preview path with the filled-in parameters.' },
        '404': jsonResponseError('Unknown endpoint id (code `unknown_endpoint`).'),
      },
    },
    (req, res) => {
      const plugin = s.registry.sold().find((p) => p.endpointId === req.params.endpointId);
      if (!plugin)
        throw new HttpError(404, 'unknown_endpoint', 'No endpoint has that id.', { hint: 'See /portal.' });
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(req.query)) {
        for (const value of Array.isArray(v) ? v : [v])
          if (typeof value === 'string' && value !== '') params.append(k, value);
      }
      const qs = params.toString();
      res.redirect(303, describeEndpoint(plugin, s.config).paths.preview + (qs ? `?${qs}` : ''));
    },
  );
}

function jsonResponseError(description: string) {
  return { description, content: { 'application/json': { schema: ERROR_REF } } };
}

/**
 * The free preview's answer to an endpoint's first example, as a buyer gets it; undefined when it
 * cannot be had now (a live source down): the page then shows the payload schema's shape.
 */
async function exampleAnswer(
  s: DiscoveryRoutesDeps,
  id: string,
  req: Request,
): Promise<ExampleAnswer | undefined> {
  const plugin = s.registry.sold().find((p) => p.endpointId === id);
  const example = plugin?.manifest.examples[0];
  if (!plugin || !example) return undefined;
  const query = Object.fromEntries(Object.entries(example.query).map(([k, v]) => [k, String(v)]));
  const parsed = plugin.query.parse(query);
  if (!parsed.ok) return undefined;
  try {
    const payload = await s.executor.run(plugin, parsed.value, req);
    return {
      body: s.executor.envelope(plugin, payload, 'preview', req, previewGatewayExtras(s.config, plugin)),
      at: s.clock.now().toISOString(),
    };
  } catch {
    return undefined;
  }
}
