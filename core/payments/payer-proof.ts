/**
 * The payer's proof (issue 34): a Sign-In-With-X message (x402's `sign-in-with-x` extension,
 * CAIP-122 / EIP-4361) signed by the authorization's `from`, which redeems an unknown settlement
 * that has neither redemption ticket nor payment identifier (its gateway stopped mid-settle), and
 * also one whose ticket was lost. The authorization and its signature are public once broadcast,
 * so only the payer's key tells the buyer from a stranger who copied them from the chain.
 *
 * The extension package parses the proof and checks its signature (the SIWE message it formats,
 * EIP-191; with a chain reader, smart wallets too). The gateway checks the rest itself: the
 * domain and URI of its own origin (BASE_URL), the resource, the network, the payer, the time
 * window on its own clock (the package's validator reads the system clock), and a nonce derived
 * from the ledger entry and its count of takes, so that a proof redeems one take of one payment.
 */
import {
  buildSIWxSchema,
  parseSIWxHeader,
  SIGN_IN_WITH_X,
  SIWxPayloadSchema,
  verifySIWxSignature,
  type SIWxExtension,
  type SIWxPayload,
} from '@x402/extensions/sign-in-with-x';
import type { Hex } from 'viem';
import { sha256Hex } from '../util/canonical-json';
import { CLOCK_SKEW_SECONDS } from './check-payment';
import type { PaymentEntry } from './payment-ledger-repository';
import type { ChainReader } from './settlement-audit';

/** The request header carrying a proof (base64 JSON of the SIWX payload), as the extension names it. */
export const PAYER_PROOF_HEADER = 'SIGN-IN-WITH-X';
export { SIGN_IN_WITH_X };

/** How long a proof is accepted after its issuedAt (the extension's default maximum age). */
const MAX_AGE_SECONDS = 300;

/** What a proof must be about. */
export interface ProofTarget {
  /** The gateway's public origin (BASE_URL): domain and URI of the message. */
  origin: URL;
  /** The URI the message names: the paid path's URL, or the MCP endpoint's. */
  uri: string;
  /** The resource the payment bought (the paid path's URL, or mcp://tool/<name>): in `resources`. */
  resource: string;
  /** CAIP-2 network of the payments. */
  network: string;
  /** The ledger entry awaiting redemption. */
  entry: Pick<PaymentEntry, 'id' | 'payer' | 'attempts'>;
}

export type ProofVerdict = { ok: true } | { ok: false; reason: string; message: string };

/**
 * The nonce a proof must carry: bound to the entry and its count of takes, so it changes once the
 * entry is taken (a proof is single-use) and needs no store of its own.
 */
export function proofNonce(entry: Pick<PaymentEntry, 'id' | 'attempts'>): string {
  return sha256Hex(`${SIGN_IN_WITH_X}\n${entry.id}\n${entry.attempts}`).slice(0, 32);
}

/** The extension as a refusal declares it: what to sign, valid for MAX_AGE_SECONDS. */
export function payerProofChallenge(t: ProofTarget, now: Date): SIWxExtension {
  return {
    info: {
      domain: t.origin.host,
      uri: t.uri,
      statement: `Redeem my x402 payment for ${t.resource}`,
      version: '1',
      nonce: proofNonce(t.entry),
      issuedAt: now.toISOString(),
      expirationTime: new Date(now.getTime() + MAX_AGE_SECONDS * 1000).toISOString(),
      resources: [t.resource],
    },
    supportedChains: [{ chainId: t.network, type: 'eip191' }],
    schema: buildSIWxSchema(),
  };
}

const refuse = (reason: string, message: string): ProofVerdict => ({ ok: false, reason, message });

/** Reads a proof: the header's base64 JSON, or (MCP `_meta`) the payload object itself. */
function readProof(raw: unknown): SIWxPayload | string {
  if (typeof raw === 'string') {
    try {
      return parseSIWxHeader(raw);
    } catch (err) {
      return (err as Error).message.slice(0, 200);
    }
  }
  const parsed = SIWxPayloadSchema.safeParse(raw);
  return parsed.success ? parsed.data : 'not a Sign-In-With-X payload';
}

function timeProblem(p: SIWxPayload, now: number): ProofVerdict | undefined {
  const at = (iso: string | undefined) => (iso === undefined ? undefined : Date.parse(iso));
  const issuedAt = at(p.issuedAt)!;
  const skew = CLOCK_SKEW_SECONDS * 1000;
  if (Number.isNaN(issuedAt)) return refuse('invalid_siwx_issued_at', 'issuedAt is not a date');
  if (issuedAt > now + skew) return refuse('invalid_siwx_issued_at_in_future', 'issuedAt is in the future');
  if (now - issuedAt > MAX_AGE_SECONDS * 1000) {
    return refuse('invalid_siwx_issued_at_too_old', `issuedAt is more than ${MAX_AGE_SECONDS} s old`);
  }
  const expires = at(p.expirationTime);
  if (expires !== undefined && !(expires > now))
    return refuse('invalid_siwx_expired', 'the message has expired');
  const notBefore = at(p.notBefore);
  if (notBefore !== undefined && !(notBefore <= now + skew)) {
    return refuse('invalid_siwx_not_yet_valid', 'notBefore is in the future');
  }
  return undefined;
}

/**
 * Whether `raw` proves that the requester holds the key of `t.entry`'s payer, for this gateway,
 * this resource and the entry as it is now. Smart-wallet signatures need `chain` (ERC-1271,
 * ERC-6492); without it only EOA signatures verify.
 */
export async function checkPayerProof(
  raw: unknown,
  t: ProofTarget,
  now: Date,
  chain?: ChainReader,
): Promise<ProofVerdict> {
  const p = readProof(raw);
  if (typeof p === 'string') return refuse('invalid_siwx_payload', p);
  if (p.domain !== t.origin.host) {
    return refuse('invalid_siwx_domain_mismatch', `domain must be ${t.origin.host}`);
  }
  let uri: URL;
  try {
    uri = new URL(p.uri);
  } catch {
    return refuse('invalid_siwx_uri_mismatch', 'uri is not a URL');
  }
  if (uri.origin !== t.origin.origin) {
    return refuse('invalid_siwx_uri_mismatch', `uri must be on ${t.origin.origin}`);
  }
  if (!p.resources?.includes(t.resource)) {
    return refuse('invalid_siwx_resource_mismatch', `resources must name ${t.resource}`);
  }
  if (p.version !== '1') return refuse('invalid_siwx_version', 'version must be "1"');
  if (p.chainId !== t.network || p.type !== 'eip191') {
    return refuse('invalid_siwx_chain_id', `chainId must be ${t.network}, type eip191`);
  }
  if (p.address.toLowerCase() !== t.entry.payer.toLowerCase()) {
    return refuse('invalid_siwx_address', 'address must be the payer (the authorization\u2019s from)');
  }
  if (p.nonce !== proofNonce(t.entry)) {
    return refuse('invalid_siwx_nonce', 'nonce must be the one of the latest challenge for this payment');
  }
  const late = timeProblem(p, now.getTime());
  if (late) return late;
  // Offline first: an EOA's signature needs no node, and junk never costs a chain read.
  let verified = await verifySIWxSignature(p);
  if (!verified.isValid && chain) {
    verified = await verifySIWxSignature(p, {
      evmVerifier: (a) => chain.verifyMessage({ ...a, signature: a.signature as Hex }),
    });
  }
  if (verified.isValid) return { ok: true };
  // The node's own errors quote its URL, which often carries an API key.
  if (verified.invalidReason === 'invalid_siwx_verifier_error') {
    return refuse(verified.invalidReason, 'the chain node could not check the signature; retry later');
  }
  return refuse(
    verified.invalidReason,
    chain
      ? verified.invalidMessage
      : `${verified.invalidMessage} (a smart wallet's signature is checked only where the gateway reads the chain: X402_RPC_URL)`,
  );
}
