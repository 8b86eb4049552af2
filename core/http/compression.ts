/**
 * Response compression with Node's own zlib (brotli and gzip), as Accept-Encoding asks
 * (docs/decisions.md, "Discovery documents are compressed"): discovery documents, compressed once
 * and kept, and data answers, compressed per response (they carry their request id).
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Request, Response } from 'express';

/** Smaller bodies gain nothing worth a Content-Encoding. */
export const COMPRESS_MIN_BYTES = 1024;

export type ContentEncoding = 'br' | 'gzip';

/** The encoding to answer with: the client's preferred of br and gzip, or none (identity). */
export function chooseEncoding(req: Request): ContentEncoding | undefined {
  // Without Accept-Encoding a client has not said it can decode anything: answer identity.
  if (!req.headers['accept-encoding']) return undefined;
  const chosen = req.acceptsEncodings('br', 'gzip', 'identity');
  return chosen === 'br' || chosen === 'gzip' ? chosen : undefined;
}

/** The encoding a body of this size gets for this request (none below COMPRESS_MIN_BYTES). */
export function encodingFor(req: Request, bytes: number): ContentEncoding | undefined {
  return bytes >= COMPRESS_MIN_BYTES ? chooseEncoding(req) : undefined;
}

export function encode(body: Buffer, encoding: ContentEncoding): Buffer {
  return encoding === 'br'
    ? brotliCompressSync(body, {
        params: {
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_QUALITY]: 6,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      })
    : gzipSync(body, { level: 6 });
}

/**
 * Sends a body compressed as the request asks, with `Vary: Accept-Encoding` either way (a cache
 * must not hand a brotli body to a client that did not ask for it).
 */
export function sendEncoded(req: Request, res: Response, body: string | Buffer): void {
  res.vary('Accept-Encoding');
  const raw = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const encoding = encodingFor(req, raw.length);
  if (!encoding) {
    res.send(raw);
    return;
  }
  res.setHeader('Content-Encoding', encoding);
  res.send(encode(raw, encoding));
}
