/**
 * The store's failures, as the layers above it see them. The HTTP error model answers the
 * unavailable store through the class it declares (RecordingUnavailableError), so it does not
 * depend on the store.
 */
import { RecordingUnavailableError } from '../http/errors';

/** Thrown when the store cannot be reached or cannot write; answered 503, never charged. */
export class StoreUnavailableError extends RecordingUnavailableError {
  constructor(cause: unknown) {
    super(`the store is unavailable: ${String((cause as Error)?.message ?? cause).slice(0, 200)}`, { cause });
    this.name = 'StoreUnavailableError';
  }
}

/**
 * No store where one was asked for and none may be created (payments:reconcile on a data
 * directory or database that holds no store).
 */
export class StoreAbsentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreAbsentError';
  }
}

/**
 * The store that was here is missing, empty, unreadable or damaged: never replaced by an empty one
 * (every key and balance would be gone). The message says what, where, and how to restore it or
 * to start afresh on purpose.
 */
export class StoreLostError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreLostError';
  }
}

export class DuplicateKeyError extends Error {
  constructor(message = 'duplicate key') {
    super(message);
    this.name = 'DuplicateKeyError';
  }
}
