/**
 * A store write that follows a charge or a settlement must not turn into a lost answer: the buyer
 * gets the data, and the write is retried in the background until the store takes it (every
 * second, for ten minutes). Until then, what the write would have recorded is found by the paths
 * that take over an abandoned attempt (a held payment's lease, an idempotency record's hold).
 */
const RETRY_EVERY_MS = 1_000;
const RETRY_FOR_MS = 10 * 60_000;

export interface WriteLog {
  failed(err: unknown): void;
  recovered(): void;
  abandoned(err: unknown): void;
}

export async function writeAfterMoney(write: () => Promise<void>, log: WriteLog): Promise<void> {
  try {
    await write();
  } catch (err) {
    log.failed(err);
    const started = Date.now();
    const retry = () => {
      write().then(
        () => log.recovered(),
        (again: unknown) => {
          if (Date.now() - started < RETRY_FOR_MS) setTimeout(retry, RETRY_EVERY_MS).unref();
          else log.abandoned(again);
        },
      );
    };
    setTimeout(retry, RETRY_EVERY_MS).unref();
  }
}
