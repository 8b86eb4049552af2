/**
 * The gateway's own checks of a decoded payment against the endpoint's requirement, before the
 * facilitator is asked: scheme, network, asset, recipient, exact amount, validity window (an
 * expired authorization is flagged, not refused: the ledger may hold it, issue 34) and (for
 * ordinary 65-byte EOA signatures) the EIP-712 signature. Other signatures are refused unless they
 * have the shape of a smart-wallet signature, which only the chain can check (the facilitator's
 * /verify, asked before the ledger records anything): ERC-6492-wrapped, ABI-encoded (ERC-1271
 * wallets such as Coinbase Smart Wallet wrap theirs in ABI words), or several 65-byte ECDSA
 * signatures concatenated (multi-owner wallets such as Safe). A 66-byte junk signature is none of
 * these (issue 15).
 */
import type { TransferSignatureVerifier } from './eip3009-signature';
import { chainIdOfAnyNetwork } from './networks';
import type { PaymentAttempt } from './payment-header';
import { PaymentRefusal } from './refusals';
import type { PaymentTerms } from './requirements';

/** A payer's clock may run this far ahead of ours (validAfter). */
export const CLOCK_SKEW_SECONDS = 5;
/**
 * An authorization must stay valid this long to be settled; the x402 reference facilitator
 * refuses one that expires within 6 seconds.
 */
export const SETTLEMENT_MARGIN_SECONDS = 6;

/**
 * The ledger must remember a nonce until its authorization expires; authorizations valid for longer
 * than this are refused (x402 clients sign for maxTimeoutSeconds, minutes).
 */
export const MAX_AUTHORIZATION_SECONDS = 366 * 86_400;

export interface CheckedPayment {
  /** Lower-case address. */
  payer: string;
  /** Lower-case bytes32 hex. */
  nonce: string;
  amount: bigint;
  validBefore: bigint;
  signature: 'eoa_checked' | 'smart_wallet_deferred';
  /**
   * validBefore has passed or is less than SETTLEMENT_MARGIN_SECONDS away: the payment can no
   * longer be settled. Everything else was checked; the checkout refuses it (`expiredRefusal`)
   * unless the ledger already holds it as settled or awaiting its settlement (issue 34).
   */
  expired: boolean;
}

export interface CheckContext {
  terms: PaymentTerms;
  priceMicroUsdc: number;
  /** Path of the requested resource, e.g. /v1/<tail>, or its URL (mcp://tool/<name>). */
  resourcePath: string;
  nowSeconds: number;
  verifier: TransferSignatureVerifier;
}

/** ERC-6492's magic suffix: 32 bytes of 0x6492 repeated. */
const ERC6492_SUFFIX = '6492'.repeat(16);
const ABI_WORD_HEX = 64;
const ECDSA_HEX = 130;

/** Whether a signature other than 65 bytes has a shape a smart wallet could produce. */
export function smartWalletShaped(signature: string): boolean {
  const hex = signature.slice(2).toLowerCase();
  if (hex.length <= ECDSA_HEX) return false;
  if (hex.endsWith(ERC6492_SUFFIX)) {
    const body = hex.length - ERC6492_SUFFIX.length;
    return body >= 3 * ABI_WORD_HEX && body % ABI_WORD_HEX === 0;
  }
  return hex.length % ABI_WORD_HEX === 0 || hex.length % ECDSA_HEX === 0;
}

const same = (a: unknown, b: string) => typeof a === 'string' && a.toLowerCase() === b.toLowerCase();

function pathOf(url: string): string | undefined {
  try {
    return new URL(url, 'http://resource.invalid').pathname;
  } catch {
    return undefined;
  }
}

/**
 * Whether the resource a payment names is the one requested: the same path for an HTTP resource
 * (a path such as /v1/<tail>), the same URL for a resource that is itself a URL (an MCP
 * tool, mcp://tool/<name>).
 */
function sameResource(named: string, requested: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(requested) ? named === requested : pathOf(named) === requested;
}

export function checkPayment(attempt: PaymentAttempt, ctx: CheckContext): CheckedPayment | PaymentRefusal {
  const { terms } = ctx;
  const auth = attempt.authorization;
  const price = BigInt(ctx.priceMicroUsdc);

  if (attempt.scheme !== terms.scheme) {
    return new PaymentRefusal(
      'unsupported_scheme',
      `Scheme "${attempt.scheme.slice(0, 40)}" is not accepted; use "exact".`,
    );
  }
  if (chainIdOfAnyNetwork(attempt.network) !== terms.chainId) {
    return new PaymentRefusal(
      'network_mismatch',
      `The payment is for network "${attempt.network.slice(0, 40)}"; this endpoint is paid on ${terms.network}.`,
    );
  }
  const accepted = attempt.accepted;
  if (accepted && accepted.asset !== undefined && !same(accepted.asset, terms.asset)) {
    return new PaymentRefusal('asset_mismatch', `The payment is in another token; pay in ${terms.asset}.`);
  }
  if (
    !same(auth.to, terms.payTo) ||
    (accepted && accepted.payTo !== undefined && !same(accepted.payTo, terms.payTo))
  ) {
    return new PaymentRefusal('recipient_mismatch', `The authorization must pay ${terms.payTo}.`);
  }
  const value = BigInt(auth.value);
  const acceptedAmount = accepted?.amount;
  if (value !== price || (acceptedAmount !== undefined && String(acceptedAmount) !== String(price))) {
    return new PaymentRefusal(
      'amount_mismatch',
      `The authorized value is ${value} micro-USDC; this endpoint costs exactly ${price}.`,
      { required_micro_usdc: String(price), authorized_micro_usdc: String(value) },
    );
  }
  if (attempt.resourceUrl !== undefined && !sameResource(attempt.resourceUrl, ctx.resourcePath)) {
    return new PaymentRefusal(
      'resource_mismatch',
      `The payment names ${attempt.resourceUrl.slice(0, 200)}; this request is for ${ctx.resourcePath}.`,
    );
  }
  const now = BigInt(ctx.nowSeconds);
  const validAfter = BigInt(auth.validAfter);
  const validBefore = BigInt(auth.validBefore);
  if (validAfter > now + BigInt(CLOCK_SKEW_SECONDS)) {
    return new PaymentRefusal(
      'authorization_not_yet_valid',
      `validAfter ${validAfter} is in the future (now ${now}).`,
    );
  }
  if (validBefore > now + BigInt(MAX_AUTHORIZATION_SECONDS)) {
    return new PaymentRefusal(
      'authorization_too_long',
      `validBefore ${validBefore} is more than a year away.`,
    );
  }

  let signature: CheckedPayment['signature'] = 'smart_wallet_deferred';
  if (attempt.signature.length !== 132 && !smartWalletShaped(attempt.signature)) {
    return new PaymentRefusal(
      'invalid_signature',
      'The signature is neither a 65-byte ECDSA signature nor shaped like a smart-wallet signature (ERC-6492 wrapped, ABI-encoded, or concatenated 65-byte signatures).',
    );
  }
  if (attempt.signature.length === 132) {
    let signer: string | null;
    try {
      signer = ctx.verifier.signerOf(auth, attempt.signature);
    } catch {
      signer = null;
    }
    if (signer === null || signer !== auth.from.toLowerCase()) {
      return new PaymentRefusal('invalid_signature');
    }
    signature = 'eoa_checked';
  }
  return {
    payer: auth.from.toLowerCase(),
    nonce: auth.nonce.toLowerCase(),
    amount: value,
    validBefore,
    signature,
    expired: validBefore < now + BigInt(SETTLEMENT_MARGIN_SECONDS),
  };
}

/**
 * The refusal of an expired authorization the ledger does not hold as settled or unknown.
 * `released`: the gateway had it and settled nothing (the detail says so).
 */
export function expiredRefusal(validBefore: bigint, nowSeconds: number, released = false): PaymentRefusal {
  const when = `validBefore ${validBefore} has passed or is less than ${SETTLEMENT_MARGIN_SECONDS} s away (now ${nowSeconds})`;
  return new PaymentRefusal(
    'authorization_expired',
    released
      ? `${when}. This gateway never settled this payment: nothing was charged, and the authorization can no longer move money. Sign a new payment.`
      : `${when}; sign a fresh authorization.`,
  );
}
