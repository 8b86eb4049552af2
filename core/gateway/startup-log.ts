/**
 * The start-up lines about sales channels, written once per gateway: by the process itself, or
 * by the primary when several workers serve the port (core/gateway/cluster/primary.ts).
 */
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config';
import { channelsOff, channelStatuses } from '../discovery/channels';

/**
 * Says which sales channels take calls and names every one switched off, why (the setting) and
 * how to switch it on: an operator reading the log knows what buyers meet.
 */
export function logChannels(logger: Logger, config: GatewayConfig): void {
  const off = channelsOff(config);
  logger.info({ channels: channelStatuses(config) }, `sales channels: ${describeStatuses(config)}`);
  for (const c of off) {
    const line = `channel ${c.channel} is ${c.status}: ${c.reason}; ${c.effect}${c.to_open ? `. To open it: ${c.to_open}` : ''}`;
    if (c.status === 'planned') logger.info({ channel: c.channel, status: c.status, reason: c.reason }, line);
    else logger.warn({ channel: c.channel, status: c.status, reason: c.reason, to_open: c.to_open }, line);
  }
}

function describeStatuses(config: GatewayConfig): string {
  return Object.entries(channelStatuses(config))
    .map(([name, status]) => `${name} ${status}`)
    .join(', ');
}
