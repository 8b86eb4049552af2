/**
 * The gateway's storage: one repository per aggregate, each with exactly two implementations
 * (SQLite, the embedded default, and MongoDB, for deployments that outgrow one machine), held to
 * one behavioural contract suite (test/core/store/*-contract.ts). Nothing outside core/store/
 * knows which store it has: a domain that keeps data of its own (the corporate registry) hands
 * the store a RepositoryFactory with both implementations, and the store picks.
 */
import type { FeedbackRepository } from '../feedback/feedback-repository';
import type { IdempotencyRepository } from '../keys/idempotency-repository';
import type { KeyCreditRepository } from '../keys/key-credit-repository';
import type { TrialBudgetRepository } from '../keys/trial-budget-repository';
import type { PaymentLedgerRepository } from '../payments/payment-ledger-repository';
import type { RateWindowRepository } from '../ratelimit/rate-window-repository';
import {
  PLUGIN_STORE,
  type MongoContext,
  type PluginStore,
  type RepositoryFactory,
  type SqliteContext,
  type StoreContents,
} from '../plugins/storage';

// The contexts and the factory are the plugin contract's (core/plugins/storage.ts); the store's
// own modules keep importing them from here.
export type { MongoContext, RepositoryFactory, SqliteContext, StoreContents };

/** Small named values the deployment shares (the client-identity salt). */
export interface MetaRepository {
  /** The value stored under `name`; when there is none, `fresh` is stored and returned (atomic). */
  getOrCreate(name: string, fresh: string): Promise<string>;
}

/** What the gateway's own part of the store keeps (gateway.sqlite, or its MongoDB collections). */
export const GATEWAY_CONTENTS: StoreContents = {
  holds: 'every API key, balance and x402 payment record',
  afresh: 'with no keys and no balances',
};

export interface GatewayStore extends PluginStore {
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
  /** Checks that the store can still commit a write (for /health). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The store's token: the one domain services get it by (as the narrower PluginStore). */
export const GATEWAY_STORE = PLUGIN_STORE;
