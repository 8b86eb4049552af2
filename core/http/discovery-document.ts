/**
 * Discovery documents (openapi.json, /products, /product-status.json, the well-known documents,
 * llms.txt, the portal) as crawlers and agents fetch them: cacheable for 5 minutes
 * (docs/architecture.md), compressed with brotli or gzip as Accept-Encoding asks
 * (core/http/compression.ts), with a strong ETag per content coding and 304 on If-None-Match. A
 * document built once is compressed and tagged once per encoding; a document built per request is
 * compressed per request. Compression runs on zlib's thread pool, never on the event loop.
 */
import type { Request, Response } from 'express';
import { encodeAsync, encodingFor, type ContentEncoding } from './compression';
import { ifNoneMatchHit, opaqueTagOf, strongTag } from './entity-tags';

/** What the docs promise: any cache may keep a discovery document for 5 minutes. */
export const DISCOVERY_CACHE_CONTROL = 'public, max-age=300';

export class DiscoveryDocument {
  private readonly raw: Buffer;
  /** Compressed once per encoding, on zlib's thread pool (openapi.json: about 25 ms of brotli). */
  private readonly encoded = new Map<ContentEncoding, Promise<Buffer>>();
  /** Strong tags: the bytes differ per content coding, so does the tag (RFC 9110 8.8.3). */
  private readonly tags: Record<ContentEncoding | 'identity', string>;

  constructor(
    text: string,
    /** The Content-Type, with its charset for text. */
    readonly contentType: string,
  ) {
    this.raw = Buffer.from(text, 'utf8');
    const opaque = opaqueTagOf(this.raw);
    this.tags = {
      identity: strongTag(opaque),
      br: strongTag(`${opaque}-br`),
      gzip: strongTag(`${opaque}-gzip`),
    };
  }

  send(req: Request, res: Response): void {
    res.setHeader('Cache-Control', DISCOVERY_CACHE_CONTROL);
    res.vary('Accept-Encoding');
    const encoding = encodingFor(req, this.raw.length);
    const tag = this.tags[encoding ?? 'identity'];
    // Any coding of the same bytes the client holds is still current: it can decode what it holds.
    const hit = ifNoneMatchHit(req, [tag, this.tags.identity, this.tags.br, this.tags.gzip]);
    if (hit !== undefined) {
      res.setHeader('ETag', hit);
      res.status(304).end();
      return;
    }
    res.setHeader('ETag', tag);
    res.setHeader('Content-Type', this.contentType);
    if (!encoding) {
      res.send(this.raw);
      return;
    }
    let body = this.encoded.get(encoding);
    if (!body) {
      body = encodeAsync(this.raw, encoding);
      this.encoded.set(encoding, body);
    }
    body.then(
      (bytes) => {
        res.setHeader('Content-Encoding', encoding);
        res.send(bytes);
      },
      (err: unknown) => {
        // zlib failed (out of memory): the document still goes out, uncompressed, and is tried again.
        this.encoded.delete(encoding);
        req.log?.warn({ err }, 'compression failed; answered uncompressed');
        res.setHeader('ETag', this.tags.identity);
        res.send(this.raw);
      },
    );
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
