/**
 * Response compression with Node's own zlib (brotli and gzip), as Accept-Encoding asks
 * (docs/decisions.md, "Discovery documents are compressed", and issue 35's "Answers compressed
 * off the event loop, once"): discovery documents, compressed once and kept, and data answers.
 *
 * A data answer is compressed on zlib's thread pool, never on the event loop, so a large answer
 * does not hold up the requests behind it. A tagged (deterministic) answer differs from one
 * request to the next only in its request id (`..."request_id":"<id>",...}`): the parts before and
 * after the id are compressed once, each ended with a flush (byte-aligned, not final), and kept
 * per entity tag; each answer is then put together without compressing anything: the head, the
 * id in the format's stored block (a deflate stored block, RFC 1951 3.2.4; a brotli uncompressed
 * meta-block, RFC 7932 9.2), the tail, and the format's end. Any decoder reads the result as one
 * stream of the answer's bytes. (Brotli cannot start a part anywhere: its tail is stored too, and
 * only when it is small beside the answer; otherwise the whole answer is compressed.)
 */
import {
  brotliCompress,
  constants,
  crc32,
  deflateRaw,
  gzip,
  type BrotliOptions,
  type ZlibOptions,
} from 'node:zlib';
import { promisify } from 'node:util';
import type { Request, Response } from 'express';
import { LRUCache } from 'lru-cache';

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

function brotliOptions(bytes: number, flush: boolean): BrotliOptions {
  return {
    params: {
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_QUALITY]: 6,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes,
    },
    ...(flush ? { finishFlush: constants.BROTLI_OPERATION_FLUSH } : {}),
  };
}

function gzipOptions(flush: boolean): ZlibOptions {
  return { level: 6, ...(flush ? { finishFlush: constants.Z_SYNC_FLUSH } : {}) };
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Compresses on zlib's thread pool; `flush`: ends byte-aligned without finishing the stream. */
export function encodeAsync(body: Buffer, encoding: ContentEncoding, flush = false): Promise<Buffer> {
  return encoding === 'br'
    ? brotliAsync(body, brotliOptions(body.length, flush))
    : gzipAsync(body, gzipOptions(flush));
}

/** A tagged answer's parts around its request id, compressed once and kept. */
export interface KeptAnswer {
  /** The text before the id's JSON string, and after it (a later body must have both, exactly). */
  head: string;
  tail: string;
  /** The stream's start up to the id: flushed, not final. */
  headBytes: Buffer;
  /** gzip: the tail as raw deflate blocks, flushed, not final; brotli: its UTF-8 bytes (stored). */
  tailBytes: Buffer;
  /** gzip: the CRC-32 and byte length of the head, and the tail's bytes (for the trailer). */
  headCrc: number;
  headLength: number;
  tailRaw: Buffer;
}

/** The largest part a single stored block (deflate) or a 4-nibble meta-block (brotli) holds. */
const MAX_STORED = 0xffff;
/** Brotli stores the tail uncompressed: only when it is at most this share of the answer. */
const BROTLI_STORED_SHARE = 1 / 8;
/** A final empty stored block: the end of a deflate stream after a flush. */
const DEFLATE_END = Buffer.of(0x01, 0x00, 0x00, 0xff, 0xff);
/** An empty last meta-block (ISLAST=1, ISLASTEMPTY=1): the end of a brotli stream. */
const BROTLI_END = Buffer.of(0x03);

/** The finished stream of a kept answer with the id `id` (its JSON string's UTF-8 bytes). */
export function assemble(kept: KeptAnswer, id: Buffer, encoding: ContentEncoding): Buffer {
  if (encoding === 'br') {
    const stored = Buffer.concat([id, kept.tailBytes]);
    const n = stored.length;
    // ISLAST=0, MNIBBLES=4 (0), MLEN-1 in 16 bits, ISUNCOMPRESSED=1, then zero bits to the byte.
    const bits = ((n - 1) << 3) | (1 << 19);
    return Buffer.concat([
      kept.headBytes,
      Buffer.of(bits & 0xff, (bits >> 8) & 0xff, bits >> 16),
      stored,
      BROTLI_END,
    ]);
  }
  const n = id.length;
  // BFINAL=0, BTYPE=00 (stored), then LEN and its one's complement, little-endian.
  const stored = Buffer.of(0x00, n & 0xff, n >> 8, ~n & 0xff, (~n >> 8) & 0xff);
  const trailer = Buffer.allocUnsafe(8);
  trailer.writeUInt32LE(crcOn(kept.tailRaw, crcOn(id, kept.headCrc)), 0);
  trailer.writeUInt32LE((kept.headLength + n + kept.tailRaw.length) >>> 0, 4);
  return Buffer.concat([kept.headBytes, stored, id, kept.tailBytes, DEFLATE_END, trailer]);
}

/** The CRC-32 continued over `data`; an empty part is skipped (continuing over one once gave 0 here). */
function crcOn(data: Buffer, crc: number): number {
  return data.length === 0 ? crc : crc32(data, crc);
}

const deflateRawAsync = promisify(deflateRaw);

async function keep(head: string, tail: string, encoding: ContentEncoding): Promise<KeptAnswer> {
  const headRaw = Buffer.from(head, 'utf8');
  const tailRaw = Buffer.from(tail, 'utf8');
  const [headBytes, tailBytes] = await Promise.all([
    encodeAsync(headRaw, encoding, true),
    encoding === 'br' ? tailRaw : deflateRawAsync(tailRaw, { level: 6, finishFlush: constants.Z_SYNC_FLUSH }),
  ]);
  return { head, tail, headBytes, tailBytes, headCrc: crc32(headRaw), headLength: headRaw.length, tailRaw };
}

/**
 * Kept answers, per encoding, entity tag, surface and endpoint; bounded by their bytes. A body
 * that is not the kept head, its own request id and the kept tail is compressed whole instead
 * (the cache is never trusted for correctness).
 */
const kept = new LRUCache<string, KeptAnswer>({
  maxSize: 16 * 1024 * 1024,
  sizeCalculation: (k) =>
    k.headBytes.length + k.tailBytes.length + k.tailRaw.length + 2 * (k.head.length + k.tail.length),
});
/** Answers being compressed: the requests that arrive meanwhile wait for the same one. */
const pending = new Map<string, Promise<KeptAnswer>>();

function keptAnswer(key: string, head: string, tail: string, encoding: ContentEncoding): Promise<KeptAnswer> {
  let p = pending.get(key);
  if (!p) {
    p = keep(head, tail, encoding).finally(() => pending.delete(key));
    p.then(
      (k) => kept.set(key, k),
      () => undefined,
    );
    pending.set(key, p);
  }
  return p;
}

const fits = (k: KeptAnswer, body: string, idJson: string) =>
  body.length === k.head.length + idJson.length + k.tail.length &&
  body.startsWith(k.head) &&
  body.endsWith(k.tail) &&
  body.startsWith(idJson, k.head.length);

async function compressed(res: Response, body: string, encoding: ContentEncoding): Promise<Buffer> {
  const whole = () => encodeAsync(Buffer.from(body, 'utf8'), encoding);
  const id = res.req.id;
  const tag = res.getHeader('ETag');
  if (typeof id !== 'string' || tag === undefined) return whole();
  const idJson = JSON.stringify(id);
  const at = body.lastIndexOf(`"request_id":${idJson}`);
  if (at < 0) return whole();
  const idBytes = Buffer.from(idJson, 'utf8');
  const headEnd = at + 13; // '"request_id":'.length
  const tailLength = body.length - headEnd - idJson.length;
  // What goes in a stored block: the id (gzip), the id and the tail (brotli; the bound counts
  // 3 bytes for each UTF-16 unit, the most UTF-8 takes).
  const stored = encoding === 'br' ? idBytes.length + tailLength * 3 : idBytes.length;
  if (stored > MAX_STORED) return whole();
  if (encoding === 'br' && idJson.length + tailLength > body.length * BROTLI_STORED_SHARE) return whole();
  const key = `${encoding}\u0000${String(tag)}\u0000${String(res.locals.surface)}\u0000${String(res.locals.endpointId)}`;
  let k = kept.get(key);
  if (k === undefined || !fits(k, body, idJson)) {
    k = await keptAnswer(key, body.slice(0, headEnd), body.slice(headEnd + idJson.length), encoding);
    if (!fits(k, body, idJson)) return whole();
  }
  return assemble(k, idBytes, encoding);
}

/**
 * Sends a body compressed as the request asks, with `Vary: Accept-Encoding` either way (a cache
 * must not hand a brotli body to a client that did not ask for it). A compressed body is sent
 * when zlib's thread pool has made it; the caller has nothing more to do with the response.
 */
export function sendEncoded(req: Request, res: Response, body: string | Buffer): void {
  varyOnAcceptEncoding(res);
  const bytes = typeof body === 'string' ? Buffer.byteLength(body, 'utf8') : body.length;
  const encoding = encodingFor(req, bytes);
  if (!encoding) {
    sendIdentity(req, res, body, bytes);
    return;
  }
  const made = typeof body === 'string' ? compressed(res, body, encoding) : encodeAsync(body, encoding);
  made.then(
    (out) => {
      res.setHeader('Content-Encoding', encoding);
      sendIdentity(req, res, out, out.length);
    },
    (err: unknown) => {
      // zlib failed (out of memory): the answer still goes out, uncompressed.
      req.log?.warn({ err }, 'compression failed; answered uncompressed');
      sendIdentity(req, res, body, bytes);
    },
  );
}

/**
 * A body as res.send would send it (Content-Type kept, Content-Length, nothing for HEAD), without
 * Express adding a charset to the Content-Type of a string body.
 */
function sendIdentity(req: Request, res: Response, body: string | Buffer, bytes: number): void {
  if (!res.hasHeader('Content-Type')) res.setHeader('Content-Type', 'application/octet-stream');
  res.setHeader('Content-Length', bytes);
  if (req.method === 'HEAD') res.end();
  else res.end(body);
}

/** `Vary: Accept-Encoding`, added once (res.vary parses the header on every call). */
function varyOnAcceptEncoding(res: Response): void {
  const vary = res.getHeader('Vary');
  if (vary === undefined) res.setHeader('Vary', 'Accept-Encoding');
  else if (!/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(String(vary))) res.vary('Accept-Encoding');
}
