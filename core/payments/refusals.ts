/**
 * Why a payment was not accepted. Each refusal is answered with a fresh 402 challenge carrying
 * the code (body `payment_error.code`, and `error` in the PAYMENT-REQUIRED header), so a client
 * can tell "pay" from "your payment was wrong, and how".
 */
export const REFUSAL_CODES = {
  malformed_payment: 'The payment header is not base64 JSON of an x402 exact/EVM payment payload.',
  invalid_payment_identifier:
    'The payment identifier (extensions["payment-identifier"].info.id) is not 16 to 128 characters of A-Z, a-z, 0-9, "_" and "-".',
  unsupported_x402_version:
    'Only x402 versions 1 (X-PAYMENT) and 2 (PAYMENT-SIGNATURE or X-PAYMENT) are accepted.',
  conflicting_payment_headers: 'X-PAYMENT and PAYMENT-SIGNATURE carry different payments; send one.',
  unsupported_scheme: 'Only the "exact" scheme is accepted.',
  network_mismatch: 'The payment is for another network than the one in the requirements.',
  asset_mismatch: 'The payment is for another token contract than the one in the requirements.',
  recipient_mismatch: 'The authorization pays another address than payTo.',
  amount_mismatch: 'The authorized value is not exactly the price of this endpoint.',
  resource_mismatch: 'The payment names another resource than the one requested.',
  authorization_not_yet_valid: 'The authorization is not valid yet (validAfter is in the future).',
  authorization_expired: 'The authorization has expired or expires too soon to be settled (validBefore).',
  authorization_too_long: 'The authorization stays valid for more than a year; sign one that expires sooner.',
  invalid_signature: 'The signature does not recover the authorization\u2019s `from` address.',
  payment_already_used: 'This payment (its EIP-3009 nonce) has already bought a response.',
  facilitator_rejected: 'The payment facilitator refused the payment.',
  settlement_failed: 'The payment could not be settled; nothing was charged and no data was served.',
} as const;

export type RefusalCode = keyof typeof REFUSAL_CODES;

export class PaymentRefusal {
  constructor(
    readonly code: RefusalCode,
    readonly detail: string = REFUSAL_CODES[code],
    /** Extra facts for the buyer (e.g. the facilitator's own reason code). */
    readonly extra: Record<string, unknown> = {},
    /**
     * False for a payment that moved money (a settled payment used again): its answer must not
     * say "nothing was charged" nor ask for a fresh signature to get the data (issue 34).
     */
    readonly nothingCharged: boolean = true,
  ) {}
}
