/**
 * The text encoding of an NTA bulk-download file. The NTA publishes each file twice: a Unicode
 * edition (UTF-8) and a Shift_JIS edition. WHATWG's Shift_JIS decoder (TextDecoder 'shift_jis',
 * also reached as 'windows-31j', 'sjis', 'ms932') is the cp932 mapping: it decodes every row of
 * the NTA's Shift_JIS files (0x817C comes out as U+FF0D, full-width hyphen-minus, as in cp932;
 * a strict JIS X 0208 mapping would give U+2212).
 */
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
 * Bytes of either edition in, text out, as they stream: a file of millions of rows is never held.
 * The first 64 KiB are held until the encoding is decided (unless forced). Bytes the encoding
 * cannot read become U+FFFD, which the row check refuses with its line.
 */
export class NtaTextDecoder {
  encoding: NtaEncoding | null;
  private held: Buffer[] = [];
  private heldBytes = 0;
  private decoder: TextDecoder | null = null;

  constructor(
    forced: NtaEncoding | undefined,
    private readonly onEncoding: (encoding: NtaEncoding) => void,
  ) {
    this.encoding = null;
    if (forced) this.decide(forced);
  }

  private decide(encoding: NtaEncoding): void {
    this.encoding = encoding;
    this.decoder = new TextDecoder(encoding);
    this.onEncoding(encoding);
  }

  /** The text of these bytes ('' while they are held to decide the encoding). */
  decode(chunk: Buffer): string {
    if (this.decoder) return this.decoder.decode(chunk, { stream: true });
    this.held.push(chunk);
    this.heldBytes += chunk.length;
    return this.heldBytes < SAMPLE_BYTES ? '' : this.release();
  }

  /** The rest of the text, once the bytes have ended. */
  end(): string {
    const text = this.decoder ? '' : this.release();
    return text + this.decoder!.decode();
  }

  private release(): string {
    const held = Buffer.concat(this.held);
    this.held = [];
    // ASCII only so far reads the same in both: UTF-8, and a later Shift_JIS byte is refused by line.
    this.decide(detectEncoding(held) ?? 'utf-8');
    return this.decoder!.decode(held, { stream: true });
  }
}
