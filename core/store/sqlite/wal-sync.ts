/**
 * fsync of a database's write-ahead log on libuv's thread pool, so that making a commit durable
 * does not stop the event loop. A transaction committed with synchronous=NORMAL is in the WAL
 * (the OS has its pages) but not yet on the disk; once an fsync of the WAL that STARTED after the
 * commit has returned, it survives a power cut as with synchronous=FULL, which runs the same
 * fsync inside COMMIT. Requests that arrive while an fsync runs share the next one (group commit),
 * because the running one may have started before their commit was written.
 *
 * The file descriptor is opened once, when the database is: Linux reports a failed write-back to
 * the descriptors open at the time, so a descriptor opened later could see a clean fsync after
 * lost data.
 */
import { closeSync, fsync, openSync } from 'node:fs';

export type FsyncFn = (fd: number, done: (err: NodeJS.ErrnoException | null) => void) => void;

interface Waiter {
  resolve: () => void;
  reject: (err: unknown) => void;
}

export class WalSync {
  private fd: number | undefined;
  private running = false;
  private waiters: Waiter[] = [];
  private closing = false;
  /** Called when an fsync has returned and no other is due. */
  onIdle: () => void = () => undefined;

  /** Whether an fsync is running now. */
  get busy(): boolean {
    return this.running;
  }

  constructor(
    private readonly walFile: string,
    private readonly fsyncFn: FsyncFn = fsync,
  ) {
    try {
      this.fd = openSync(walFile, 'r');
    } catch {
      // Not created yet: opened at the first sync, after a commit has created it.
    }
  }

  /** Resolves once everything committed before this call is on the disk. */
  sync(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      this.next();
    });
  }

  /** Closes the descriptor once the fsync in progress (if any) is done. */
  close(): void {
    this.closing = true;
    if (!this.running) this.release();
  }

  private next(): void {
    if (this.running || this.waiters.length === 0) return;
    const group = this.waiters;
    this.waiters = [];
    let fd: number;
    try {
      fd = this.fd ??= openSync(this.walFile, 'r');
    } catch (err) {
      for (const w of group) w.reject(err);
      return;
    }
    this.running = true;
    this.fsyncFn(fd, (err) => {
      this.running = false;
      for (const w of group) {
        if (err) w.reject(err);
        else w.resolve();
      }
      if (this.waiters.length > 0) return this.next();
      if (this.closing) this.release();
      // Changes held for this fsync commit now (also while closing: a held change is never dropped).
      this.onIdle();
    });
  }

  private release(): void {
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      // Already closed: nothing to release.
    }
    this.fd = undefined;
  }
}
