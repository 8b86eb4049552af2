/**
 * The `_meta` keys the MCP surface reads and writes. The x402 ones are the x402 MCP transport's;
 * the others mirror the HTTP headers of the same meaning (Idempotency-Key,
 * Payment-Redemption-Ticket, SIGN-IN-WITH-X, Idempotent-Replayed), lower-case and unprefixed.
 */

/** `params._meta`: the client's x402 PaymentPayload (an object, not base64). */
export const PAYMENT_META_KEY = 'x402/payment';
/** `result._meta`: the x402 SettlementResponse of a paid call. */
export const PAYMENT_RESPONSE_META_KEY = 'x402/payment-response';
/** `params._meta`: the redemption ticket of a settlement whose outcome was unknown. */
export const REDEMPTION_TICKET_META_KEY = 'payment-redemption-ticket';
/**
 * `params._meta`: the payer's Sign-In-With-X proof (the SIWX payload object), which redeems an
 * unknown settlement; named as the x402 extension and its HTTP header are.
 */
export const PAYER_PROOF_META_KEY = 'sign-in-with-x';
/** `params._meta`: an idempotency key for a call paid from key credit. */
export const IDEMPOTENCY_META_KEY = 'idempotency-key';
/** `result._meta`: set on a result replayed for an idempotency key. */
export const REPLAYED_META_KEY = 'idempotent-replayed';
