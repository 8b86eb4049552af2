/**
 * Sending fuzz requests: over a keep-alive agent (the caller bounds how many are in flight), or as
 * raw bytes over a socket of their own for what no HTTP client would send.
 */
import http from 'node:http';
import net from 'node:net';
import { pct } from './inputs';

export interface Answer {
  status: number;
  contentType: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Outgoing {
  method: string;
  /** Request target; broken %-escapes are kept, other unsendable characters are encoded. */
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** No Content-Length (Transfer-Encoding: chunked): the size is only found while reading. */
  chunked?: boolean;
}

/** Node's client refuses raw spaces and non-ASCII in paths: encode those, keep broken %-escapes. */
function wirePath(path: string): string {
  return path.replace(/[^\x21-\x7e]/gu, (c) => pct(c));
}

/** Node's client sends header values as Latin-1 and refuses control bytes (those go through sendRaw). */
function wireHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([k, v]) => [k, v.replace(/[^\t\x20-\x7e\x80-\xff]/g, '?')]),
  );
}

export function send(agent: http.Agent, base: URL, out: Outgoing): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let retried = false;
    const attempt = () => {
      let answered = false;
      const req = http.request(
        {
          agent,
          host: base.hostname,
          port: base.port,
          method: out.method,
          path: wirePath(out.path),
          headers: {
            ...wireHeaders(out.headers),
            ...(out.body !== undefined && !out.chunked
              ? { 'content-length': String(Buffer.byteLength(out.body)) }
              : {}),
          },
        },
        (res) => {
          answered = true;
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              contentType: String(res.headers['content-type'] ?? ''),
              headers: res.headers,
              body: Buffer.concat(chunks).toString('utf8'),
            }),
          );
        },
      );
      req.on('error', (err: NodeJS.ErrnoException) => {
        // Writing the rest of a refused body may fail once the answer is in: the answer counts.
        if (answered) return;
        // A kept-alive socket the server closed just before reuse: Node's documented retry case.
        if (req.reusedSocket && err.code === 'ECONNRESET' && !retried) {
          retried = true;
          return attempt();
        }
        reject(err);
      });
      if (out.body !== undefined) req.write(out.body);
      req.end();
    };
    attempt();
  });
}

/** Writes `bytes` on a fresh connection and reads the answer until the server closes it. */
export function sendRaw(base: URL, bytes: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(Number(base.port), base.hostname, () => socket.write(bytes));
    socket.setTimeout(20_000, () => socket.destroy(new Error('raw request: no answer within 20 s')));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', (err) => (chunks.length > 0 ? undefined : reject(err)));
    socket.on('close', () => {
      if (chunks.length === 0) return reject(new Error('raw request: connection closed without an answer'));
      try {
        resolve(parseAnswer(Buffer.concat(chunks)));
      } catch (err) {
        reject(err);
      }
    });
  });
}

/** A minimal HTTP/1.1 response reader: status line, headers, body (chunked or not). */
function parseAnswer(raw: Buffer): Answer {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`raw request: incomplete answer ${raw.toString('latin1').slice(0, 80)}`);
  const [statusLine, ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const headers: http.IncomingHttpHeaders = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = raw.subarray(end + 4);
  if (/chunked/i.test(String(headers['transfer-encoding'] ?? ''))) body = unchunk(body);
  return {
    status: Number(statusLine.split(' ')[1]),
    contentType: String(headers['content-type'] ?? ''),
    headers,
    body: body.toString('utf8'),
  };
}

function unchunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = body.indexOf('\r\n', at);
    const size = parseInt(body.subarray(at, eol).toString('latin1'), 16);
    if (!(size > 0)) return Buffer.concat(parts);
    parts.push(body.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}
