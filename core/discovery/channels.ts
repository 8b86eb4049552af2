/** Per-channel sales status, derived from the deployment's configuration. */
import { marketplaceConfigured, paymentsConfigured, type GatewayConfig } from '../config';

export type ChannelStatus = 'live' | 'not_configured' | 'planned';

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
    preview: 'live',
    x402: paymentsConfigured(config) ? 'live' : 'not_configured',
    marketplace: marketplaceConfigured(config) ? 'live' : 'not_configured',
    broker: 'live',
    card_fiat: 'planned',
  };
}
