/**
 * The `extensions` of every x402 PaymentRequired the gateway gives, declared with the reference
 * package @x402/extensions (docs/decisions.md, "x402 discovery on every 402"):
 *
 * - `bazaar`: how to call the resource and what it answers, so that a cataloguing facilitator can
 *   list it. HTTP: `GET` with the query DTO's JSON Schema (the one openapi.json publishes) and the
 *   first example's query; MCP: the tool's name, input schema (the one tools/list gives) and
 *   example arguments, over Streamable HTTP. The output example is the endpoint's real answer to
 *   its first example, computed at boot.
 * - `payment-identifier`: declared optional: a client may name its payment for safe retries.
 *
 * Clients echo `extensions` into their payment (the stock client copies it into PAYMENT-SIGNATURE,
 * and requests carry at most 16 KB of headers), so a declaration is held to a budget: an answer
 * too large for it is abridged (arrays cut to their first item, then `_provenance` and its largest
 * members left out), and the declaration says so.
 */
import { bazaarResourceServerExtension, declareDiscoveryExtension } from '@x402/extensions/bazaar';
import { declarePaymentIdentifierExtension, PAYMENT_IDENTIFIER } from '@x402/extensions/payment-identifier';
import type { EndpointPayload, PluginExample } from '../plugins/contract';
import type { RegisteredPlugin } from '../plugins/registry';

export const BAZAAR = 'bazaar';
export { PAYMENT_IDENTIFIER };

/** Bytes of JSON a `bazaar` declaration may take (clients send it back in a request header). */
export const BAZAAR_BUDGET_BYTES = 7 * 1024;

/** The answer with every array cut to its first item. */
function firstItems(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, 1).map(firstItems);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, firstItems(v)]));
  }
  return value;
}

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
const PROVENANCE: keyof EndpointPayload = '_provenance';

/**
 * The answer, then shorter and shorter forms of it: arrays cut to their first item, then its
 * members left out one by one. Every value shown stays as the endpoint answered it.
 */
function* shortenings(answer: EndpointPayload): Generator<{ example: object; abridged: string }> {
  yield { example: answer, abridged: '' };
  const cut = firstItems(answer) as Record<string, unknown>;
  yield { example: cut, abridged: 'arrays cut to their first item' };
  // Provenance first (every answer has it, and openapi.json describes it), then the largest.
  const largestFirst = Object.keys(cut).sort(
    (a, b) => Number(b === PROVENANCE) - Number(a === PROVENANCE) || bytesOf(cut[b]) - bytesOf(cut[a]),
  );
  const left = { ...cut };
  for (const [i, key] of largestFirst.entries()) {
    delete left[key];
    const out = largestFirst.slice(0, i + 1).join(', ');
    yield { example: { ...left }, abridged: `arrays cut to their first item; left out: ${out}` };
  }
}

/** The `output` of a declaration: a real answer, said to be one, and how it was abridged. */
function outputOf(
  plugin: RegisteredPlugin,
  query: PluginExample['query'],
  example: object,
  abridged: string,
) {
  return {
    example,
    schema: {
      description:
        `The payload ${plugin.endpointId} answered to ${JSON.stringify(query)} when the gateway started ` +
        '(every answer also carries _notice and _gateway; openapi.json has the whole schema).' +
        (abridged ? ` Abridged to fit the payment request: ${abridged}.` : ''),
    },
  };
}

/**
 * The declaration with the whole answer if it fits the budget, else with the least shortened form
 * that does, else without an output example.
 */
function withinBudget(
  declare: (output?: ReturnType<typeof outputOf>) => Record<string, unknown>,
  plugin: RegisteredPlugin,
  answer: EndpointPayload | undefined,
): Record<string, unknown> {
  const query = plugin.manifest.examples[0]?.query;
  if (answer && query) {
    for (const { example, abridged } of shortenings(answer)) {
      const declared = declare(outputOf(plugin, query, example, abridged));
      if (bytesOf(declared) <= BAZAAR_BUDGET_BYTES) return declared;
    }
  }
  return declare();
}

/** The `bazaar` declaration of the paid HTTP path `path` (GET with query parameters). */
export function httpBazaar(
  plugin: RegisteredPlugin,
  path: string,
  answer?: EndpointPayload,
): Record<string, unknown> {
  const inputSchema = plugin.query.objectSchema();
  const input = plugin.manifest.examples[0]?.query ?? {};
  // The package adds the method (and a route template, for routes with parameters) from the
  // HTTP request context its resource-server extension is given.
  const context = { method: 'GET', path, routePattern: path, adapter: { getPath: () => path } };
  return withinBudget(
    (output) =>
      bazaarResourceServerExtension.enrichDeclaration!(
        declareDiscoveryExtension({ input, inputSchema, ...(output ? { output } : {}) })[BAZAAR],
        context,
      ) as Record<string, unknown>,
    plugin,
    answer,
  );
}

/** The `bazaar` declaration of the plugin's MCP tool. */
export function mcpBazaar(plugin: RegisteredPlugin, answer?: EndpointPayload): Record<string, unknown> {
  const example = plugin.manifest.examples[0]?.query;
  return withinBudget(
    (output) =>
      declareDiscoveryExtension({
        toolName: plugin.endpointId,
        description: plugin.manifest.summary,
        transport: 'streamable-http',
        inputSchema: plugin.query.objectSchema(),
        ...(example ? { example } : {}),
        ...(output ? { output } : {}),
      })[BAZAAR] as unknown as Record<string, unknown>,
    plugin,
    answer,
  );
}

/** The `payment-identifier` declaration: optional (a payment without an id is accepted). */
export function paymentIdentifierDeclaration(): Record<string, unknown> {
  // A copy: the package shares its schema object between declarations.
  return structuredClone(declarePaymentIdentifierExtension(false)) as unknown as Record<string, unknown>;
}
