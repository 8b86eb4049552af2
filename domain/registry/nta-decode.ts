/**
 * The text encoding of an NTA bulk-download file. The NTA publishes each file twice: a Unicode
 * edition (UTF-8) and a Shift_JIS edition. WHATWG's Shift_JIS decoder (TextDecoder 'shift_jis',
 * also reached as 'windows-31j', 'sjis', 'ms932') is the cp932 mapping: it decodes every row of
 * the NTA's Shift_JIS files, with 0x817C as the full-width hyphen-minus the Unicode edition holds.
 */
import { Transform, type TransformCallback } from 'node:stream';
import { TextDecoder } from 'node:util';

export const NTA_ENCODINGS = ['utf-8', 'shift_jis'] as const;
export type NtaEncoding = (typeof NTA_ENCODINGS)[number];

/** Bytes read before deciding: a few hundred rows, so a name in kanji is always among them. */
const SAMPLE_BYTES = 64 * 1024;

/**
 * The encoding these first bytes are in, or null when they are ASCII only (nothing to decide on).
 * Japanese text in Shift_JIS is practically never valid UTF-8, so a strict UTF-8 decode decides.
 */
export function detectEncoding(sample: Buffer): NtaEncoding | null {
  if (!sample.some((b) => b > 0x7f)) return null;
  for (const encoding of NTA_ENCODINGS) {
    try {
      new TextDecoder(encoding, { fatal: true }).decode(sample, { stream: true });
      return encoding;
    } catch {
      // not this one
    }
  }
  // Damaged bytes: the encoding that reads more of them, so the rows refused are the damaged ones.
  const unreadable = (e: NtaEncoding) =>
    new TextDecoder(e).decode(sample, { stream: true }).split('\uFFFD').length;
  return unreadable('shift_jis') < unreadable('utf-8') ? 'shift_jis' : 'utf-8';
}

/**
 * Bytes of either edition in, UTF-8 bytes out (what csv-parse reads), decoded as they stream so a
 * file of millions of rows is never held. Bytes the encoding cannot read become U+FFFD, which the
 * row check refuses with its line. Also notes whether the input ended with a line break: the NTA's
 * files do, so a last line without one was cut short.
 */
export class NtaDecoder extends Transform {
  encoding: NtaEncoding | null;
  ended = false;
  endsWithLineBreak = false;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private decoder: TextDecoder | null = null;

  constructor(
    forced: NtaEncoding | undefined,
    private readonly onEncoding: (encoding: NtaEncoding) => void,
  ) {
    super();
    this.encoding = forced ?? null;
    if (forced) this.decide(forced);
  }

  private decide(encoding: NtaEncoding): void {
    this.encoding = encoding;
    // UTF-8 passes through untouched: csv-parse decodes it (invalid bytes become U+FFFD).
    if (encoding === 'shift_jis') this.decoder = new TextDecoder('shift_jis');
    this.onEncoding(encoding);
  }

  private pushDecoded(chunk: Buffer): void {
    if (this.decoder) this.push(Buffer.from(this.decoder.decode(chunk, { stream: true }), 'utf8'));
    else this.push(chunk);
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    if (chunk.length > 0) this.endsWithLineBreak = chunk[chunk.length - 1] === 0x0a;
    if (this.encoding !== null) {
      this.pushDecoded(chunk);
      return cb();
    }
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.pendingBytes < SAMPLE_BYTES) return cb();
    // ASCII only so far reads the same in both: UTF-8, and a later Shift_JIS byte is refused by line.
    this.releasePending();
    cb();
  }

  private releasePending(): void {
    const held = Buffer.concat(this.pending);
    this.pending = [];
    if (this.encoding === null) this.decide(detectEncoding(held) ?? 'utf-8');
    if (held.length > 0) this.pushDecoded(held);
  }

  override _flush(cb: TransformCallback): void {
    this.ended = true;
    if (this.encoding === null) this.releasePending();
    if (this.decoder) {
      const rest = this.decoder.decode();
      if (rest) this.push(Buffer.from(rest, 'utf8'));
    }
    cb();
  }
}
