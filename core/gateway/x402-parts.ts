/**
 * What every surface that takes x402 payments shares (the paid path and the MCP tools): the
 * checkout (facilitator, nonce ledger, signature check), the payment requests each endpoint
 * offers, and the per-client rate of requests carrying a payment. Built once by the composition
 * root; undefined checkout and offers when payments are not configured.
 */
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config';
import { RequestLog } from '../http/logging';
import type { TokenBucketTables } from '../http/token-buckets';
import { X402Checkout } from '../payments/checkout';
import { TransferSignatureVerifier } from '../payments/eip3009-signature';
import { createFacilitator } from '../payments/facilitator-selection';
import { NonceLedger } from '../payments/nonce-ledger';
import { buildPaymentOffers } from '../payments/offers';
import type { PaymentLedgerRepository } from '../payments/payment-ledger-repository';
import { paymentTerms, type PaymentTerms } from '../payments/requirements';
import { SettlementAudit } from '../payments/settlement-audit';
import type { PluginRegistry } from '../plugins/registry';
import type { EndpointExecutor } from '../surfaces/execute';
import type { PaidSurface } from '../surfaces/paid';
import type { Clock } from '../util/clock';

export const DEFAULT_FACILITATOR_TIMEOUT_MS = 30_000;

export interface X402PartsDeps {
  readonly config: GatewayConfig;
  readonly registry: PluginRegistry;
  readonly executor: EndpointExecutor;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The listing's service name (the seller metadata of every payment request). */
  readonly serviceName: string;
  /** The x402 payments' records (nonces, settlements). */
  readonly payments: PaymentLedgerRepository;
  /** Where the per-client payment buckets live (this process, or a cluster's primary). */
  readonly tokenBuckets: TokenBucketTables;
}

export async function buildX402Parts(s: X402PartsDeps): Promise<PaidSurface> {
  const terms = paymentTerms(s.config);
  const checkout = terms.configured ? await createCheckout(s, terms) : undefined;
  const offers = terms.configured
    ? await buildPaymentOffers(
        {
          baseUrl: s.config.baseUrl,
          serviceName: s.serviceName,
          registry: s.registry,
          logger: s.logger,
          answer: (plugin, query, id) =>
            s.executor.run(plugin, s.executor.parse(plugin, query), {
              id,
              log: new RequestLog(s.logger, id),
            }),
        },
        terms,
      )
    : undefined;
  const paymentRate = s.tokenBuckets('paid_payments', s.config.limits.paidPaymentsPerMinute, 60_000);
  return { checkout, offers, paymentRate };
}

async function createCheckout(s: X402PartsDeps, terms: PaymentTerms): Promise<X402Checkout> {
  const x = s.config.x402;
  const timeoutMs = x.facilitatorTimeoutMs ?? DEFAULT_FACILITATOR_TIMEOUT_MS;
  const timeoutSeconds = Math.ceil(timeoutMs / 1000);
  const claimLeaseSeconds = 2 * timeoutSeconds + 60;
  const ledger = new NonceLedger(s.payments, s.clock, claimLeaseSeconds);
  return new X402Checkout({
    terms,
    facilitator: await createFacilitator(s.config, terms, ledger, timeoutMs, s.logger),
    ledger,
    clock: s.clock,
    verifier: new TransferSignatureVerifier({
      name: terms.assetName,
      version: terms.assetVersion,
      chainId: terms.chainId,
      verifyingContract: terms.asset,
    }),
    claimLeaseSeconds,
    settleLeaseSeconds: timeoutSeconds + 60,
    origin: s.config.baseUrl,
    ...(x.rpcUrl ? { chain: new SettlementAudit(x.rpcUrl) } : {}),
  });
}
