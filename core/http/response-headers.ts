/**
 * Response headers of the key-metered broker, named once: the broker sets them, CORS exposes them
 * to browser buyers, the broker manifest and openapi.json describe them.
 */

/** What this response charged the key, in USDC base units (0 on a refusal and on a replay). */
export const CHARGED_HEADER = 'X-Credit-Charged-Micro-USDC';
/** The key's balance after this response, in USDC base units. */
export const BALANCE_HEADER = 'X-Credit-Balance-Micro-USDC';
/** On an idempotent replay: what the original call charged (the replay itself charges nothing). */
export const ORIGINAL_CHARGE_HEADER = 'X-Credit-Original-Charge-Micro-USDC';
/** `true` on a response replayed for a repeated Idempotency-Key. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

export const CREDIT_RESPONSE_HEADERS = [
  CHARGED_HEADER,
  BALANCE_HEADER,
  ORIGINAL_CHARGE_HEADER,
  REPLAYED_HEADER,
];
