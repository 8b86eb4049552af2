/**
 * The x402 facilitator over HTTP: `POST {url}/verify` and `POST {url}/settle`, each with
 * `{x402Version, paymentPayload, paymentRequirements}`, answering `{isValid, invalidReason?, payer?}`
 * and `{success, errorReason?, transaction, network, payer?}` (the reference implementation's
 * HTTPFacilitatorClient wire format). An optional Authorization header value is sent with each call.
 *
 * Outcomes are classified for what matters to the buyer: a call that never reached the facilitator
 * has no effect; a settle call whose answer was lost (timeout, reset, a 5xx without a settle body)
 * may have moved money and is reported as `unknown`, never as a failure.
 */

export type VerifyOutcome =
  | { kind: 'valid'; payer?: string }
  | { kind: 'invalid'; reason: string; message?: string }
  | { kind: 'unavailable'; status: 502 | 503; detail: string };

export type SettleOutcome =
  | { kind: 'settled'; transaction: string; network: string; payer?: string }
  | { kind: 'failed'; reason: string; message?: string }
  /** The request never reached the facilitator: nothing was settled. */
  | { kind: 'unreachable'; detail: string }
  /** The facilitator may have settled; `transaction` when it told us one is pending. */
  | { kind: 'unknown'; detail: string; transaction?: string };

export interface FacilitatorRequest {
  x402Version: number;
  paymentPayload: unknown;
  paymentRequirements: unknown;
}

/** The reference facilitator's reason for "broadcast, not yet confirmed" (x402 core 2.24+). */
export const SETTLEMENT_PENDING_REASON = 'settlement_pending';

/** Error codes of connections that were never established, so the request was never sent. */
const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown) => (typeof v === 'string' ? v : undefined);

function describe(err: unknown): { sent: boolean; detail: string } {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return { sent: true, detail: 'timed out' };
  const code = e?.cause?.code;
  if (code && NOT_SENT.has(code)) return { sent: false, detail: `unreachable (${code})` };
  return { sent: true, detail: (code ?? e?.cause?.message ?? e?.message ?? 'network error').slice(0, 200) };
}

export class FacilitatorClient {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
    private readonly authorization?: string,
  ) {}

  private async post(path: string, body: FacilitatorRequest): Promise<{ status: number; json: unknown }> {
    const res = await fetch(`${this.baseUrl}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(this.authorization ? { authorization: this.authorization } : {}),
      },
      body: JSON.stringify(body),
      // A redirect means the URL is wrong (x402.org moved once and clients silently failed open).
      redirect: 'manual',
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const raw = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      json = undefined;
    }
    return { status: res.status, json };
  }

  async verify(body: FacilitatorRequest): Promise<VerifyOutcome> {
    let r: { status: number; json: unknown };
    try {
      r = await this.post('/verify', body);
    } catch (err) {
      return { kind: 'unavailable', status: 503, detail: `verify ${describe(err).detail}` };
    }
    if (r.status >= 300 && r.status < 400) {
      return {
        kind: 'unavailable',
        status: 502,
        detail: `verify redirected (HTTP ${r.status}); check X402_FACILITATOR_URL`,
      };
    }
    const j = r.json;
    if (isObject(j) && typeof j.isValid === 'boolean') {
      if (j.isValid && r.status >= 200 && r.status < 300) return { kind: 'valid', payer: text(j.payer) };
      if (!j.isValid) {
        return {
          kind: 'invalid',
          reason: text(j.invalidReason) ?? 'invalid_payment',
          message: text(j.invalidMessage),
        };
      }
    }
    return {
      kind: 'unavailable',
      status: r.status >= 500 || r.status === 429 ? 503 : 502,
      detail: `verify answered HTTP ${r.status} without a verify result`,
    };
  }

  async settle(body: FacilitatorRequest): Promise<SettleOutcome> {
    let r: { status: number; json: unknown };
    try {
      r = await this.post('/settle', body);
    } catch (err) {
      const d = describe(err);
      return d.sent
        ? { kind: 'unknown', detail: `settle ${d.detail}` }
        : { kind: 'unreachable', detail: `settle ${d.detail}` };
    }
    if (r.status >= 300 && r.status < 400) {
      // A redirect answer settles nothing.
      return {
        kind: 'unreachable',
        detail: `settle redirected (HTTP ${r.status}); check X402_FACILITATOR_URL`,
      };
    }
    const j = r.json;
    if (isObject(j) && typeof j.success === 'boolean') {
      const transaction = text(j.transaction);
      if (j.success && r.status >= 200 && r.status < 300 && transaction) {
        return {
          kind: 'settled',
          transaction,
          network: text(j.network) ?? '',
          payer: text(j.payer),
        };
      }
      if (!j.success) {
        const reason = text(j.errorReason) ?? 'settlement_failed';
        if (reason === SETTLEMENT_PENDING_REASON) {
          return {
            kind: 'unknown',
            detail: 'settlement broadcast, not yet confirmed',
            ...(transaction ? { transaction } : {}),
          };
        }
        return { kind: 'failed', reason, message: text(j.errorMessage) };
      }
    }
    // A settle answer we cannot read may hide a settlement that happened.
    return { kind: 'unknown', detail: `settle answered HTTP ${r.status} without a settle result` };
  }
}
