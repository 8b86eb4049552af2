/**
 * Every failure of the store reaches callers as one error type: a repository method that throws
 * anything but a DuplicateKeyError (disk full, I/O error, lock timeout, lost connection) throws
 * StoreUnavailableError, which the HTTP layer answers with a clean 503. Each failure is also
 * reported (metrics), and the last one is remembered so /health can say the store is failing
 * until that operation succeeds again.
 * A key whose credit fails its check (KeyCreditCorruptError) is not a store failure: it passes
 * through as it is, refusing that key alone, and /health stays up for every other buyer.
 */
import { KeyCreditCorruptError } from '../keys/key-credit-repository';
import { type GatewayStore, type RepositoryFactory } from './gateway-store';
import { DuplicateKeyError, StoreUnavailableError } from './store-errors';

export interface StoreFailures {
  /** Called with "<repository>.<method>" (or "ping") for each failed operation. */
  onError(operation: string, err: unknown): void;
  /** Called with the same name for each operation that succeeded. */
  onSuccess(operation: string): void;
}

const REPOSITORIES = [
  'keys',
  'payments',
  'idempotency',
  'rateWindows',
  'trialBudget',
  'feedback',
  'meta',
] as const;

function guardRepository<T extends object>(repo: T, name: string, failures: StoreFailures): T {
  // One wrapper per method, made on first use: repositories sit on every paid request's path.
  const wrapped = new Map<string, unknown>();
  return new Proxy(repo, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof prop !== 'string' || typeof value !== 'function') return value;
      if (wrapped.has(prop)) return wrapped.get(prop);
      const operation = `${name}.${prop}`;
      const succeed = <V>(v: V): V => {
        failures.onSuccess(operation);
        return v;
      };
      const guarded = (...args: unknown[]) => {
        const fail = (err: unknown): never => {
          if (
            err instanceof DuplicateKeyError ||
            err instanceof StoreUnavailableError ||
            err instanceof KeyCreditCorruptError
          )
            throw err;
          failures.onError(operation, err);
          throw new StoreUnavailableError(err);
        };
        try {
          const out = (value as (...a: unknown[]) => unknown).apply(target, args);
          return out instanceof Promise ? out.then(succeed, fail) : succeed(out);
        } catch (err) {
          return fail(err);
        }
      };
      wrapped.set(prop, guarded);
      return guarded;
    },
  });
}

export function guardStore(store: GatewayStore, failures: StoreFailures): GatewayStore {
  const guarded = Object.fromEntries(
    REPOSITORIES.map((name) => [name, guardRepository(store[name], name, failures)]),
  ) as Pick<GatewayStore, (typeof REPOSITORIES)[number]>;
  const opened = new Map<RepositoryFactory<unknown>, Promise<unknown>>();
  return {
    kind: store.kind,
    location: store.location,
    ...guarded,
    open<T>(factory: RepositoryFactory<T>): Promise<T> {
      if (!opened.has(factory)) {
        opened.set(
          factory,
          store.open(factory).then((repo) => guardRepository(repo as object, factory.name, failures)),
        );
      }
      return opened.get(factory) as Promise<T>;
    },
    ping: () =>
      store.ping().then(
        () => failures.onSuccess('ping'),
        (err: unknown) => {
          failures.onError('ping', err);
          throw new StoreUnavailableError(err);
        },
      ),
    close: () => store.close(),
  };
}
