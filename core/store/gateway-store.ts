/**
 * The gateway's storage: one repository per aggregate, each with exactly two implementations
 * (SQLite, the embedded default, and MongoDB, for deployments that outgrow one machine), held to
 * one behavioural contract suite (test/core/store/*-contract.ts). Nothing outside core/store/
 * knows which store it has: a domain that keeps data of its own (the corporate registry) hands
 * the store a RepositoryFactory with both implementations, and the store picks.
 */
import type { Db, IndexDescription } from 'mongodb';
import type { FeedbackRepository } from '../feedback/feedback-repository';
import type { IdempotencyRepository } from '../keys/idempotency-repository';
import type { KeyCreditRepository } from '../keys/key-credit-repository';
import type { TrialBudgetRepository } from '../keys/trial-budget-repository';
import type { PaymentLedgerRepository } from '../payments/payment-ledger-repository';
import type { RateWindowRepository } from '../ratelimit/rate-window-repository';
import type { Migration, SqliteDatabase } from './sqlite/database';

/** Small named values the deployment shares (the client-identity salt). */
export interface MetaRepository {
  /** The value stored under `name`; when there is none, `fresh` is stored and returned (atomic). */
  getOrCreate(name: string, fresh: string): Promise<string>;
}

export interface SqliteContext {
  /**
   * Opens a database file of the domain's own in the store's directory (`<name>.sqlite`, WAL,
   * full fsync, migrated), closed with the store. A separate file keeps a long import from
   * holding the write lock that debits need. Once created it is marked, and a start that finds it
   * lost refuses (store-files.ts).
   */
  openDatabase(name: string, migrations: readonly Migration[]): SqliteDatabase;
}

export interface MongoContext {
  /**
   * The database. The collections a domain reaches through it (and through ensureIndexes) are its
   * set: the store marks them, and a start that finds one gone refuses (store-markers.ts).
   */
  readonly db: Db;
  /**
   * Creates the collection's indexes (once, at boot); an existing index of the same name with
   * other options stops the boot with a message naming both.
   */
  ensureIndexes(collection: string, indexes: IndexDescription[]): Promise<void>;
  /** The bound on every query a buyer can trigger (milliseconds). */
  readonly maxTimeMS: number;
}

/**
 * What a part of the store keeps, in the words of the refusal to start once it is lost (each a
 * phrase of one line, without a full stop).
 */
export interface StoreContents {
  /** Follows "It holds": "every webhook watch, its signing secret and its undelivered events". */
  readonly holds: string;
  /** Follows "To start afresh on purpose,": "with no watches (their owners create them again)". */
  readonly afresh: string;
}

/** What the gateway's own part of the store keeps (gateway.sqlite, or its MongoDB collections). */
export const GATEWAY_CONTENTS: StoreContents = {
  holds: 'every API key, balance and x402 payment record',
  afresh: 'with no keys and no balances',
};

/**
 * Both implementations of a domain's repository; the store calls the one it has, once. What it
 * holds is written beside its data (the marker), so a start that finds the data gone says so.
 */
export interface RepositoryFactory<T> extends StoreContents {
  readonly name: string;
  sqlite(ctx: SqliteContext): T;
  mongodb(ctx: MongoContext): Promise<T>;
}

export interface GatewayStore {
  readonly kind: 'sqlite' | 'mongodb';
  /** Where the data lives, for /health and logs (a path, or the MongoDB database name). */
  readonly location: string;
  readonly keys: KeyCreditRepository;
  readonly payments: PaymentLedgerRepository;
  readonly idempotency: IdempotencyRepository;
  readonly rateWindows: RateWindowRepository;
  /** The daily budget of free trial credit for new keys. */
  readonly trialBudget: TrialBudgetRepository;
  readonly feedback: FeedbackRepository;
  readonly meta: MetaRepository;
  /** The repository a factory makes for this store; one instance per factory. */
  open<T>(factory: RepositoryFactory<T>): Promise<T>;
  /** Checks that the store can still commit a write (for /health). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const GATEWAY_STORE = Symbol.for('jp-gateway:gateway-store');
