/**
 * Discovery documents (openapi.json, /products, /product-status.json, the well-known documents,
 * llms.txt, the portal) as crawlers and agents fetch them: cacheable for 5 minutes
 * (docs/architecture.md) and compressed with brotli or gzip as Accept-Encoding asks, by Node's own
 * zlib (docs/decisions.md, "Discovery documents are compressed"). A document built once is
 * compressed once per encoding; a document built per request is compressed per request.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Request, Response } from 'express';

/** What the docs promise: any cache may keep a discovery document for 5 minutes. */
export const DISCOVERY_CACHE_CONTROL = 'public, max-age=300';

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

function encode(body: Buffer, encoding: ContentEncoding): Buffer {
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

export class DiscoveryDocument {
  private readonly raw: Buffer;
  private readonly encoded = new Map<ContentEncoding, Buffer>();

  constructor(
    text: string,
    /** The Content-Type, with its charset for text. */
    readonly contentType: string,
  ) {
    this.raw = Buffer.from(text, 'utf8');
  }

  send(req: Request, res: Response): void {
    res.setHeader('Cache-Control', DISCOVERY_CACHE_CONTROL);
    res.vary('Accept-Encoding');
    res.setHeader('Content-Type', this.contentType);
    const encoding = this.raw.length >= COMPRESS_MIN_BYTES ? chooseEncoding(req) : undefined;
    if (!encoding) {
      res.send(this.raw);
      return;
    }
    let body = this.encoded.get(encoding);
    if (!body) {
      body = encode(this.raw, encoding);
      this.encoded.set(encoding, body);
    }
    res.setHeader('Content-Encoding', encoding);
    res.send(body);
  }
}

/** A document built per request (it holds the clock's date), sent as a discovery document. */
export function sendDiscoveryJson(req: Request, res: Response, value: unknown): void {
  new DiscoveryDocument(JSON.stringify(value), 'application/json; charset=utf-8').send(req, res);
}

/** Builds a document on first use (after every route has been mounted) and keeps it, compressed. */
export function documentOnce(build: () => string, contentType: string): () => DiscoveryDocument {
  let doc: DiscoveryDocument | undefined;
  return () => (doc ??= new DiscoveryDocument(build(), contentType));
}
