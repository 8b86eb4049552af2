/**
 * What a paid call costs and where the money goes, in the shapes x402 clients read: the `accepts`
 * entry of the spec's 402 body (x402 v1 field names, CAIP-2 network), the x402 v2 requirement and
 * PaymentRequired of the PAYMENT-REQUIRED header, and the settlement header. Receiving address, asset, network and
 * timeout come from configuration, never from constants here.
 */
import type { ResourceInfo } from '@x402/core/types';
import type { RegisteredPlugin } from '../plugins/registry';
import { paymentsConfigured, type GatewayConfig } from '../config';
import { chainIdOf } from './networks';

/** Spec 2.3 placeholders, used in discovery documents only where nothing is configured. */
export const PAY_TO_PLACEHOLDER = '<RECEIVING_WALLET_ADDRESS>';
export const ASSET_PLACEHOLDER = '<USDC_ASSET_ADDRESS>';

export const PAID_MIME_TYPE = 'application/json';
export const SCHEME = 'exact';

export interface PaymentTerms {
  scheme: typeof SCHEME;
  /** CAIP-2, e.g. eip155:8453. */
  network: string;
  chainId: number;
  asset: string;
  /** EIP-712 domain of the token. */
  assetName: string;
  assetVersion: string;
  /** The receiving wallet, or the placeholder when X402_PAY_TO is unset. */
  payTo: string;
  /** Whether the paid surface takes payments (receiving wallet and facilitator set). */
  configured: boolean;
  maxTimeoutSeconds: number;
}

export function paymentTerms(config: GatewayConfig): PaymentTerms {
  const x = config.x402;
  const chainId = chainIdOf(x.network);
  if (chainId === undefined) throw new Error(`X402_NETWORK is not an eip155 CAIP-2 id: ${x.network}`);
  return {
    scheme: SCHEME,
    network: x.network,
    chainId,
    asset: x.asset || ASSET_PLACEHOLDER,
    assetName: x.assetName,
    assetVersion: x.assetVersion,
    payTo: x.payTo || PAY_TO_PLACEHOLDER,
    configured: paymentsConfigured(config),
    maxTimeoutSeconds: x.maxTimeoutSeconds,
  };
}

/** One entry of `x402.accepts` in the 402 body (spec 7.1). */
export interface AcceptsEntry {
  scheme: string;
  network: string;
  asset: string;
  payTo: string;
  maxAmountRequired: string;
  resource: string;
  description: string;
  mimeType: string;
  maxTimeoutSeconds: number;
  extra: { name: string; version: string };
}

export function acceptsEntry(
  terms: PaymentTerms,
  plugin: RegisteredPlugin,
  resourcePath: string,
): AcceptsEntry {
  return {
    scheme: terms.scheme,
    network: terms.network,
    asset: terms.asset,
    payTo: terms.payTo,
    maxAmountRequired: String(plugin.priceMicroUsdc),
    resource: resourcePath,
    description: plugin.manifest.summary,
    mimeType: PAID_MIME_TYPE,
    maxTimeoutSeconds: terms.maxTimeoutSeconds,
    extra: { name: terms.assetName, version: terms.assetVersion },
  };
}

/** An x402 v2 payment requirement (the `accepts` entry of PAYMENT-REQUIRED). */
export interface RequirementV2 {
  scheme: string;
  network: string;
  amount: string;
  asset: string;
  payTo: string;
  maxTimeoutSeconds: number;
  extra: { name: string; version: string };
}

export function requirementV2(terms: PaymentTerms, plugin: RegisteredPlugin): RequirementV2 {
  return {
    scheme: terms.scheme,
    network: terms.network,
    amount: String(plugin.priceMicroUsdc),
    asset: terms.asset,
    payTo: terms.payTo,
    maxTimeoutSeconds: terms.maxTimeoutSeconds,
    extra: { name: terms.assetName, version: terms.assetVersion },
  };
}

/**
 * The x402 v2 PaymentRequired object (decoded PAYMENT-REQUIRED header): the requirement, with the
 * resource and extensions the endpoint offers on its transport (core/payments/offers.ts).
 */
export function paymentRequiredV2(
  terms: PaymentTerms,
  plugin: RegisteredPlugin,
  offer: { resource: Readonly<ResourceInfo>; extensions: Readonly<Record<string, unknown>> },
  error: string,
): Record<string, unknown> {
  return {
    x402Version: 2,
    error,
    resource: offer.resource,
    accepts: [requirementV2(terms, plugin)],
    extensions: offer.extensions,
  };
}

/** x402 headers carry base64 (standard alphabet) of UTF-8 JSON. */
export function encodeHeaderJson(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64');
}
