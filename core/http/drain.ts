/**
 * In-flight request accounting for a graceful stop: once draining, new requests (arriving on
 * kept-alive connections) get 503 `shutting_down` before anything else, responses ask the client
 * to close the connection, and `idle()` resolves when the last request has finished.
 */
import type { RequestHandler } from 'express';
import { HttpError } from './errors';

export class Drain {
  private inFlight = 0;
  private draining = false;
  private waiters: Array<() => void> = [];

  start(): void {
    this.draining = true;
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

  middleware(): RequestHandler {
    return (_req, res, next) => {
      if (this.draining) {
        res.setHeader('Connection', 'close');
        return next(
          new HttpError(
            503,
            'shutting_down',
            'The gateway is restarting; nothing was charged.',
            { hint: 'Retry in a moment.' },
            { 'Retry-After': '1' },
          ),
        );
      }
      this.inFlight++;
      res.once('close', () => {
        this.inFlight--;
        if (this.draining && this.inFlight === 0) this.wake();
      });
      next();
    };
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }
}
