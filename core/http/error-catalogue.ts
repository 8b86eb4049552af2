/**
 * Every error code the kernel answers, with its statuses, a short title and what a caller does
 * about it. HttpError accepts only a code of this catalogue (or a plugin's declared code), so a
 * code cannot be answered without being documented: the portal's errors page and the problem
 * `type` URLs (`/portal/errors#<code>`) are generated from it.
 */

export interface ProblemType {
  /** RFC 9457 `title`: the same for every occurrence of the code. */
  title: string;
  /** The statuses the code is answered with. */
  statuses: readonly number[];
  /** Where it is answered (inline Markdown). */
  where: string;
  /** What the caller does about it (inline Markdown). */
  todo: string;
  /**
   * The spec fixes this body (its 402 challenge): it is sent as `application/json`, exactly as
   * specified, without problem-detail members.
   */
  specBody?: true;
}

const RETRY_SAME = 'Nothing was charged; retry later.';

export const ERROR_CATALOGUE = {
  invalid_query: {
    title: 'Invalid query parameter',
    statuses: [422],
    where: 'every data path, all surfaces, `/broker/call`',
    todo: 'Read `correction_hints`: each names the parameter, the problem, what is accepted and a valid example. Nothing was charged.',
  },
  invalid_body: {
    title: 'Invalid request body',
    statuses: [400],
    where: 'POST routes',
    todo: 'Send a JSON object; `correction_hints` name each field and show the JSON expected.',
  },
  invalid_json: {
    title: 'Body is not JSON',
    statuses: [400],
    where: 'POST routes',
    todo: 'Send valid JSON with `Content-Type: application/json`.',
  },
  unsupported_media_type: {
    title: 'Body is not JSON',
    statuses: [415],
    where: 'POST routes',
    todo: 'Send the body as `Content-Type: application/json` in UTF-8 (the `Accept-Post` header says so).',
  },
  body_too_large: {
    title: 'Body too large',
    statuses: [413],
    where: 'POST routes',
    todo: 'Send a JSON body under 16 kB.',
  },
  invalid_idempotency_key: {
    title: 'Invalid Idempotency-Key',
    statuses: [400],
    where: '`/broker/call`',
    todo: 'Use 1..255 printable ASCII characters: a fresh UUID per logical call, the same one for its retries.',
  },
  bad_request: {
    title: 'Bad request',
    statuses: [400],
    where: 'any path',
    todo: 'The request is not valid HTTP or its path is not valid percent-encoding; fix the request.',
  },
  uri_too_long: {
    title: 'Request target too long',
    statuses: [414],
    where: 'any path',
    todo: 'Send fewer or shorter query parameters (8 kB at most).',
  },
  headers_too_large: {
    title: 'Request headers too large',
    statuses: [431],
    where: 'any path',
    todo: 'Send headers under 16 kB.',
  },
  request_timeout: {
    title: 'Request too slow',
    statuses: [408],
    where: 'any path',
    todo: 'Send the whole request promptly (the limits are in the operations guide).',
  },
  not_found: {
    title: 'Not found',
    statuses: [404],
    where: 'any path',
    todo: 'Check the path; `/openapi.json` lists every operation.',
  },
  watch_not_found: {
    title: 'Watch not found',
    statuses: [404],
    where: '`DELETE /keys/watches/{id}`',
    todo: 'Use an id from `GET /keys/watches` with the same API key: a key sees only its own watches.',
  },
  invalid_webhook_url: {
    title: 'Webhook URL refused',
    statuses: [422],
    where: '`POST /keys/watches`',
    todo: 'Give an https URL whose host resolves only to public addresses (not loopback, private, link-local or metadata addresses); redirects are not followed, so give the final URL.',
  },
  invalid_watch_subjects: {
    title: 'Invalid subjects to watch',
    statuses: [422],
    where: '`POST /keys/watches`',
    todo: 'Send 1 to 1,000 valid identifiers in the list; `correction_hints` name each one refused and why.',
  },
  watch_limit_reached: {
    title: 'Too many watches',
    statuses: [409],
    where: '`POST /keys/watches`',
    todo: 'Remove a watch you no longer need (`DELETE /keys/watches/{id}`), or put more identifiers in one watch (up to 1,000).',
  },
  watch_backlog_full: {
    title: 'Too many events waiting',
    statuses: [409],
    where: '`POST /keys/watches`',
    todo: 'The key holds 1,000 events waiting for delivery and new ones are dropped (counted in `GET /keys/watches/events`): make the receiver answer 2xx or add credit, or remove watches; events not delivered within 72 hours fail.',
  },
  unknown_endpoint: {
    title: 'Unknown endpoint',
    statuses: [404],
    where: 'data paths, portal pages',
    todo: 'Check the path tail; the body suggests the closest sold endpoints.',
  },
  unknown_product: {
    title: 'Unknown product',
    statuses: [404],
    where: '`/products/{id}`',
    todo: 'Use a product id the body lists.',
  },
  unknown_product_id: {
    title: 'Unknown broker product_id',
    statuses: [404],
    where: '`/broker/call`, portal product pages',
    todo: 'Use an endpoint-level id `<product_id>-v1-<slug>`; the body lists the closest valid ones.',
  },
  method_not_allowed: {
    title: 'Method not allowed',
    statuses: [405],
    where: 'any path served with another method',
    todo: 'Use a method the `Allow` header lists.',
  },
  api_key_required: {
    title: 'API key required',
    statuses: [401],
    where: '`/broker/call`',
    todo: 'Send `X-API-Key` (the `WWW-Authenticate` header names it); create a key with `POST /keys/create`.',
  },
  api_key_invalid: {
    title: 'Invalid API key',
    statuses: [401],
    where: '`/broker/call`, `/mcp`',
    todo: 'Send a key `POST /keys/create` returned; `GET /keys/status` checks it.',
  },
  insufficient_credit: {
    title: 'Insufficient credit',
    statuses: [402],
    where: '`/broker/call`',
    todo: "The key's credit does not cover the call; the body's `buy_more` lists the ways to buy on this deployment.",
  },
  payment_required: {
    title: 'Payment required',
    statuses: [402],
    where: 'paid `/v1/...`',
    todo: 'The normal x402 handshake, not an outage: sign the requirement in the body and repeat the request with `X-PAYMENT`.',
    specBody: true,
  },
  payments_not_configured: {
    title: 'Payments not configured',
    statuses: [503],
    where: 'paid `/v1/...`, `/mcp` tool calls without a key',
    todo: 'x402 is not configured on this deployment; buy through another channel (the body names them).',
  },
  marketplace_proxy_secret_required: {
    title: 'Marketplace secret required',
    statuses: [401],
    where: 'marketplace paths',
    todo: 'Call through the marketplace listing: it adds the secret header.',
  },
  marketplace_proxy_secret_mismatch: {
    title: 'Marketplace secret mismatch',
    statuses: [403],
    where: 'marketplace paths',
    todo: 'Marketplace operators: check the secret configured for this API.',
  },
  marketplace_proxy_not_configured: {
    title: 'Marketplace channel not configured',
    statuses: [503],
    where: 'marketplace paths',
    todo: 'That channel is not set up on this deployment; use another way in (see `/product-status.json`).',
  },
  rate_limited: {
    title: 'Rate limit reached',
    statuses: [429],
    where: 'preview, key creation, feedback, broker, MCP, paid requests carrying a payment',
    todo: 'Wait `Retry-After` seconds; the `RateLimit` header shows what is left.',
  },
  rate_limit_unavailable: {
    title: 'Rate limit not countable',
    statuses: [503],
    where: 'paid and preview paths with `WORKERS`',
    todo: 'The process keeping the limits did not answer, so the request was not served; retry after `Retry-After`. Nothing was used or charged.',
  },
  too_many_concurrent_requests: {
    title: 'Too many requests in progress',
    statuses: [429],
    where: 'paid, broker and `/mcp` paths',
    todo: 'Wait for a response before sending more, or retry after `Retry-After`.',
  },
  trial_budget_exhausted: {
    title: "Today's trial credit is spent",
    statuses: [429],
    where: '`/keys/create`',
    todo: "Today's trial credit for new keys is spent: retry after `Retry-After` (00:00 UTC).",
  },
  idempotency_key_reused: {
    title: 'Idempotency-Key reused',
    statuses: [409],
    where: '`/broker/call`, `/mcp`',
    todo: 'Use a new Idempotency-Key for a different call; reuse one only to retry the same call.',
  },
  idempotency_in_progress: {
    title: 'Idempotent call in progress',
    statuses: [409],
    where: '`/broker/call`, `/mcp`',
    todo: 'Retry the same request after `Retry-After`.',
  },
  payment_in_progress: {
    title: 'Payment in use',
    statuses: [409],
    where: 'paid `/v1/...`, `/mcp`',
    todo: 'One payment buys one response: wait for the other request, or sign a new payment.',
  },
  payment_identifier_conflict: {
    title: 'Payment identifier conflict',
    statuses: [409],
    where: 'paid `/v1/...`, `/mcp`',
    todo: 'The payment identifier names another signed payment: use a new identifier for a new payment.',
  },
  payment_redemption_refused: {
    title: 'Redemption refused',
    statuses: [409],
    where: 'paid `/v1/...`, `/mcp`',
    todo: 'This request may not redeem that unknown settlement (`reason`): repeat the original request with its identifier or ticket, or with the payer\u2019s Sign-In-With-X proof of `extensions["sign-in-with-x"]`.',
  },
  facilitator_unavailable: {
    title: 'Payment facilitator unavailable',
    statuses: [502, 503],
    where: 'paid `/v1/...`, `/mcp`',
    todo: 'Your payment was not settled and nothing was charged; send the same request with the same payment again later.',
  },
  settlement_pending: {
    title: 'Settlement outcome unknown',
    statuses: [503],
    where: 'paid `/v1/...`, `/mcp`',
    todo: "Retry with the same payment (or the body's `redeem_with`): the answer comes once settlement is known, charged at most once. With `redeem_with` `operator_reconciliation` the authorization expired where the gateway cannot read the chain: the operator resolves it.",
  },
  client_closed_request: {
    title: 'Client closed the request',
    statuses: [499],
    where: 'paid and broker paths',
    todo: 'Nothing was charged; send the request again and wait for its answer.',
  },
  source_unavailable: {
    title: 'Source unavailable',
    statuses: [503],
    where: 'endpoints with live upstreams',
    todo: `The official source could not be reached and no snapshot covers the request. ${RETRY_SAME}`,
  },
  endpoint_not_ready: {
    title: 'Endpoint not ready',
    statuses: [503],
    where: 'data paths',
    todo: 'The endpoint has no data source yet; `/product-status.json` lists what is sold.',
  },
  store_unavailable: {
    title: 'Store unavailable',
    statuses: [503],
    where: 'any path that records a call',
    todo: 'Retry after `Retry-After`; with an Idempotency-Key the retry is charged at most once.',
  },
  key_credit_corrupt: {
    title: 'Key credit under repair',
    statuses: [503],
    where: '`/broker/call`, `/keys/status`, `/mcp`',
    todo: "The key's credit record failed its integrity check: quote the `instance` to the operator; the free preview answers meanwhile. Nothing was charged.",
  },
  shutting_down: {
    title: 'Gateway restarting',
    statuses: [503],
    where: 'any path',
    todo: 'Retry after `Retry-After`; nothing was charged.',
  },
  metrics_token_required: {
    title: 'Metrics token required',
    statuses: [401],
    where: '`/metrics`',
    todo: 'Operators: send `Authorization: Bearer <METRICS_TOKEN>`.',
  },
  metrics_not_public: {
    title: 'Metrics are not public',
    statuses: [403],
    where: '`/metrics`',
    todo: 'Operators: scrape from the machine itself, or set a metrics token.',
  },
  metrics_unavailable: {
    title: 'Metrics not gathered',
    statuses: [503],
    where: '`/metrics` with `WORKERS`',
    todo: 'Operators: scrape again; a worker that is starting or stuck does not answer for a few seconds.',
  },
  internal_error: {
    title: 'Internal error',
    statuses: [500],
    where: 'any path',
    todo: 'Retry later; quote the `instance` (the request id) if you report it. Nothing was charged.',
  },
} as const satisfies Record<string, ProblemType>;

/** A code of the kernel's catalogue. */
export type ErrorCode = keyof typeof ERROR_CATALOGUE;

declare const PLUGIN_CODE: unique symbol;
/** A code a plugin declares in its manifest's `errors` (documented with the plugin). */
export type PluginErrorCode = string & { readonly [PLUGIN_CODE]: true };

/** Marks a code thrown by a plugin's handler (EndpointError): the plugin documents it, not the kernel. */
export function pluginErrorCode(code: string): PluginErrorCode {
  return code as PluginErrorCode;
}

export function catalogued(code: string): ProblemType | undefined {
  return Object.hasOwn(ERROR_CATALOGUE, code)
    ? (ERROR_CATALOGUE as Record<string, ProblemType>)[code]
    : undefined;
}
