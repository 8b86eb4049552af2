/**
 * x402 over MCP, tool-result binding (x402 MCP transport, v2): an unpaid call answers a tool
 * result with `isError: true` whose structured content (and first text block) is the x402 v2
 * PaymentRequired of the tool: the same payTo, asset, network and price as the HTTP 402, the
 * resource naming the tool (`mcp://tool/<name>`) with the seller metadata, and the tool's bazaar
 * declaration (core/payments/offers.ts). The client repeats the call with its
 * PaymentPayload in `params._meta["x402/payment"]`; the payment then goes through the same
 * checkout as the paid HTTP path (core/payments/checkout.ts: checks, the nonce claimed in the same
 * payment ledger, /verify, the tool, /settle), so one payment buys one call on MCP and HTTP alike.
 * The data comes back with the SettlementResponse in `result._meta["x402/payment-response"]`; a
 * failed settlement answers only the payment error, never the data.
 */
import type { Request, Response } from 'express';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { previewPathOf } from './lookup';
import { PaymentChallenge, paymentChallenge } from '../payments/challenge';
import { requestFingerprint } from '../payments/checkout';
import { toolResourceUrl, type PaymentOffer } from '../payments/offers';
import { MCP_PAYMENT_META, paymentFromObject } from '../payments/payment-header';
import { PaymentRefusal } from '../payments/refusals';
import { paymentTerms, type PaymentTerms } from '../payments/requirements';
import { paymentsNotConfiguredError } from '../payments/runbook';
import type { HandlerLogger } from '../plugins/contract';
import type { RegisteredPlugin } from '../plugins/registry';
import { clientGone } from '../http/client-gone';
import { HttpError, errorBody } from '../http/errors';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config';
import type { GatewayMetrics } from '../http/metrics';
import type { EndpointExecutor } from './execute';
import type { Run } from './pipeline';
import { paymentOutcomeOf, paymentRateLimited, paymentRateSubject, type PaidSurface } from './paid';
import {
  PAYER_PROOF_META_KEY,
  PAYMENT_META_KEY,
  PAYMENT_RESPONSE_META_KEY,
  REDEMPTION_TICKET_META_KEY,
  REPLAYED_META_KEY,
} from '../mcp/meta-keys';
import { toolError, toolErrorOf, toolResult } from '../mcp/results';

/** What paying a tool call with x402 uses besides the paid surface's checkout. */
export interface X402ToolBindingDeps {
  readonly config: GatewayConfig;
  readonly executor: EndpointExecutor;
  readonly metrics: GatewayMetrics;
  readonly logger: Logger;
}

export class X402ToolBinding {
  readonly terms: PaymentTerms;

  constructor(
    private readonly s: X402ToolBindingDeps,
    private readonly paid: PaidSurface,
  ) {
    this.terms = paymentTerms(s.config);
  }

  /** Whether this deployment takes x402 payments. */
  get configured(): boolean {
    return this.paid.checkout !== undefined;
  }

  /** What the tool's payment requests offer (bazaar discovery, seller metadata), built at boot. */
  private offer(plugin: RegisteredPlugin): PaymentOffer {
    const { offers } = this.paid;
    if (!offers) throw new Error('x402 offers are built whenever payments are configured');
    return offers.mcp(plugin);
  }

  private challenge(plugin: RegisteredPlugin, refusal?: PaymentRefusal): PaymentChallenge {
    return paymentChallenge({
      terms: this.terms,
      plugin,
      offer: this.offer(plugin),
      resourcePath: toolResourceUrl(plugin),
      previewPath: previewPathOf(plugin),
      ...(refusal ? { refusal } : {}),
    });
  }

  /**
   * The x402 v2 PaymentRequired of a challenge (the object of the HTTP PAYMENT-REQUIRED header),
   * with the words of the HTTP 402 and, for a refused payment, why.
   */
  private requiredBody(
    req: Request,
    plugin: RegisteredPlugin,
    ch: PaymentChallenge,
  ): Record<string, unknown> {
    const paymentError = ch.extra.payment_error;
    return {
      ...ch.paymentRequired,
      message: ch.message.replace(
        'repeat this request with the payment in the X-PAYMENT header (PAYMENT-SIGNATURE for x402 v2 clients).',
        `repeat this tool call with the PaymentPayload in params._meta["${PAYMENT_META_KEY}"].`,
      ),
      ...(paymentError ? { payment_error: paymentError } : {}),
      endpoint_id: plugin.endpointId,
      price_micro_usdc: plugin.priceMicroUsdc,
      price_usdc: plugin.priceUsd,
      request_id: String(req.id ?? ''),
    };
  }

  /** The PaymentRequired fields of a tool whose call must be paid (none when payments are off). */
  paymentRequiredFields(req: Request, plugin: RegisteredPlugin): Record<string, unknown> | undefined {
    if (!this.configured) return undefined;
    const { x402Version, resource, accepts, extensions } = this.requiredBody(
      req,
      plugin,
      this.challenge(plugin),
    );
    return { x402Version, resource, accepts, extensions };
  }

  /** The answer to a call without any credential: the payment request, or how to get in. */
  unpaid(req: Request, plugin: RegisteredPlugin): CallToolResult {
    if (!this.configured) {
      const err = paymentsNotConfiguredError(this.s.config, plugin, previewPathOf(plugin));
      return toolError(
        errorBody(req, err.code, err.message, {
          ...err.extra,
          hint: 'This deployment takes no x402 payments yet: send an API key in the X-API-Key header of the MCP requests (POST /keys/create gives one with free trial credit), or use the free preview of the same tools on /preview/mcp.',
        }),
      );
    }
    this.s.metrics.payment('challenged');
    return toolError(this.requiredBody(req, plugin, this.challenge(plugin)));
  }

  /**
   * A call carrying a payment in `_meta`: the checkout, then the data with the settlement. A
   * PaymentPayload carrying a payment identifier gets, when repeated, the same answer again
   * (`_meta["idempotent-replayed"]`).
   */
  async pay(
    req: Request,
    res: Response,
    plugin: RegisteredPlugin,
    query: object,
    meta: Record<string, unknown>,
    run: Run,
  ): Promise<CallToolResult> {
    const { checkout } = this.paid;
    if (!checkout) return this.unpaid(req, plugin);
    const log = (req.log as HandlerLogger | undefined) ?? this.s.logger;
    const rate = await this.paid.paymentRate.take(paymentRateSubject(req));
    if (!rate.allowed) {
      this.s.metrics.payment('refused');
      return toolErrorOf(
        paymentRateLimited(this.s.config.limits.paidPaymentsPerMinute, rate.retryAfterSeconds),
        req,
      );
    }
    const read = paymentFromObject(meta[PAYMENT_META_KEY], MCP_PAYMENT_META);
    if (read.kind !== 'attempt') {
      const refusal = read.kind === 'refused' ? read.refusal : new PaymentRefusal('malformed_payment');
      log.info(
        { x402: { outcome: 'refused', endpoint_id: plugin.endpointId, reason: refusal.code } },
        'x402 payment refused',
      );
      this.s.metrics.payment('refused');
      return toolError(this.requiredBody(req, plugin, this.challenge(plugin, refusal)));
    }
    const url = toolResourceUrl(plugin);
    const ticket = meta[REDEMPTION_TICKET_META_KEY];
    const proof = meta[PAYER_PROOF_META_KEY];
    let handlerFailed = false;
    let result;
    try {
      result = await checkout.process({
        plugin,
        attempt: read.attempt,
        resourcePath: url,
        resourceUrl: url,
        previewPath: previewPathOf(plugin),
        offer: this.offer(plugin),
        requestHash: requestFingerprint(url, query),
        ...(typeof ticket === 'string' && ticket !== '' ? { redemptionTicket: ticket } : {}),
        ...(proof !== undefined && proof !== null ? { payerProof: proof } : {}),
        proofUri: `${this.s.config.baseUrl}${req.originalUrl.split('?')[0]}`,
        log,
        clientGone: () => clientGone(res),
        run: () =>
          run().catch((err: unknown) => {
            handlerFailed = true;
            throw err;
          }),
      });
    } catch (err) {
      this.s.metrics.payment(paymentOutcomeOf(err, handlerFailed));
      if (err instanceof PaymentChallenge) {
        return toolError(
          this.requiredBody(req, plugin, err),
          err.settlement ? { [PAYMENT_RESPONSE_META_KEY]: err.settlement } : undefined,
        );
      }
      const redeemWith = err instanceof HttpError ? err.extra.redeem_with : undefined;
      if (
        err instanceof HttpError &&
        err.code === 'settlement_pending' &&
        (redeemWith === 'payment_identifier' || redeemWith === 'redemption_ticket')
      ) {
        const byIdentifier = redeemWith === 'payment_identifier';
        return toolError(
          errorBody(req, err.code, err.message, {
            ...err.extra,
            hint: byIdentifier
              ? `Do not sign a new payment: repeat this same tool call (same arguments) with the same params._meta["${PAYMENT_META_KEY}"], which carries your payment identifier; it is settled at most once.`
              : `Do not sign a new payment: repeat this same tool call (same arguments) with the same params._meta["${PAYMENT_META_KEY}"] and the redemption ticket in params._meta["${REDEMPTION_TICKET_META_KEY}"]; it is settled at most once.`,
          }),
        );
      }
      return toolErrorOf(err, req);
    }
    this.s.metrics.payment(result.replayed ? 'replayed' : 'settled');
    const body = this.s.executor.frozenEnvelope(plugin, result.payload, 'mcp', req, {
      transport: 'mcp',
      paid_by: 'x402',
      payment: result.receipt,
    });
    return toolResult(
      body,
      {
        [PAYMENT_RESPONSE_META_KEY]: result.settlement,
        ...(result.replayed ? { [REPLAYED_META_KEY]: true } : {}),
      },
      this.s.executor.jsonOf(body),
    );
  }
}
