/**
 * A gateway on loopback with the kernel's fixture watch source, an injectable clock and watch
 * settings (resolver, timings), on SQLite or on MongoDB (a database of its own); and a webhook
 * receiver on loopback that records every request and answers as the test says.
 */
import 'reflect-metadata';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { container } from 'tsyringe';
import { buildGateway, type Gateway } from '../../../core/gateway/app';
import type { Clock } from '../../../core/util/clock';
import { WATCH_SOURCE } from '../../../core/plugins/watch-source';
import type { WatchSettings } from '../../../core/watches/watches';
import { loadConfig } from '../../../config/env';
import { PRODUCTS } from '../../../config/products';
import { SERVICE } from '../../../config/service';
import { FIXTURE_PLUGINS_DIR, readResponse, type TestResponse } from '../../support/gateway';
import { FixtureFeed, fixtureSourceFactory } from './fixture-source';

export interface WatchGateway {
  url: string;
  gateway: Gateway;
  feed: FixtureFeed;
  call(method: string, p: string, body?: unknown, headers?: Record<string, string>): Promise<TestResponse>;
  /** A new key with `credit` micro-USDC of trial credit (the gateway's default when omitted). */
  newKey(): Promise<string>;
  close(): Promise<void>;
}

export interface WatchGatewayOptions {
  env?: Record<string, string>;
  clock?: Clock;
  watches?: Partial<WatchSettings>;
  /** Run on this MongoDB deployment instead of SQLite. */
  mongodbUri?: string;
  /**
   * Use this data directory (and, on MongoDB, the database env.MONGODB_DB names), and leave both
   * as they are at close: the caller's to look at and remove.
   */
  dataDir?: string;
}

let databases = 0;

export function baseEnv(
  dataDir: string,
  extra: Record<string, string> = {},
  mongodbUri?: string,
  db?: string,
) {
  return {
    LOG_LEVEL: 'silent',
    HOST: '127.0.0.1',
    PORT: '0',
    BASE_URL: 'http://gateway.test',
    DATA_DIR: dataDir,
    KEY_CREATE_LIMIT_PER_HOUR: '10000',
    KEY_CREATE_LIMIT_PER_HOUR_PER_IPV6_64: '10000',
    TRIAL_CREDIT_DAILY_BUDGET_MICRO_USDC: '1000000000000',
    CONCURRENT_REQUESTS_PER_CLIENT: '10000',
    ...(mongodbUri
      ? {
          MONGODB_URI: mongodbUri,
          MONGODB_DB: db ?? `jpgw_watches_${process.pid}_${Date.now()}_${++databases}`,
        }
      : {}),
    ...extra,
  };
}

export async function startWatchGateway(options: WatchGatewayOptions = {}): Promise<WatchGateway> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'jpgw-watches-'));
  const feed = new FixtureFeed(path.join(dataDir, 'feed.sqlite'));
  const env = baseEnv(dataDir, options.env, options.mongodbUri);
  const scope = container.createChildContainer();
  scope.register(WATCH_SOURCE, { useValue: fixtureSourceFactory(feed) });
  const gateway = await buildGateway({
    config: loadConfig(env).gateway,
    service: SERVICE,
    products: PRODUCTS,
    pluginDirs: [FIXTURE_PLUGINS_DIR],
    container: scope,
    clock: options.clock,
    watches: { pollMs: 50, ...options.watches },
  });
  const { port } = await gateway.listen(0, '127.0.0.1');
  const url = `http://127.0.0.1:${port}`;
  const call = async (method: string, p: string, body?: unknown, headers: Record<string, string> = {}) =>
    readResponse(
      await fetch(url + p, {
        method,
        headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      }),
    );
  return {
    url,
    gateway,
    feed,
    call,
    async newKey() {
      const r = await call('POST', '/keys/create', { owner_label: 'watch test' });
      if (r.status !== 201) throw new Error(`key not created: ${r.status} ${r.text}`);
      return r.body.api_key as string;
    },
    async close() {
      await gateway.close();
      feed.close();
      if (options.dataDir) return;
      rmSync(dataDir, { recursive: true, force: true });
      if (env.MONGODB_URI) {
        const client = await MongoClient.connect(env.MONGODB_URI);
        await client
          .db(env.MONGODB_DB)
          .dropDatabase()
          .finally(() => client.close());
      }
    },
  };
}

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** How the next requests are answered: a status (and headers), or 'hang' (never answered). */
  answer: (r: Received) => { status: number; headers?: Record<string, string> } | 'hang';
  /** Resolves once `n` requests have arrived. */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  /** The requests it holds open now, and the most it held at once (a sender's concurrency). */
  open: number;
  mostOpen: number;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const hanging: http.ServerResponse[] = [];
  const receiver: Receiver = {
    url: '',
    received,
    open: 0,
    mostOpen: 0,
    answer: () => ({ status: 204 }),
    async waitFor(n, timeoutMs = 10_000) {
      const end = Date.now() + timeoutMs;
      while (received.length < n) {
        if (Date.now() > end) throw new Error(`the receiver got ${received.length} of ${n} requests`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return received.slice(0, n);
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  const server = http.createServer((req, res) => {
    receiver.mostOpen = Math.max(receiver.mostOpen, ++receiver.open);
    res.on('close', () => receiver.open--);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      received.push(r);
      const a = receiver.answer(r);
      if (a === 'hang') {
        hanging.push(res);
        return;
      }
      res.writeHead(a.status, a.headers ?? {}).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}

/** Waits until `check` returns a value (not undefined), polling. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 10_000,
  what = 'condition',
  everyMs = 25,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** A clock tests move forward. */
export class MovableClock implements Clock {
  private offset = 0;
  now(): Date {
    return new Date(Date.now() + this.offset);
  }
  advance(ms: number): void {
    this.offset += ms;
  }
}
