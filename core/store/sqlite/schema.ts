/**
 * The embedded store's schema, one numbered step per change (never edit a released step: add
 * one). Amounts are integers (micro-USDC), times are epoch milliseconds.
 */
import type { Migration } from './database';

export const GATEWAY_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'API keys, credit holds and closed calls',
    sql: `
      CREATE TABLE keys (
        id TEXT PRIMARY KEY,
        hash TEXT NOT NULL UNIQUE,
        prefix TEXT NOT NULL,
        owner_label TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        trial_granted INTEGER NOT NULL,
        balance INTEGER NOT NULL CHECK (balance >= 0),
        spent INTEGER NOT NULL DEFAULT 0,
        calls INTEGER NOT NULL DEFAULT 0
      ) STRICT;
      CREATE TABLE holds (
        id TEXT PRIMARY KEY,
        key_id TEXT NOT NULL REFERENCES keys (id),
        amount INTEGER NOT NULL CHECK (amount > 0),
        broker_id TEXT NOT NULL,
        at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX holds_at ON holds (at);
      CREATE INDEX holds_key ON holds (key_id);
      CREATE TABLE calls (
        hold_id TEXT PRIMARY KEY,
        key_id TEXT NOT NULL REFERENCES keys (id),
        broker_id TEXT NOT NULL,
        price INTEGER NOT NULL CHECK (price >= 0),
        status INTEGER NOT NULL,
        at INTEGER NOT NULL,
        request_id TEXT NOT NULL
      ) STRICT;
      CREATE INDEX calls_key_at ON calls (key_id, at);
      CREATE INDEX calls_at ON calls (at);
    `,
  },
  {
    version: 2,
    description: 'x402 payment ledger',
    sql: `
      CREATE TABLE payments (
        id TEXT PRIMARY KEY,
        chain_id INTEGER NOT NULL,
        asset TEXT NOT NULL,
        payer TEXT NOT NULL,
        nonce TEXT NOT NULL,
        endpoint_id TEXT NOT NULL,
        resource TEXT NOT NULL,
        amount TEXT NOT NULL,
        valid_before TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('pending', 'settled', 'settle_unknown', 'released')),
        phase TEXT CHECK (phase IN ('verify', 'settle')),
        claim TEXT,
        lease_until INTEGER,
        tx TEXT,
        reason TEXT,
        attempts INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX payments_expires ON payments (expires_at);
      CREATE INDEX payments_payer ON payments (payer);
    `,
  },
  {
    version: 3,
    description: 'idempotency records',
    sql: `
      CREATE TABLE idempotency (
        id TEXT PRIMARY KEY,
        key_id TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('pending', 'done')),
        created_at INTEGER NOT NULL,
        hold_id TEXT,
        response TEXT
      ) STRICT;
      CREATE INDEX idempotency_created ON idempotency (created_at);
    `,
  },
  {
    version: 4,
    description: 'rate-limit windows and feedback',
    sql: `
      CREATE TABLE rate_windows (
        id TEXT PRIMARY KEY,
        count INTEGER NOT NULL,
        ends_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX rate_windows_ends ON rate_windows (ends_at);
      CREATE TABLE feedback (
        id TEXT PRIMARY KEY,
        product_id TEXT NOT NULL,
        endpoint_id TEXT,
        category TEXT,
        rating INTEGER,
        message TEXT,
        received_at INTEGER NOT NULL,
        client_hash TEXT NOT NULL
      ) STRICT;
      CREATE INDEX feedback_received ON feedback (received_at);
    `,
  },
  {
    version: 5,
    description: 'shared named values (the client-identity salt)',
    sql: `
      CREATE TABLE meta (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 6,
    description: 'sliding rate-limit windows (a log of admitted hits) and the daily trial-credit budget',
    // The fixed windows' counts cannot become hit times: they are dropped, which forgives at most
    // one window's hits once, at the upgrade.
    sql: `
      DROP TABLE rate_windows;
      CREATE TABLE rate_hits (
        subject TEXT NOT NULL,
        at INTEGER NOT NULL,
        id TEXT NOT NULL,
        ends_at INTEGER NOT NULL,
        PRIMARY KEY (subject, at, id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX rate_hits_ends ON rate_hits (ends_at);
      CREATE TABLE trial_budget (
        day TEXT PRIMARY KEY,
        spent INTEGER NOT NULL CHECK (spent >= 0)
      ) STRICT;
    `,
  },
  {
    version: 7,
    description: 'payment bindings (payment, request, redemption ticket) and the unresolved-settlement index',
    sql: `
      ALTER TABLE payments ADD COLUMN payment_hash TEXT;
      ALTER TABLE payments ADD COLUMN request_hash TEXT;
      ALTER TABLE payments ADD COLUMN ticket_hash TEXT;
      CREATE INDEX payments_unresolved ON payments (state, phase) WHERE state IN ('pending', 'settle_unknown');
    `,
  },
  {
    version: 8,
    description: 'payment identifiers (one entry per identifier) and the answers kept for their replays',
    sql: `
      ALTER TABLE payments ADD COLUMN payment_id_hash TEXT;
      ALTER TABLE payments ADD COLUMN answer TEXT;
      ALTER TABLE payments ADD COLUMN answer_expires_at INTEGER;
      CREATE UNIQUE INDEX payments_payment_id ON payments (payment_id_hash) WHERE payment_id_hash IS NOT NULL;
      CREATE INDEX payments_answer_expires ON payments (answer_expires_at) WHERE answer_expires_at IS NOT NULL;
    `,
  },
  {
    version: 9,
    description: "the keys' seal over every field a buyer or the meter reads (the call counter among them)",
    // sha3 is registered on the connection (sql-functions.ts); the text is core/keys/key-seal.ts's.
    // Existing rows are sealed as they are: one that fails its credit sum still fails it.
    sql: `
      ALTER TABLE keys ADD COLUMN seal BLOB;
      UPDATE keys SET seal = sha3(id || '|' || hash || '|' || prefix || '|' || owner_label || '|' || created_at || '|' ||
        trial_granted || '|' || balance || '|' || spent || '|' || calls, 256);
    `,
  },
];
