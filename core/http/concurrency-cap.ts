/**
 * A cap on the requests one client may have in flight at once on the costly paths (paid and
 * broker): the next one gets 429 `too_many_concurrent_requests` with Retry-After before any work.
 * A slot is held until the work ends, not until the connection closes: a client that aborts its
 * requests must not start more facilitator calls than the cap (issue 15). Counted per process in
 * memory (the count lives only as long as the requests); with several processes each enforces
 * its own cap.
 */
import type { Request, RequestHandler, Response } from 'express';
import { HttpError } from './errors';

interface Slot {
  working: boolean;
  release(): void;
}

const SLOT = Symbol('concurrency slot');

type SlotLocals = { [SLOT]?: Slot };

export class ConcurrencyCap {
  private readonly inFlight = new Map<string, number>();

  constructor(readonly limit: number) {}

  /**
   * Takes a slot for the request, or refuses it. Until `work` starts the handler, the slot goes
   * back when the exchange ends (e.g. a body that never arrived); once it started, when it ends.
   */
  readonly admit: RequestHandler = (req, res, next) => {
    const client = clientOf(req);
    const n = this.inFlight.get(client) ?? 0;
    if (n >= this.limit) {
      return next(
        new HttpError(
          429,
          'too_many_concurrent_requests',
          `At most ${this.limit} requests from one client may be in progress at once on this path.`,
          {
            hint: 'Wait for a response before sending more, or retry after the Retry-After delay.',
            limit: this.limit,
          },
          { 'Retry-After': '1' },
        ),
      );
    }
    this.inFlight.set(client, n + 1);
    let held = true;
    const slot: Slot = {
      working: false,
      release: () => {
        if (!held) return;
        held = false;
        const left = (this.inFlight.get(client) ?? 1) - 1;
        if (left <= 0) this.inFlight.delete(client);
        else this.inFlight.set(client, left);
      },
    };
    (res.locals as SlotLocals)[SLOT] = slot;
    res.once('close', () => {
      if (!slot.working) slot.release();
    });
    next();
  };

  /** Runs `handler` holding the request's slot until the handler's promise settles. */
  work(handler: (req: Request, res: Response) => Promise<void>): RequestHandler {
    return async (req, res) => {
      const slot = (res.locals as SlotLocals)[SLOT];
      if (slot) slot.working = true;
      try {
        await handler(req, res);
      } finally {
        slot?.release();
      }
    };
  }

  /** admit + work, for a route with nothing in between. */
  guard(handler: (req: Request, res: Response) => Promise<void>): RequestHandler[] {
    return [this.admit, this.work(handler)];
  }
}

function clientOf(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}
