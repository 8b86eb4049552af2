/**
 * One delivery attempt: a POST of the event's body with its Standard Webhooks headers, to the
 * address the guard checked (address-guard.ts), never following a redirect.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { hostOf, resolvePublic, type Lookup } from './address-guard';

export interface DeliveryOptions {
  allowLoopback: boolean;
  timeoutMs: number;
  lookup?: Lookup;
  /** The user agent the receiver sees. */
  userAgent: string;
}

/** `delivered`: the receiver answered 2xx. Otherwise why not, and its status if it answered. */
export type AttemptResult =
  { delivered: true; status: number } | { delivered: false; status: number | null; error: string };

/** Bytes of a receiver's answer read at most (the rest is dropped with the connection). */
const MAX_ANSWER_BYTES = 64 * 1024;

export async function attemptDelivery(
  target: string,
  headers: Record<string, string>,
  body: string,
  options: DeliveryOptions,
): Promise<AttemptResult> {
  const url = new URL(target);
  const allowedHttp = options.allowLoopback && url.protocol === 'http:';
  if (url.protocol !== 'https:' && !allowedHttp)
    return { delivered: false, status: null, error: 'url is not https' };
  const resolved = await resolvePublic(hostOf(url), options.allowLoopback, options.lookup);
  if (!resolved.ok) return { delivered: false, status: null, error: `refused: ${resolved.problem}` };
  const pinned = pinnedLookup(resolved.addresses);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const done = (r: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(r);
    };
    const req = client.request(
      url,
      {
        method: 'POST',
        lookup: pinned,
        agent: false,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': options.userAgent,
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) finish();
        });
        const finish = () => {
          if (status >= 200 && status < 300) return done({ delivered: true, status });
          if (status >= 300 && status < 400) {
            const to =
              typeof res.headers.location === 'string' ? ` to ${res.headers.location.slice(0, 200)}` : '';
            return done({ delivered: false, status, error: `redirect${to} not followed (HTTP ${status})` });
          }
          done({ delivered: false, status, error: `HTTP ${status}` });
        };
        res.on('end', finish);
        res.on('error', finish);
      },
    );
    const timer = setTimeout(
      () => done({ delivered: false, status: null, error: `no answer within ${options.timeoutMs} ms` }),
      options.timeoutMs,
    );
    req.on('error', (err: NodeJS.ErrnoException) =>
      done({ delivered: false, status: null, error: `connection failed (${err.code ?? err.message})` }),
    );
    req.end(body);
  });
}

/** A lookup that answers only the addresses already checked: the connection cannot go elsewhere. */
function pinnedLookup(addresses: LookupAddress[]): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  }) as unknown as LookupFunction;
}
