/**
 * Configuration from the environment, checked at boot. The environment is read with the same
 * DTO machinery as buyer queries, so a bad value stops the start with a message naming the
 * variable, what was wrong and what is accepted.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import type { GatewayConfig } from '../core/config';
import { Doc, Rule, ToInt } from '../core/plugins/query-rules';
import { QuerySpec } from '../core/plugins/query-spec';
import { redactSecrets } from '../core/util/redact';
import type { UpstreamConfig } from '../domain/shared/tokens';
import { PROJECT_ROOT } from './paths';

/** USDC on Base mainnet and its EIP-712 domain (name "USD Coin", version "2"). */
const USDC_ON_BASE = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** Web origins as a browser sends them: scheme, host (or [IPv6]), optional port; no path. */
const ORIGIN = String.raw`https?://(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?`;
const ORIGIN_LIST = new RegExp(`^${ORIGIN}(?: *, *${ORIGIN})*$`);
/** More processes than this on one machine is a typo, not a plan: run more machines instead. */
export const MAX_WORKERS = 64;
const WORKERS_TEXT = /^(auto|[1-9][0-9]*)$/;

export class EnvSchema {
  @Doc({ description: 'TCP port to listen on (0 picks a free port)' })
  @IsOptional()
  @ToInt()
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT: number = 8080;

  @Doc({ description: 'Interface to listen on' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  HOST: string = '0.0.0.0';

  @Doc({
    description: 'Public base address used in discovery documents',
    defaultText: 'http://localhost:$PORT',
  })
  @IsOptional()
  @Matches(/^https?:\/\/[^\s/]+(\/[^\s]*)?$/)
  BASE_URL?: string;

  @Doc({
    description: `Gateway processes serving the one port over the one store (node:cluster): 1 runs a single process; more run a primary that starts them, replaces any that dies and stops them all on SIGTERM; auto is one per core (the CPUs this process may use). Up to ${MAX_WORKERS}`,
  })
  @IsOptional()
  @Rule(
    'workers',
    (v) => typeof v === 'string' && WORKERS_TEXT.test(v) && (v === 'auto' || Number(v) <= MAX_WORKERS),
    {
      code: 'invalid_workers',
      message: `must be auto or a number of processes from 1 to ${MAX_WORKERS}`,
      accepted: `auto (one per core) or an integer from 1 to ${MAX_WORKERS}`,
    },
  )
  WORKERS: string = '1';

  @Doc({ description: 'Directory of the SQLite store (store/gateway.sqlite, store/registry.sqlite)' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  DATA_DIR: string = './var';

  @Doc({ description: 'MongoDB connection string; when set, MongoDB replaces the SQLite store' })
  @IsOptional()
  @Matches(/^mongodb(\+srv)?:\/\/\S+$/)
  MONGODB_URI?: string;

  @Doc({ description: 'MongoDB database name' })
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{1,63}$/)
  MONGODB_DB: string = 'jp_gateway';

  @Doc({
    description:
      "1: the gateway (and npm run import:registry) never creates a store: a DATA_DIR without store/gateway.sqlite, or a MongoDB database without the store's collections, refuses the start. Set it once the store exists, so that a volume that was not mounted or a dropped database is noticed (docs/operations.md, Backup and restore). 0: a new store is created where there is none",
  })
  @IsOptional()
  @IsIn(['0', '1'])
  STORE_MUST_EXIST: string = '0';

  @Doc({ description: 'Free trial credit granted to every new API key, in micro-USDC' })
  @IsOptional()
  @ToInt()
  @IsInt()
  @Min(0)
  @Max(100_000_000)
  TRIAL_CREDIT_MICRO_USDC: number = 250_000;

  @Doc({
    description:
      'Free trial credit all API keys created on one UTC day may be granted together, in micro-USDC (default: 200 keys of the default credit, USD 50); once spent, POST /keys/create answers 429 trial_budget_exhausted until 00:00 UTC. 0 stops trial keys',
  })
  @IsOptional()
  @ToInt()
  @IsInt()
  @Min(0)
  @Max(1_000_000_000_000)
  TRIAL_CREDIT_DAILY_BUDGET_MICRO_USDC: number = 50_000_000;

  @Doc({ description: 'Receiving wallet of x402 payments; unset means the paid surface answers 503' })
  @IsOptional()
  @Matches(ADDRESS)
  X402_PAY_TO?: string;

  @Doc({ description: 'CAIP-2 network of x402 payments' })
  @IsOptional()
  @Matches(/^eip155:[0-9]{1,12}$/)
  X402_NETWORK: string = 'eip155:8453';

  @Doc({ description: 'Token contract of x402 payments (an EIP-3009 token such as USDC)' })
  @IsOptional()
  @Matches(ADDRESS)
  X402_ASSET: string = USDC_ON_BASE;

  @Doc({ description: "EIP-712 domain name of the token contract (USDC on Base: 'USD Coin')" })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  X402_ASSET_NAME: string = 'USD Coin';

  @Doc({ description: 'EIP-712 domain version of the token contract' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(20)
  X402_ASSET_VERSION: string = '2';

  @Doc({
    description:
      "Who verifies and settles x402 payments: 'remote' (the facilitator at X402_FACILITATOR_URL) or 'self' (the x402 reference facilitator in the gateway, sending transactions with X402_SETTLER_PRIVATE_KEY through X402_RPC_URL; docs/payments.md)",
  })
  @IsOptional()
  @IsIn(['remote', 'self'])
  X402_FACILITATOR: 'remote' | 'self' = 'remote';

  @Doc({
    description:
      'JSON-RPC endpoint of a node on X402_NETWORK: required with X402_FACILITATOR=self; with either facilitator, the gateway reads the chain to decide unknown settlements whose authorization expired and to check smart-wallet Sign-In-With-X proofs, and npm run payments:reconcile checks settled transfers through it (treated as a secret: RPC URLs often carry an API key)',
  })
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/)
  X402_RPC_URL?: string;

  @Doc({
    description:
      'Private key (0x + 64 hex) of the wallet that sends settlement transactions and pays their gas, for X402_FACILITATOR=self; it never receives the payments (X402_PAY_TO does)',
  })
  @IsOptional()
  @Matches(/^0x[0-9a-fA-F]{64}$/)
  X402_SETTLER_PRIVATE_KEY?: string;

  @Doc({ description: 'x402 facilitator base URL (POST /verify, POST /settle)' })
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/)
  X402_FACILITATOR_URL?: string;

  @Doc({ description: 'Authorization header value sent to the facilitator' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  X402_FACILITATOR_AUTH?: string;

  @Doc({
    description:
      "Milliseconds to wait for the facilitator's /verify or /settle answer; a settle answer that does not come in time leaves the payment reserved for a retry with the same payment",
  })
  @IsOptional()
  @ToInt()
  @IsInt()
  @Min(100)
  @Max(120_000)
  X402_FACILITATOR_TIMEOUT_MS: number = 30_000;

  @Doc({ description: 'Seconds a signed payment may take to be settled (maxTimeoutSeconds)' })
  @IsOptional()
  @ToInt()
  @IsInt()
  @Min(10)
  @Max(3600)
  X402_MAX_TIMEOUT_SECONDS: number = 300;

  @Doc({ description: 'The fixed marketplace path segment, /marketplace/{segment}/v1/...' })
  @IsOptional()
  @Matches(/^[a-z0-9][a-z0-9-]{0,39}$/)
  MARKETPLACE_SEGMENT: string = 'partner';

  @Doc({ description: 'Comma-separated accepted marketplace shared secrets (each 16+ characters)' })
  @IsOptional()
  @Matches(/^[^,\s]{16,}(,[^,\s]{16,})*$/)
  MARKETPLACE_SECRETS?: string;

  @Doc({ description: 'NTA corporate-number Web-API application id; unset means snapshot data only' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  NTA_HOUJIN_APP_ID?: string;

  @Doc({ description: 'NTA corporate-number Web-API base URL' })
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/)
  NTA_HOUJIN_BASE_URL: string = 'https://api.houjin-bangou.nta.go.jp/4';

  @Doc({ description: 'NTA qualified-invoice-issuer Web-API application id; unset means snapshot data only' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  NTA_INVOICE_APP_ID?: string;

  @Doc({ description: 'NTA qualified-invoice-issuer Web-API base URL' })
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/)
  NTA_INVOICE_BASE_URL: string = 'https://web-api.invoice-kohyo.nta.go.jp/1';

  @Doc({ description: 'jGrants public API base URL; unset means the dated snapshot only' })
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/)
  JGRANTS_BASE_URL?: string;

  @Doc({
    description:
      "Express 'trust proxy': how client addresses are read behind a load balancer (false, true, a hop count, loopback, or addresses/CIDRs)",
  })
  @IsOptional()
  @Matches(/^(true|false|loopback|linklocal|uniquelocal|[0-9]{1,2}|[0-9A-Fa-f.:/, ]{2,500})$/)
  TRUST_PROXY: string = 'false';

  @Doc({ description: 'API keys one client address may create per hour (free credit cannot be farmed)' })
  @IsOptional()
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(10_000)
  KEY_CREATE_LIMIT_PER_HOUR: number = 5;

  @Doc({
    description:
      "API keys all addresses of one IPv6 /64 (one subscriber's usual allocation) may create per hour together; each address also keeps KEY_CREATE_LIMIT_PER_HOUR",
  })
  @IsOptional()
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(10_000)
  KEY_CREATE_LIMIT_PER_HOUR_PER_IPV6_64: number = 5;

  @Doc({
    description:
      'Comma-separated exact origins (scheme://host[:port]) whose web pages may call POST /keys/create from a browser; unset means no origin may (no CORS headers on that path)',
  })
  @IsOptional()
  @Matches(ORIGIN_LIST)
  KEYS_CREATE_ALLOWED_ORIGINS?: string;

  @Doc({ description: 'Feedback records one client address may send per hour' })
  @IsOptional()
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(10_000)
  FEEDBACK_LIMIT_PER_HOUR: number = 20;

  @Doc({ description: 'Calls one API key may make per minute (broker and MCP tool calls together)' })
  @IsOptional()
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(100_000)
  BROKER_LIMIT_PER_MINUTE: number = 300;

  @Doc({
    description:
      'Requests one client address may have in flight at once on the paid, broker and MCP (/mcp) paths',
  })
  @IsOptional()
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(10_000)
  CONCURRENT_REQUESTS_PER_CLIENT: number = 32;

  @Doc({
    description:
      'Requests carrying a payment (paid paths and MCP tool calls with x402 in _meta) that one client address (an IPv6 client by its /64) may send per minute (a token bucket: this many at once, refilled evenly over the minute); more get 429 rate_limited (a tool error on MCP) before any check or facilitator call',
  })
  @IsOptional()
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  PAID_PAYMENTS_PER_MINUTE: number = 600;

  @Doc({
    description:
      'Requests one client address (an IPv6 client by its /64) may send per minute to the free preview (/preview/v1/... and /preview/mcp; a token bucket: this many at once, refilled evenly over the minute); more get 429 rate_limited with Retry-After. Every preview answer announces the limit in RateLimit and RateLimit-Policy',
  })
  @IsOptional()
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  PREVIEW_REQUESTS_PER_MINUTE: number = 300;

  @Doc({
    description:
      'Seconds after which a broker call still holding credit (or an Idempotency-Key still pending) counts as abandoned by a stopped process: its hold is given back and a retry may take it over. Keep it above the longest call.',
  })
  @IsOptional()
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(86_400)
  ABANDONED_CALL_SECONDS: number = 120;

  @Doc({ description: 'Seconds a client has to send the request headers' })
  @IsOptional()
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(300)
  HEADERS_TIMEOUT_SECONDS: number = 10;

  @Doc({ description: 'Seconds a client has to send the whole request' })
  @IsOptional()
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(600)
  REQUEST_TIMEOUT_SECONDS: number = 30;

  @Doc({ description: 'Seconds a graceful stop (SIGTERM/SIGINT) waits for in-flight requests' })
  @IsOptional()
  @ToInt()
  @IsInt()
  @Min(0)
  @Max(600)
  SHUTDOWN_GRACE_SECONDS: number = 10;

  @Doc({
    description:
      'Bearer token protecting GET /metrics; unset, /metrics answers only requests from the machine itself (loopback, not through a proxy)',
  })
  @IsOptional()
  @IsString()
  @MinLength(16)
  METRICS_TOKEN?: string;

  @Doc({
    description:
      "1: watch webhooks may go to loopback (127.0.0.0/8, ::1), over plain http too, for an operator's tests; every other private, link-local or metadata address stays refused. 0: https to public addresses only",
  })
  @IsOptional()
  @IsIn(['0', '1'])
  WEBHOOK_ALLOW_LOOPBACK: string = '0';

  @Doc({ description: 'pino log level' })
  @IsOptional()
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';
}

export interface AppConfig {
  gateway: GatewayConfig;
  upstreams: UpstreamConfig;
  /** Gateway processes on the port (WORKERS, `auto` resolved to the cores); 1: no cluster. */
  workers: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Variables whose bad value a boot error may quote back, because they are never secret. Every
 * other variable (the secrets, MONGODB_URI, upstream addresses and application ids, which may carry
 * credentials, and any variable added later until it is listed here) is named with its rule only.
 */
const QUOTABLE_VARIABLES = new Set([
  'PORT',
  'HOST',
  'WORKERS',
  'BASE_URL',
  'DATA_DIR',
  'MONGODB_DB',
  'STORE_MUST_EXIST',
  'TRIAL_CREDIT_MICRO_USDC',
  'X402_PAY_TO',
  'X402_NETWORK',
  'X402_ASSET',
  'X402_ASSET_NAME',
  'X402_ASSET_VERSION',
  'X402_FACILITATOR',
  'X402_FACILITATOR_TIMEOUT_MS',
  'X402_MAX_TIMEOUT_SECONDS',
  'MARKETPLACE_SEGMENT',
  'TRUST_PROXY',
  'KEY_CREATE_LIMIT_PER_HOUR',
  'FEEDBACK_LIMIT_PER_HOUR',
  'BROKER_LIMIT_PER_MINUTE',
  'CONCURRENT_REQUESTS_PER_CLIENT',
  'PAID_PAYMENTS_PER_MINUTE',
  'PREVIEW_REQUESTS_PER_MINUTE',
  'KEY_CREATE_LIMIT_PER_HOUR_PER_IPV6_64',
  'TRIAL_CREDIT_DAILY_BUDGET_MICRO_USDC',
  'KEYS_CREATE_ALLOWED_ORIGINS',
  'ABANDONED_CALL_SECONDS',
  'HEADERS_TIMEOUT_SECONDS',
  'REQUEST_TIMEOUT_SECONDS',
  'SHUTDOWN_GRACE_SECONDS',
  'LOG_LEVEL',
  'WEBHOOK_ALLOW_LOOPBACK',
]);
/** Names that are secret whatever the list above says. */
const SECRET_NAME = /_(SECRETS?|TOKENS?|KEYS?|AUTH|PASSWORD|PASS|URI|APP_ID|CREDENTIALS?)(_|$)/;

/** Whether a boot error may quote the value received for `name` (see QUOTABLE_VARIABLES). */
export function quotesValueOf(name: string): boolean {
  return QUOTABLE_VARIABLES.has(name) && !SECRET_NAME.test(name);
}

const envSpec = new QuerySpec(EnvSchema, {});
const VERSION = (
  JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

export function loadConfig(env: Readonly<Record<string, string | undefined>> = process.env): AppConfig {
  const known: Record<string, string> = {};
  for (const p of envSpec.params) {
    const v = env[p.name];
    if (v !== undefined && v !== '') known[p.name] = v;
  }
  const parsed = envSpec.parse(known);
  if (!parsed.ok) {
    throw new ConfigError(
      parsed.problems.map(
        (p) =>
          `${p.parameter}: ${p.problem}${p.received !== undefined && quotesValueOf(p.parameter) ? ` (got "${redactSecrets(p.received)}")` : ''}; accepted: ${p.accepted}`,
      ),
    );
  }
  const e = parsed.value;
  const problems: string[] = [];
  const self = e.X402_FACILITATOR === 'self';
  if (e.X402_PAY_TO && !self && !e.X402_FACILITATOR_URL) {
    problems.push(
      'X402_FACILITATOR_URL: required when X402_PAY_TO is set (payments must be verified and settled), unless X402_FACILITATOR=self',
    );
  }
  if (self) {
    for (const name of ['X402_PAY_TO', 'X402_RPC_URL', 'X402_SETTLER_PRIVATE_KEY'] as const) {
      if (!e[name]) problems.push(`${name}: required when X402_FACILITATOR=self`);
    }
    // Two settlement paths configured at once: which one settles would be a guess.
    if (e.X402_FACILITATOR_URL) {
      problems.push(
        'X402_FACILITATOR_URL: not used when X402_FACILITATOR=self; unset it, or set X402_FACILITATOR=remote',
      );
    }
  }
  if (
    e.TRIAL_CREDIT_DAILY_BUDGET_MICRO_USDC > 0 &&
    e.TRIAL_CREDIT_DAILY_BUDGET_MICRO_USDC < e.TRIAL_CREDIT_MICRO_USDC
  ) {
    problems.push(
      'TRIAL_CREDIT_DAILY_BUDGET_MICRO_USDC: smaller than TRIAL_CREDIT_MICRO_USDC, so no key could be created; raise it (or set 0 to stop trial keys on purpose)',
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);
  const baseUrl = (e.BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    workers: e.WORKERS === 'auto' ? Math.min(availableParallelism(), MAX_WORKERS) : Number(e.WORKERS),
    gateway: {
      version: VERSION,
      port: e.PORT,
      host: e.HOST,
      baseUrl,
      dataDir: path.resolve(e.DATA_DIR),
      ...(e.MONGODB_URI ? { mongodb: { uri: e.MONGODB_URI, db: e.MONGODB_DB } } : {}),
      storeMustExist: e.STORE_MUST_EXIST === '1',
      trialCreditMicroUsdc: e.TRIAL_CREDIT_MICRO_USDC,
      trialCreditDailyBudgetMicroUsdc: e.TRIAL_CREDIT_DAILY_BUDGET_MICRO_USDC,
      keysCreateAllowedOrigins: e.KEYS_CREATE_ALLOWED_ORIGINS
        ? e.KEYS_CREATE_ALLOWED_ORIGINS.split(',').map((o) => o.trim().toLowerCase())
        : [],
      x402: {
        payTo: e.X402_PAY_TO,
        network: e.X402_NETWORK,
        asset: e.X402_ASSET,
        assetName: e.X402_ASSET_NAME,
        assetVersion: e.X402_ASSET_VERSION,
        facilitatorUrl: e.X402_FACILITATOR_URL?.replace(/\/+$/, ''),
        ...(e.X402_RPC_URL ? { rpcUrl: e.X402_RPC_URL } : {}),
        ...(self && e.X402_RPC_URL && e.X402_SETTLER_PRIVATE_KEY
          ? { selfSettlement: { settlerPrivateKey: e.X402_SETTLER_PRIVATE_KEY } }
          : {}),
        facilitatorAuth: e.X402_FACILITATOR_AUTH,
        facilitatorTimeoutMs: e.X402_FACILITATOR_TIMEOUT_MS,
        maxTimeoutSeconds: e.X402_MAX_TIMEOUT_SECONDS,
      },
      marketplace: {
        segment: e.MARKETPLACE_SEGMENT,
        secrets: e.MARKETPLACE_SECRETS ? e.MARKETPLACE_SECRETS.split(',') : [],
      },
      logLevel: e.LOG_LEVEL,
      trustProxy: parseTrustProxy(e.TRUST_PROXY),
      timeouts: {
        headersMs: e.HEADERS_TIMEOUT_SECONDS * 1000,
        requestMs: Math.max(e.REQUEST_TIMEOUT_SECONDS, e.HEADERS_TIMEOUT_SECONDS) * 1000,
        shutdownGraceMs: e.SHUTDOWN_GRACE_SECONDS * 1000,
      },
      ...(e.METRICS_TOKEN ? { metricsToken: e.METRICS_TOKEN } : {}),
      webhooks: { allowLoopback: e.WEBHOOK_ALLOW_LOOPBACK === '1' },
      limits: {
        keyCreatePerHour: e.KEY_CREATE_LIMIT_PER_HOUR,
        keyCreatePerHourPerIpv6Net64: e.KEY_CREATE_LIMIT_PER_HOUR_PER_IPV6_64,
        feedbackPerHour: e.FEEDBACK_LIMIT_PER_HOUR,
        brokerPerMinute: e.BROKER_LIMIT_PER_MINUTE,
        concurrentPerClient: e.CONCURRENT_REQUESTS_PER_CLIENT,
        paidPaymentsPerMinute: e.PAID_PAYMENTS_PER_MINUTE,
        previewPerMinute: e.PREVIEW_REQUESTS_PER_MINUTE,
        abandonedCallMs: e.ABANDONED_CALL_SECONDS * 1000,
      },
    },
    upstreams: {
      ntaHoujin: { appId: e.NTA_HOUJIN_APP_ID, baseUrl: e.NTA_HOUJIN_BASE_URL.replace(/\/+$/, '') },
      ntaInvoice: { appId: e.NTA_INVOICE_APP_ID, baseUrl: e.NTA_INVOICE_BASE_URL.replace(/\/+$/, '') },
      jgrants: { baseUrl: e.JGRANTS_BASE_URL?.replace(/\/+$/, '') },
    },
  };
}

function parseTrustProxy(value: string): boolean | number | string {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (/^[0-9]{1,2}$/.test(value)) return Number(value);
  return value;
}

/** The documented settings (name, meaning, default), for docs and the operator runbook. */
export function describeSettings(): Array<{ name: string; description: string; default?: string }> {
  return envSpec.params.map((p) => ({
    name: p.name,
    description: p.description,
    ...(p.defaultValue !== undefined
      ? { default: String(p.defaultValue) }
      : p.defaultText
        ? { default: p.defaultText }
        : {}),
  }));
}
