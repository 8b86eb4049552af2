/**
 * Starts the real gateway on a loopback port for a test, with an isolated data directory and
 * explicit settings (the ambient environment is never read).
 */
import type { AnswerCacheLimits } from '../../core/surfaces/answer-cache';
import { MongoClient } from 'mongodb';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { createGateway } from '../../main';
import type { Gateway } from '../../core/gateway/app';
import { fixedClock, type Clock } from '../../core/util/clock';

/** The kernel's own fixture plugins (test/fixtures/plugins/, compiled): never a product plugin. */
export const FIXTURE_PLUGINS_DIR = path.join(__dirname, '..', 'fixtures', 'plugins');

export interface TestGatewayOptions {
  env?: Record<string, string>;
  /** Plugin folders to load (default: all). */
  plugins?: string[];
  pluginDirs?: string[];
  mountDrafts?: boolean;
  /** Limits of the gateway's cache of deterministic answers; false: none. */
  answerCache?: AnswerCacheLimits | false;
  /** A Clock, or an ISO instant to stop the clock at. */
  clock?: Clock | string;
  /** Collects every log line written while the gateway runs. */
  logs?: string[];
}

export interface TestGateway {
  url: string;
  gateway: Gateway;
  dataDir: string;
  /** The environment the gateway was configured from. */
  env: Readonly<Record<string, string>>;
  get(pathAndQuery: string, headers?: Record<string, string>): Promise<TestResponse>;
  post(pathAndQuery: string, body: unknown, headers?: Record<string, string>): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  // Tests read arbitrary JSON shapes.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export async function readResponse(res: Response): Promise<TestResponse> {
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (e.g. the text-only 401): tests read `text`.
  }
  return { status: res.status, headers: res.headers, text, body };
}

/** TEST_STORE=mongodb (with MONGODB_URI): test gateways use MongoDB instead of SQLite. */
const ON_MONGODB = process.env.TEST_STORE === 'mongodb' && Boolean(process.env.MONGODB_URI);
let databases = 0;

/** A database per gateway; a restart on the same DATA_DIR finds the same database. */
function mongoDatabaseFor(dataDir: string | undefined): string {
  if (!dataDir) return `jpgw_e2e_${process.pid}_${++databases}`;
  return `jpgw_e2e_${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}`;
}

/** Everything the gateway stored, as text (to check that no secret is in it). */
export async function storedText(gw: TestGateway): Promise<string> {
  const uri = gw.env.MONGODB_URI;
  if (!uri) {
    const dir = path.join(gw.dataDir, 'store');
    return readdirSync(dir)
      .map((f) => readFileSync(path.join(dir, f), 'latin1'))
      .join('\n');
  }
  const client = await MongoClient.connect(uri);
  try {
    const db = client.db(gw.env.MONGODB_DB);
    const parts: string[] = [];
    for (const { name } of await db.listCollections().toArray()) {
      parts.push(JSON.stringify(await db.collection(name).find({}).toArray()));
    }
    return parts.join('\n');
  } finally {
    await client.close();
  }
}

/**
 * The store settings of a gateway on `dataDir` as startTestGateway gives them (with TEST_STORE=mongodb,
 * the database named for it), for a gateway process that must share its store with test gateways.
 */
export function storeEnvFor(dataDir: string): Record<string, string> {
  return {
    DATA_DIR: dataDir,
    ...(ON_MONGODB ? { MONGODB_URI: process.env.MONGODB_URI!, MONGODB_DB: mongoDatabaseFor(dataDir) } : {}),
  };
}

/** Removes the store of `dataDir` (storeEnvFor): the directory, and its database on MongoDB. */
export async function removeStoreFor(dataDir: string): Promise<void> {
  rmSync(dataDir, { recursive: true, force: true });
  if (ON_MONGODB) await dropMongoDatabase(process.env.MONGODB_URI!, mongoDatabaseFor(dataDir));
}

async function dropMongoDatabase(uri: string, db: string): Promise<void> {
  const client = await MongoClient.connect(uri);
  try {
    await client.db(db).dropDatabase();
  } finally {
    await client.close();
  }
}

export async function startTestGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'jpgw-test-'));
  const logs = options.logs;
  const logDestination = logs
    ? new Writable({
        write(chunk, _enc, cb) {
          logs.push(...String(chunk).split('\n').filter(Boolean));
          cb();
        },
      })
    : undefined;
  const env: Record<string, string> = {
    LOG_LEVEL: logs ? 'info' : 'silent',
    HOST: '127.0.0.1',
    PORT: '0',
    BASE_URL: 'http://gateway.test',
    DATA_DIR: dataDir,
    // Tests create many keys and feedback from one address; the limit tests set their own.
    KEY_CREATE_LIMIT_PER_HOUR: '10000',
    KEY_CREATE_LIMIT_PER_HOUR_PER_IPV6_64: '10000',
    FEEDBACK_LIMIT_PER_HOUR: '10000',
    // Tests grant keys large trial credit; the daily budget has its own tests.
    TRIAL_CREDIT_DAILY_BUDGET_MICRO_USDC: '1000000000000',
    CONCURRENT_REQUESTS_PER_CLIENT: '10000',
    PAID_PAYMENTS_PER_MINUTE: '1000000',
    PREVIEW_REQUESTS_PER_MINUTE: '1000000',
    // CI's MongoDB leg runs the end-to-end suites again with every gateway on its own database.
    ...(ON_MONGODB
      ? { MONGODB_URI: process.env.MONGODB_URI!, MONGODB_DB: mongoDatabaseFor(options.env?.DATA_DIR) }
      : {}),
    ...options.env,
  };
  const clock = typeof options.clock === 'string' ? fixedClock(options.clock) : options.clock;
  const gateway = await createGateway({
    env,
    clock,
    logDestination,
    onlyPlugins: options.plugins,
    mountDrafts: options.mountDrafts,
    ...(options.answerCache !== undefined ? { answerCache: options.answerCache } : {}),
    ...(options.pluginDirs ? { pluginDirs: options.pluginDirs } : {}),
  });
  const { port } = await gateway.listen(0, '127.0.0.1');
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    gateway,
    dataDir,
    env,
    get: async (p, headers = {}) => readResponse(await fetch(url + p, { headers })),
    post: async (p, body, headers = {}) =>
      readResponse(
        await fetch(url + p, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: typeof body === 'string' ? body : JSON.stringify(body),
        }),
      ),
    async close() {
      await gateway.close();
      rmSync(dataDir, { recursive: true, force: true });
      // A database named for a DATA_DIR the test chose may be reopened (restart tests).
      if (env.MONGODB_URI && !options.env?.DATA_DIR)
        await dropMongoDatabase(env.MONGODB_URI, env.MONGODB_DB!);
    },
  };
}
