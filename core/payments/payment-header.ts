/**
 * Reading the buyer's payment from the request: `X-PAYMENT` (x402 v1 transport; carries v1 or v2
 * payloads) or `PAYMENT-SIGNATURE` (x402 v2), each base64 of a JSON payment payload. Anything that
 * does not decode into an exact/EVM EIP-3009 payload is a `malformed_payment` refusal, never a 500.
 * A payload's `extensions["payment-identifier"].info.id` (x402 payment-identifier extension) is
 * read with the extension package's own rules; an id that breaks them is refused, never ignored.
 */
import type { IncomingHttpHeaders } from 'node:http';
import {
  isValidPaymentId,
  PAYMENT_ID_MAX_LENGTH,
  PAYMENT_ID_MIN_LENGTH,
  PAYMENT_IDENTIFIER,
} from '@x402/extensions/payment-identifier';
import { PaymentRefusal } from './refusals';

export interface Eip3009Authorization {
  from: string;
  to: string;
  /** Decimal text, as on the wire. */
  value: string;
  validAfter: string;
  validBefore: string;
  nonce: string;
}

export interface PaymentAttempt {
  version: 1 | 2;
  /** Where the payment came from: an HTTP header, or an MCP request's `_meta` (an object, not base64). */
  header: 'X-PAYMENT' | 'PAYMENT-SIGNATURE' | typeof MCP_PAYMENT_META;
  scheme: string;
  network: string;
  /** v2: the requirement the client says it accepted. */
  accepted?: { scheme: string; network: string; amount?: unknown; asset?: unknown; payTo?: unknown };
  /** v2: the resource URL the client paid for, when given. */
  resourceUrl?: string;
  authorization: Eip3009Authorization;
  signature: string;
  /** The payload as decoded, forwarded to the facilitator unchanged. */
  payload: Record<string, unknown>;
  /** The x402 payment identifier the payload carries (a secret of the buyer's: never logged). */
  paymentId?: string;
}

/** The MCP `_meta` key of a payment (x402 MCP transport). */
export const MCP_PAYMENT_META = '_meta["x402/payment"]';

export type PaymentRead =
  | { kind: 'none' }
  | { kind: 'attempt'; attempt: PaymentAttempt }
  | { kind: 'refused'; refusal: PaymentRefusal };

const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;
const MAX_HEADER_CHARS = 16_384;
const HEX = /^0x[0-9a-fA-F]*$/;
const UINT_TEXT = /^[0-9]{1,78}$/;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function malformed(detail: string): PaymentRead {
  return { kind: 'refused', refusal: new PaymentRefusal('malformed_payment', detail) };
}

function headerText(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  if (v === undefined) return undefined;
  return Array.isArray(v) ? v.join(',') : v;
}

export function readPayment(headers: IncomingHttpHeaders): PaymentRead {
  const v1 = headerText(headers, 'x-payment')?.trim();
  const v2 = headerText(headers, 'payment-signature')?.trim();
  if (!v1 && !v2) return { kind: 'none' };
  if (v1 && v2 && v1 !== v2) {
    return { kind: 'refused', refusal: new PaymentRefusal('conflicting_payment_headers') };
  }
  const header = v2 ? 'PAYMENT-SIGNATURE' : 'X-PAYMENT';
  return decodePayment((v2 ?? v1)!, header);
}

export function decodePayment(text: string, header: PaymentAttempt['header']): PaymentRead {
  if (text.length > MAX_HEADER_CHARS)
    return malformed(`${header} is longer than ${MAX_HEADER_CHARS} characters.`);
  if (!BASE64.test(text)) return malformed(`${header} is not base64.`);
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(text, 'base64').toString('utf8'));
  } catch {
    return malformed(`${header} does not decode to JSON.`);
  }
  if (!isObject(decoded)) return malformed(`${header} does not decode to a JSON object.`);
  return paymentFromObject(decoded, header);
}

/** Reads a decoded payment payload (from a header, or the object an MCP client puts in `_meta`). */
export function paymentFromObject(decoded: unknown, header: PaymentAttempt['header']): PaymentRead {
  if (!isObject(decoded)) return malformed(`${header} is not a JSON object.`);
  const version = decoded.x402Version;
  if (version !== 1 && version !== 2) {
    return {
      kind: 'refused',
      refusal: new PaymentRefusal(
        'unsupported_x402_version',
        `x402Version ${JSON.stringify(version) ?? 'is missing'}; versions 1 and 2 are accepted.`,
      ),
    };
  }
  if (header === 'PAYMENT-SIGNATURE' && version !== 2) {
    return {
      kind: 'refused',
      refusal: new PaymentRefusal(
        'unsupported_x402_version',
        'PAYMENT-SIGNATURE carries x402 version 2 payloads; send a version 1 payload in X-PAYMENT.',
      ),
    };
  }

  let scheme: unknown;
  let network: unknown;
  let accepted: PaymentAttempt['accepted'];
  let resourceUrl: string | undefined;
  if (version === 1) {
    scheme = decoded.scheme;
    network = decoded.network;
  } else {
    if (!isObject(decoded.accepted)) return malformed('x402 v2 payload without an `accepted` requirement.');
    scheme = decoded.accepted.scheme;
    network = decoded.accepted.network;
    if (decoded.resource !== undefined) {
      if (!isObject(decoded.resource) || typeof decoded.resource.url !== 'string') {
        return malformed('`resource` must be an object with a `url`.');
      }
      resourceUrl = decoded.resource.url;
    }
  }
  if (typeof scheme !== 'string' || typeof network !== 'string') {
    return malformed('`scheme` and `network` must be strings.');
  }
  if (version === 2) accepted = { ...(decoded.accepted as Json), scheme, network };

  const inner = decoded.payload;
  if (!isObject(inner)) return malformed('`payload` must be an object.');
  if (inner.permit2Authorization !== undefined && inner.authorization === undefined) {
    return malformed('Only EIP-3009 transferWithAuthorization payments are accepted (no Permit2).');
  }
  const auth = inner.authorization;
  if (!isObject(auth)) return malformed('`payload.authorization` must be an object.');
  const fields: Partial<Eip3009Authorization> = {};
  for (const name of ['from', 'to', 'nonce'] as const) {
    const v = auth[name];
    if (typeof v !== 'string' || !HEX.test(v))
      return malformed(`authorization.${name} must be 0x-prefixed hex.`);
    fields[name] = v;
  }
  for (const name of ['value', 'validAfter', 'validBefore'] as const) {
    const v = auth[name];
    const text = typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? String(v) : v;
    if (typeof text !== 'string' || !UINT_TEXT.test(text)) {
      return malformed(`authorization.${name} must be an unsigned integer in decimal text.`);
    }
    fields[name] = text;
  }
  if (!/^0x[0-9a-fA-F]{40}$/.test(fields.from!) || !/^0x[0-9a-fA-F]{40}$/.test(fields.to!)) {
    return malformed('authorization.from and authorization.to must be 20-byte addresses.');
  }
  if (!/^0x[0-9a-fA-F]{64}$/.test(fields.nonce!))
    return malformed('authorization.nonce must be 32 bytes of hex.');
  const paymentId = paymentIdentifierOf(decoded);
  if (paymentId instanceof PaymentRefusal) return { kind: 'refused', refusal: paymentId };
  const signature = inner.signature;
  if (
    typeof signature !== 'string' ||
    !HEX.test(signature) ||
    signature.length < 132 ||
    signature.length % 2
  ) {
    return malformed('payload.signature must be hex of at least 65 bytes.');
  }
  return {
    kind: 'attempt',
    attempt: {
      version,
      header,
      scheme,
      network,
      ...(accepted ? { accepted } : {}),
      ...(resourceUrl !== undefined ? { resourceUrl } : {}),
      authorization: fields as Eip3009Authorization,
      signature,
      payload: decoded,
      ...(paymentId !== undefined ? { paymentId } : {}),
    },
  };
}

/**
 * The payment identifier of a payload, if it carries one. Checked with the package's
 * isValidPaymentId rather than its validatePaymentIdentifier, which compiles the JSON Schema the
 * payload itself carries: a buyer's schema (with any regular expression) is never run here.
 */
function paymentIdentifierOf(decoded: Json): string | undefined | PaymentRefusal {
  const extensions = decoded.extensions;
  if (extensions === undefined || extensions === null) return undefined;
  const extension = isObject(extensions) ? extensions[PAYMENT_IDENTIFIER] : undefined;
  if (extension === undefined || extension === null) return undefined;
  const where = `extensions["${PAYMENT_IDENTIFIER}"]`;
  if (!isObject(extension) || !isObject(extension.info)) {
    return new PaymentRefusal(
      'invalid_payment_identifier',
      `${where} must be an object with an \`info\` object.`,
    );
  }
  const id = extension.info.id;
  // The extension as the server declares it (no id yet): the buyer did not choose one.
  if (id === undefined) return undefined;
  if (typeof id === 'string' && isValidPaymentId(id)) return id;
  return new PaymentRefusal(
    'invalid_payment_identifier',
    `${where}.info.id must be ${PAYMENT_ID_MIN_LENGTH} to ${PAYMENT_ID_MAX_LENGTH} characters of A-Z, a-z, 0-9, "_" and "-".`,
  );
}
