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
import http from 'node:http';
import https from 'node:https';

export type VerifyOutcome =
  | { kind: 'valid'; payer?: string }
  | { kind: 'invalid'; reason: string; message?: string }
  | { kind: 'unavailable'; status: 502 | 503; detail: string };

export type SettleOutcome =
  | { kind: 'settled'; transaction: string; network: string; payer?: string }
  /** `transaction` when the facilitator names one anyway (e.g. reverted): the entry then stays unresolved. */
  | { kind: 'failed'; reason: string; message?: string; transaction?: string }
  /** The request never reached the facilitator: nothing was settled. */
  | { kind: 'unreachable'; detail: string }
  /** The facilitator may have settled; `transaction` when it told us one is pending. */
  | { kind: 'unknown'; detail: string; transaction?: string };

export interface FacilitatorRequest {
  x402Version: number;
  paymentPayload: unknown;
  paymentRequirements: unknown;
}

/**
 * What the checkout needs of a facilitator: the remote one over HTTP (FacilitatorClient) or the
 * reference code run in-process with the operator's key (self-facilitator.ts).
 */
export interface Facilitator {
  verify(body: FacilitatorRequest): Promise<VerifyOutcome>;
  settle(body: FacilitatorRequest): Promise<SettleOutcome>;
}

/** The reference facilitator's reason for "broadcast, not yet confirmed" (x402 core 2.24+). */
export const SETTLEMENT_PENDING_REASON = 'settlement_pending';

/** Error codes of connections that were never established, so the request was never sent. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * Node's http client with keep-alive agents: global fetch costs about 2 ms of CPU per call here,
 * which capped the paid path at ~200 calls/s (two facilitator calls each). The agents close idle
 * sockets before the server's Keep-Alive hint (Node does this) or after 4 s, so a reused socket is
 * rarely one the server is closing; when it is, a settle call counts as "unknown", never as failed.
 */
const AGENT_OPTIONS = { keepAlive: true, timeout: 4_000, maxFreeSockets: 64 };
const HTTP_AGENT = new http.Agent(AGENT_OPTIONS);
const HTTPS_AGENT = new https.Agent(AGENT_OPTIONS);
const MAX_ANSWER_BYTES = 1_000_000;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown) => (typeof v === 'string' ? v : undefined);

function describe(err: unknown): { sent: boolean; detail: string } {
  const e = err as { name?: string; message?: string; code?: string };
  if (e?.name === 'TimeoutError') return { sent: true, detail: 'timed out' };
  if (e?.code && NOT_SENT.has(e.code)) return { sent: false, detail: `unreachable (${e.code})` };
  return { sent: true, detail: (e?.code ?? e?.message ?? 'network error').slice(0, 200) };
}

export class FacilitatorClient implements Facilitator {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
    private readonly authorization?: string,
  ) {}

  private post(path: string, body: FacilitatorRequest): Promise<{ status: number; json: unknown }> {
    const url = new URL(`${this.baseUrl}${path}`);
    const payload = Buffer.from(JSON.stringify(body), 'utf8');
    const transport = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const req = transport.request(
        url,
        {
          method: 'POST',
          agent: url.protocol === 'https:' ? HTTPS_AGENT : HTTP_AGENT,
          headers: {
            'content-type': 'application/json',
            'content-length': payload.length,
            accept: 'application/json',
            ...(this.authorization ? { authorization: this.authorization } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            size += c.length;
            if (size > MAX_ANSWER_BYTES) req.destroy(new Error('answer too large'));
            else chunks.push(c);
          });
          res.on('end', () => {
            clearTimeout(timer);
            let json: unknown;
            try {
              json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            } catch {
              json = undefined;
            }
            // Redirects are not followed: a moved facilitator URL is a configuration error.
            resolve({ status: res.statusCode ?? 0, json });
          });
          res.on('error', (err) => {
            clearTimeout(timer);
            reject(err);
          });
        },
      );
      const timer = setTimeout(() => {
        const err = new Error(`no answer within ${this.timeoutMs} ms`);
        err.name = 'TimeoutError';
        req.destroy(err);
      }, this.timeoutMs);
      req.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      req.end(payload);
    });
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
        return {
          kind: 'failed',
          reason,
          message: text(j.errorMessage),
          ...(transaction ? { transaction } : {}),
        };
      }
    }
    // A settle answer we cannot read may hide a settlement that happened.
    return { kind: 'unknown', detail: `settle answered HTTP ${r.status} without a settle result` };
  }
}
