/**
 * In-flight request accounting for a graceful stop: the front door counts requests in and out
 * and, once draining, refuses new ones; `idle()` resolves when the last request has finished.
 */

export class Drain {
  private inFlight = 0;
  private stopping = false;
  private waiters: Array<() => void> = [];

  start(): void {
    this.stopping = true;
    if (this.inFlight === 0) this.wake();
  }

  count(): number {
    return this.inFlight;
  }

  /** Resolves true when no request is in flight, or false after `timeoutMs`. */
  idle(timeoutMs: number): Promise<boolean> {
    if (this.inFlight === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  get draining(): boolean {
    return this.stopping;
  }

  enter(): void {
    this.inFlight++;
  }

  leave(): void {
    this.inFlight--;
    if (this.stopping && this.inFlight === 0) this.wake();
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }
}
