/**
 * Group commit for an append-only file: lines appended during one turn of the event loop are
 * written with one write; each append resolves once its line is written (then it survives a
 * crash of the process; with `fsync`, also of the machine). After a failed write nothing more is
 * acknowledged.
 */
import type { FileHandle } from 'node:fs/promises';

interface Pending {
  line: string;
  resolve: () => void;
  reject: (err: Error) => void;
}

export class BatchWriter {
  private pending: Pending[] = [];
  private flushing: Promise<void> | undefined;
  private scheduled = false;
  private failed: Error | undefined;
  /** Bytes written since the file was opened or last truncated. */
  bytes = 0;

  constructor(
    private readonly fh: FileHandle,
    private readonly fsync: boolean,
    initialBytes = 0,
  ) {
    this.bytes = initialBytes;
  }

  append(line: string): Promise<void> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => {
      this.pending.push({ line, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  /** Writes everything queued; resolves when it is written. */
  async flush(): Promise<void> {
    this.scheduled = false;
    while (this.flushing) await this.flushing;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.flushing = (async () => {
      try {
        const buf = Buffer.from(batch.map((p) => p.line).join(''));
        await this.fh.write(buf);
        if (this.fsync) await this.fh.sync();
        this.bytes += buf.length;
        for (const p of batch) p.resolve();
      } catch (err) {
        this.failed = err as Error;
        for (const p of batch) p.reject(this.failed);
      } finally {
        this.flushing = undefined;
      }
    })();
    await this.flushing;
  }

  /** Empties the file (after a snapshot took its content). */
  async truncate(): Promise<void> {
    await this.flush();
    await this.fh.truncate(0);
    await this.fh.sync();
    this.bytes = 0;
  }

  async close(): Promise<void> {
    await this.flush();
    await this.fh.close();
  }
}
