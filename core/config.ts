/** Settings the kernel needs, already checked (config/env.ts reads them from the environment). */
export interface GatewayConfig {
  /** Release version (package.json), shown in /health and /product-status.json. */
  version: string;
  port: number;
  host: string;
  /** Public base address used in discovery documents, without a trailing slash. */
  baseUrl: string;
  dataDir: string;
  mongodb?: { uri: string; db: string };
  /** STORE_MUST_EXIST=1: a store is never created; where there is none, the start is refused. */
  storeMustExist: boolean;
  trialCreditMicroUsdc: number;
  /** Trial credit all keys created on one UTC day may be granted together (micro-USDC). */
  trialCreditDailyBudgetMicroUsdc: number;
  /** Origins (lowercase) that get CORS on POST /keys/create; empty means none. */
  keysCreateAllowedOrigins: string[];
  x402: {
    payTo?: string;
    network: string;
    asset: string;
    /** EIP-712 domain of the token (name, version), sent in `extra` of the requirements. */
    assetName: string;
    assetVersion: string;
    facilitatorUrl?: string;
    facilitatorAuth?: string;
    /** A node of the network (X402_RPC_URL): self-hosted settlement, and reconciliation against the chain. */
    rpcUrl?: string;
    /** X402_FACILITATOR=self: the reference facilitator runs in the gateway (core/payments/self-facilitator.ts). */
    selfSettlement?: { settlerPrivateKey: string };
    /** How long to wait for the facilitator's /verify or /settle answer (default 30000). */
    facilitatorTimeoutMs?: number;
    maxTimeoutSeconds: number;
  };
  marketplace: { segment: string; secrets: string[] };
  logLevel: string;
  /** Express 'trust proxy' setting (client addresses behind a load balancer). */
  trustProxy: boolean | number | string;
  timeouts: {
    /** The whole request head must arrive within this (slow-header clients). */
    headersMs: number;
    /** The whole request must arrive within this (slow-body clients). */
    requestMs: number;
    /** How long a graceful stop waits for in-flight requests. */
    shutdownGraceMs: number;
  };
  /** When set, GET /metrics needs `Authorization: Bearer <token>`. */
  metricsToken?: string;
  /** Webhooks of watches: WEBHOOK_ALLOW_LOOPBACK=1 lets them go to loopback over http (operators' tests). */
  webhooks: { allowLoopback: boolean };
  limits: {
    keyCreatePerHour: number;
    /** Keys all addresses of one IPv6 /64 may create per hour together. */
    keyCreatePerHourPerIpv6Net64: number;
    feedbackPerHour: number;
    brokerPerMinute: number;
    /** Requests one client may have in flight at once on the paid and broker paths. */
    concurrentPerClient: number;
    /** Requests carrying a payment one client may send per minute on the paid path. */
    paidPaymentsPerMinute: number;
    /** Preview requests one client may send per minute (a token bucket). */
    previewPerMinute: number;
    /** A credit hold or pending idempotency record this old was left by a stopped process. */
    abandonedCallMs: number;
  };
}

/** Whether the paid surface can take payments on this deployment. */
/** The settings that switch x402 payments on (both are needed). */
export const X402_SWITCHES = 'X402_PAY_TO and X402_FACILITATOR_URL';

export function paymentsConfigured(config: GatewayConfig): boolean {
  return Boolean(config.x402.payTo && (config.x402.facilitatorUrl || config.x402.selfSettlement));
}

export function marketplaceConfigured(config: GatewayConfig): boolean {
  return config.marketplace.secrets.length > 0;
}
