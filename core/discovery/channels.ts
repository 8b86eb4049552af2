/**
 * Per-channel sales status, derived from the deployment's configuration, and what data every
 * channel serves (the same handlers answer on all of them), derived from the plugins' coverage.
 */
import { marketplaceConfigured, paymentsConfigured, X402_SWITCHES, type GatewayConfig } from '../config';
import { endpointCoverage } from '../plugins/coverage';
import type { RegisteredPlugin } from '../plugins/registry';

/** open: the channel takes calls; not a statement about the data, which `data` describes. */
export type ChannelStatus = 'open' | 'not_configured' | 'planned';

export interface ChannelStatuses {
  preview: ChannelStatus;
  x402: ChannelStatus;
  marketplace: ChannelStatus;
  broker: ChannelStatus;
  /** Card/fiat checkout is a planned channel that is not wired (spec section 1). */
  card_fiat: ChannelStatus;
}

export function channelStatuses(config: GatewayConfig): ChannelStatuses {
  return {
    preview: 'open',
    x402: paymentsConfigured(config) ? 'open' : 'not_configured',
    marketplace: marketplaceConfigured(config) ? 'open' : 'not_configured',
    broker: 'open',
    card_fiat: 'planned',
  };
}

export interface ChannelView {
  status: ChannelStatus;
  /** What a call on this channel answers from (null where the channel takes no calls). */
  data: string | null;
}

export type ChannelViews = Record<keyof ChannelStatuses, ChannelView>;

/** Each channel's status with the data it serves. */
export function channelViews(config: GatewayConfig, data: string): ChannelViews {
  const status = channelStatuses(config);
  const view = (s: ChannelStatus): ChannelView => ({ status: s, data: s === 'open' ? data : null });
  return {
    preview: view(status.preview),
    x402: view(status.x402),
    marketplace: view(status.marketplace),
    broker: view(status.broker),
    card_fiat: view(status.card_fiat),
  };
}

/** One sentence on what a set of endpoints serves: how many from dated snapshots, how many live. */
export function dataSummary(plugins: readonly RegisteredPlugin[], now: Date): string {
  const kinds = { snapshot: [] as string[], live: 0, fallback: 0, other: 0 };
  const sizes = new Set<string>();
  for (const p of plugins) {
    const c = endpointCoverage(p, now);
    if ('records' in c && c.records) {
      sizes.add(
        `${c.records.count} ${c.records.unit}${c.records.complete ? '' : ' (a sample, not the complete data set)'}`,
      );
    }
    if (!('kind' in c)) kinds.other++;
    else if (c.kind === 'snapshot') kinds.snapshot.push(c.as_of);
    else if (c.kind === 'live') kinds.live++;
    else kinds.fallback++;
  }
  const dates = [...new Set(kinds.snapshot)].sort();
  const parts = [
    dates.length > 0 &&
      `${kinds.snapshot.length} from dated snapshots or tables (as of ${dates.length > 1 ? `${dates[0]} to ${dates[dates.length - 1]}` : dates[0]})`,
    kinds.live > 0 && `${kinds.live} live from the upstream`,
    kinds.fallback > 0 && `${kinds.fallback} live with a dated snapshot when the upstream is not configured`,
    kinds.other > 0 && `${kinds.other} as their descriptions say`,
  ].filter(Boolean);
  const searched = sizes.size > 0 ? ` Searches run over ${[...sizes].join(', ')}.` : '';
  return `Same data on every channel: ${parts.join('; ')}.${searched} Coverage per endpoint (size of each snapshot, months covered) is in /product-status.json.`;
}

export { X402_SWITCHES };

/**
 * What buyers meet while x402 is off, in the words every document uses: every request to a paid
 * path, paid or not, answers 503 (core/surfaces/paid.ts), never the 402 challenge.
 */
export const X402_OFF_EFFECT =
  'paid paths /v1/... answer 503 payments_not_configured to every request, paid or not (no 402 challenge; nothing is charged; the body carries the operator runbook), as do tool calls on /mcp without an API key';

/** How a buyer pays meanwhile: the channels open here besides x402 (the free preview aside). */
export function waysToBuyWithoutX402(config: GatewayConfig): string {
  const ways = ['an API key (POST /broker/call, or tool calls on /mcp with X-API-Key)'];
  if (marketplaceConfigured(config)) ways.push('the marketplace listing');
  return ways.join(', or ');
}

/** The x402 settings this deployment lacks (empty when payments are configured). */
export function x402SettingsUnset(config: GatewayConfig): string[] {
  return [
    !config.x402.payTo && 'X402_PAY_TO',
    !config.x402.facilitatorUrl && !config.x402.selfSettlement && 'X402_FACILITATOR_URL',
  ].filter((x): x is string => typeof x === 'string');
}

/** A sales channel (or part of one) this deployment has switched off, and why. */
export interface ChannelOff {
  channel: string;
  status: ChannelStatus | 'off';
  /** Why, naming the setting. */
  reason: string;
  /** What a buyer meets meanwhile. */
  effect: string;
  /** How to switch it on (empty for a planned channel). */
  to_open: string;
}

/** Every channel the configuration leaves off, for the start-up log (and the operator). */
export function channelsOff(config: GatewayConfig): ChannelOff[] {
  const status = channelStatuses(config);
  const off: ChannelOff[] = [];
  if (status.x402 !== 'open') {
    const unset = x402SettingsUnset(config).join(' and ');
    off.push({
      channel: 'x402',
      status: status.x402,
      reason: `${unset} ${unset.includes(' and ') ? 'are' : 'is'} unset`,
      effect: `${X402_OFF_EFFECT}; insufficient_credit offers no x402`,
      to_open: `set ${X402_SWITCHES} (docs/payments.md)`,
    });
  }
  if (status.marketplace !== 'open') {
    off.push({
      channel: 'marketplace',
      status: status.marketplace,
      reason: 'MARKETPLACE_SECRETS is unset',
      effect:
        'marketplace paths answer 503 marketplace_proxy_not_configured, and insufficient_credit offers no marketplace',
      to_open: 'set MARKETPLACE_SECRETS to the shared secret(s) the marketplace injects (docs/payments.md)',
    });
  }
  if (config.trialCreditMicroUsdc === 0 || config.trialCreditDailyBudgetMicroUsdc === 0) {
    off.push({
      channel: 'broker_trial_credit',
      status: 'off',
      reason:
        config.trialCreditMicroUsdc === 0
          ? 'TRIAL_CREDIT_MICRO_USDC is 0'
          : 'TRIAL_CREDIT_DAILY_BUDGET_MICRO_USDC is 0',
      effect:
        config.trialCreditMicroUsdc === 0
          ? 'new API keys get no trial credit: the broker answers them insufficient_credit'
          : 'POST /keys/create answers 429 trial_budget_exhausted: no new keys',
      to_open:
        'set TRIAL_CREDIT_MICRO_USDC and TRIAL_CREDIT_DAILY_BUDGET_MICRO_USDC above 0 (docs/configuration.md)',
    });
  }
  off.push({
    channel: 'card_fiat',
    status: status.card_fiat,
    reason: 'card/fiat checkout is a planned channel that is not wired (service spec, section 1)',
    effect: 'no endpoint exists; /products lists the channel as planned',
    to_open: '',
  });
  return off;
}
