/**
 * What the gateway's x402 payment requests offer, per sold endpoint and transport (the paid HTTP
 * path and the MCP tool), built once at boot: the `resource` (URL, description, MIME type and the
 * seller metadata catalogues show), the `extensions` (bazaar discovery, payment-identifier) and
 * the PaymentRequired of an unpaid request with its encoded PAYMENT-REQUIRED header, so that a 402
 * costs no serialisation. The bazaar output example is the endpoint's answer to its first example,
 * run through the executor as the preview would run it; an answer that is not ready within
 * EXAMPLE_ANSWER_WAIT_MS does not hold up the start: the offers go out without an example and take
 * it when it comes.
 */
import type { ResourceInfo } from '@x402/core/types';
import type { Logger } from 'pino';
import { PAID_PATH_PREFIX } from '../http/paths';
import { sellerMetadata } from './seller-metadata';
import type { EndpointPayload } from '../plugins/contract';
import type { PluginRegistry, RegisteredPlugin } from '../plugins/registry';
import {
  httpBazaar,
  mcpBazaar,
  BAZAAR,
  PAYMENT_IDENTIFIER,
  paymentIdentifierDeclaration,
} from './discovery-extensions';
import { encodeHeaderJson, PAID_MIME_TYPE, paymentRequiredV2, type PaymentTerms } from './requirements';

/** How long the start waits for the example answers (they come later when slower). */
export const EXAMPLE_ANSWER_WAIT_MS = 3_000;
/** x402 catalogues cut or refuse a longer `resource.description`. */
export const MAX_RESOURCE_DESCRIPTION = 500;
const TIMED_OUT = Symbol('timed out');

export interface PaymentOffer {
  /** `resource` of the PaymentRequired. */
  readonly resource: Readonly<ResourceInfo>;
  /** `extensions` of the PaymentRequired. */
  readonly extensions: Readonly<Record<string, unknown>>;
  /** The PaymentRequired of an unpaid request, and its PAYMENT-REQUIRED header. */
  readonly unpaid: { readonly required: Readonly<Record<string, unknown>>; readonly header: string };
}

/** The x402 resource of an MCP tool (x402 MCP transport: the URL names the tool). */
export function toolResourceUrl(plugin: RegisteredPlugin): string {
  return `mcp://tool/${plugin.endpointId}`;
}

/**
 * `resource.description`: the summary, then as much of the description as fits in
 * MAX_RESOURCE_DESCRIPTION characters, cut after a whole sentence (or word).
 */
export function resourceDescription(plugin: RegisteredPlugin): string {
  const { summary, description } = plugin.manifest;
  const stop = /[.!?]$/.test(summary) ? '' : '.';
  const whole = description && description !== summary ? `${summary}${stop} ${description}` : summary;
  if (whole.length <= MAX_RESOURCE_DESCRIPTION) return whole;
  const head = whole.slice(0, MAX_RESOURCE_DESCRIPTION);
  const sentence = head.lastIndexOf('. ');
  if (sentence > summary.length) return head.slice(0, sentence + 1);
  return `${head.slice(0, head.lastIndexOf(' ', MAX_RESOURCE_DESCRIPTION - 1))}…`;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

interface EndpointOffers {
  http: PaymentOffer;
  mcp: PaymentOffer;
}

/** What building the offers uses. */
export interface OffersDeps {
  readonly baseUrl: string;
  /** The listing's service name (the seller metadata of every resource). */
  readonly serviceName: string;
  readonly registry: PluginRegistry;
  readonly logger: Logger;
  /** Answers a query of an endpoint as its paid path would (read the query, then run), under `id`. */
  answer(plugin: RegisteredPlugin, query: Record<string, string>, id: string): Promise<EndpointPayload>;
}

export class PaymentOffers {
  private readonly byPlugin = new Map<RegisteredPlugin, EndpointOffers>();

  constructor(
    private readonly s: OffersDeps,
    private readonly terms: PaymentTerms,
  ) {}

  /** The offer of the paid HTTP path of a sold endpoint. */
  http(plugin: RegisteredPlugin): PaymentOffer {
    return this.of(plugin).http;
  }

  /** The offer of the MCP tool of a sold endpoint. */
  mcp(plugin: RegisteredPlugin): PaymentOffer {
    return this.of(plugin).mcp;
  }

  private of(plugin: RegisteredPlugin): EndpointOffers {
    const offers = this.byPlugin.get(plugin);
    if (!offers) throw new Error(`no payment offer for ${plugin.endpointId}`);
    return offers;
  }

  /** Builds (or rebuilds, when its example answer came) the offers of one endpoint. */
  set(plugin: RegisteredPlugin, answer: EndpointPayload | undefined): void {
    const { s, terms } = this;
    const seller = sellerMetadata(s.serviceName, plugin.product, s.baseUrl);
    const description = resourceDescription(plugin);
    const path = `${PAID_PATH_PREFIX}/${plugin.tail}`;
    const offer = (url: string, bazaar: Record<string, unknown>): PaymentOffer => {
      const resource: ResourceInfo = { url, description, mimeType: PAID_MIME_TYPE, ...seller };
      const extensions = { [BAZAAR]: bazaar, [PAYMENT_IDENTIFIER]: paymentIdentifierDeclaration() };
      const parts = structuredClone({ resource, extensions });
      const required = paymentRequiredV2(terms, plugin, parts, 'payment_required');
      return deepFreeze({ ...parts, unpaid: { required, header: encodeHeaderJson(required) } });
    };
    this.byPlugin.set(plugin, {
      http: offer(`${s.baseUrl}${path}`, httpBazaar(plugin, path, answer)),
      mcp: offer(toolResourceUrl(plugin), mcpBazaar(plugin, answer)),
    });
  }
}

/** The offers of every sold endpoint, with the example answers that came within the wait. */
export async function buildPaymentOffers(s: OffersDeps, terms: PaymentTerms): Promise<PaymentOffers> {
  const offers = new PaymentOffers(s, terms);
  const log = s.logger.child({ component: 'x402-offers' });
  await Promise.all(
    s.registry.sold().map(async (plugin) => {
      const answer = exampleAnswer(s, plugin, log);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
        timer = setTimeout(() => resolve(TIMED_OUT), EXAMPLE_ANSWER_WAIT_MS);
      });
      const first = await Promise.race([answer, timeout]);
      clearTimeout(timer);
      offers.set(plugin, first === TIMED_OUT ? undefined : first);
      if (first === TIMED_OUT) {
        log.warn(
          { endpoint_id: plugin.endpointId, wait_ms: EXAMPLE_ANSWER_WAIT_MS },
          'x402 discovery: the example answer is late; the payment requests carry it once it comes',
        );
        void answer.then((came) => came && offers.set(plugin, came));
      }
    }),
  );
  return offers;
}

/** The endpoint's answer to its first example, or undefined (logged) when it has none now. */
async function exampleAnswer(
  s: OffersDeps,
  plugin: RegisteredPlugin,
  log: Logger,
): Promise<EndpointPayload | undefined> {
  const example = plugin.manifest.examples[0];
  if (!example) return undefined;
  const query = Object.fromEntries(Object.entries(example.query).map(([k, v]) => [k, String(v)]));
  try {
    return await s.answer(plugin, query, `x402-example:${plugin.endpointId}`);
  } catch (err) {
    log.warn(
      {
        endpoint_id: plugin.endpointId,
        err: { code: (err as { code?: unknown }).code, message: String((err as Error)?.message ?? err) },
      },
      'x402 discovery: no example answer; the payment requests describe the output without one',
    );
    return undefined;
  }
}
