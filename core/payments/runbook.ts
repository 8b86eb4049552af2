/**
 * The 503 a paid path answers while this deployment takes no payments (X402_PAY_TO or
 * X402_FACILITATOR_URL unset): an operator runbook saying which settings to set, what each one
 * is and where docs/ explains it. It never shows a secret value.
 */
import type { GatewayConfig } from '../config';
import type { RegisteredPlugin } from '../plugins/registry';
import { HttpError } from '../http/errors';

interface RunbookSetting {
  name: string;
  required: boolean;
  status: 'set' | 'unset';
  meaning: string;
  current?: string;
  example?: string;
}

export function paymentsNotConfiguredError(
  config: GatewayConfig,
  plugin: RegisteredPlugin | undefined,
  previewPath: string | undefined,
): HttpError {
  const x = config.x402;
  const settings: RunbookSetting[] = [
    {
      name: 'X402_PAY_TO',
      required: true,
      status: x.payTo ? 'set' : 'unset',
      meaning:
        'The wallet address (0x + 40 hex) that receives the USDC of every paid call. Use an address you control on the configured network.',
      example: '0x<40 hex digits>',
    },
    {
      name: 'X402_FACILITATOR_URL',
      required: true,
      status: x.facilitatorUrl ? 'set' : 'unset',
      meaning:
        'Base URL of the x402 facilitator that verifies and settles payments (POST /verify, POST /settle). It must support scheme "exact" on the configured network; public testnet facilitators do not settle on Base mainnet. Or settle yourself instead: X402_FACILITATOR=self with X402_RPC_URL and X402_SETTLER_PRIVATE_KEY.',
      example: 'https://<your-facilitator>/',
    },
    {
      name: 'X402_FACILITATOR_AUTH',
      required: false,
      status: x.facilitatorAuth ? 'set' : 'unset',
      meaning:
        'Authorization header value sent to the facilitator, if it requires one (e.g. "Bearer <token>").',
    },
    {
      name: 'X402_NETWORK',
      required: false,
      status: 'set',
      current: x.network,
      meaning: 'CAIP-2 network of payments; eip155:8453 is Base mainnet.',
    },
    {
      name: 'X402_ASSET',
      required: false,
      status: 'set',
      current: x.asset,
      meaning: 'Token contract buyers pay with (an EIP-3009 token; the default is USDC on Base).',
    },
    {
      name: 'X402_ASSET_NAME / X402_ASSET_VERSION',
      required: false,
      status: 'set',
      current: `${x.assetName} / ${x.assetVersion}`,
      meaning:
        "The token's EIP-712 domain name and version, which buyers sign over (USDC on Base: USD Coin / 2).",
    },
    {
      name: 'X402_MAX_TIMEOUT_SECONDS',
      required: false,
      status: 'set',
      current: String(x.maxTimeoutSeconds),
      meaning: 'How long a signed payment stays valid for settlement (maxTimeoutSeconds in the 402).',
    },
  ];
  const missing = settings.filter((s) => s.required && s.status === 'unset').map((s) => s.name);
  return new HttpError(
    503,
    'payments_not_configured',
    'This deployment does not take x402 payments yet, so paid paths cannot serve data. Nothing was charged. ' +
      'This is an operator setting, not a problem with your request.',
    {
      hint: previewPath
        ? `Evaluate with the free preview ${previewPath}, or use the marketplace listing or the key-metered broker (POST /broker/call).`
        : 'Use the free preview (/preview/v1/...), the marketplace listing or the key-metered broker (POST /broker/call).',
      ...(plugin ? { endpoint_id: plugin.endpointId, broker_id: plugin.brokerId } : {}),
      runbook: {
        audience: 'operator of this gateway',
        summary: `Set ${missing.join(' and ') || 'the settings below'} in the environment and restart the gateway.`,
        missing,
        settings,
        steps: [
          'Choose the receiving wallet and set X402_PAY_TO to its address.',
          'Choose a facilitator that settles "exact" payments on the configured network and set X402_FACILITATOR_URL (and X402_FACILITATOR_AUTH if it needs credentials); or settle with your own wallet: X402_FACILITATOR=self, X402_RPC_URL (a node of the network) and X402_SETTLER_PRIVATE_KEY (a wallet holding gas money).',
          'Keep X402_NETWORK, X402_ASSET, X402_ASSET_NAME and X402_ASSET_VERSION consistent with each other (defaults: USDC on Base mainnet).',
          'Restart the gateway; GET /.well-known/x402 then shows status "live" and the receiving address.',
        ],
        documentation: ['docs/payments.md', 'docs/configuration.md'],
      },
    },
    { 'Retry-After': '3600' },
  );
}
