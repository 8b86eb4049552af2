/**
 * How a buyer pays per call with x402 on this deployment, in Markdown, for /portal.md and the
 * portal's x402 page (/portal/x402): the handshake where payments are configured; where they are
 * not, what a paid path answers instead (503 payments_not_configured, never a 402), how to buy
 * meanwhile and which settings switch x402 on. One text, so the two never disagree.
 */
import { marketplaceConfigured } from '../config';
import type { DiscoveryFacts } from './facts';
import { PAYMENT_META_KEY, PAYMENT_RESPONSE_META_KEY } from '../mcp/meta-keys';
import { channelStatuses, X402_SWITCHES } from './channels';
import { MCP_PATH, PREVIEW_MCP_PATH } from '../http/paths';

export function x402GuideMarkdown(s: DiscoveryFacts): string[] {
  const base = s.config.baseUrl;
  if (channelStatuses(s.config).x402 !== 'open') {
    return [
      `**Not configured on this deployment.** Paid paths \`/v1/{tail}\` answer **503 \`payments_not_configured\`** to every request, paid or not: no 402 challenge comes, and nothing is charged (the body carries the operator's runbook). Tool calls on \`${MCP_PATH}\` without an API key answer \`payments_not_configured\` too.`,
      '',
      '- **Buy meanwhile** with an API key: free trial credit, no wallet, no signup. Call `POST /broker/call`, or the MCP tools with `X-API-Key` ' +
        `(<${base}/portal/keys>).` +
        (marketplaceConfigured(s.config)
          ? ' Or subscribe through the marketplace listing, which calls the marketplace paths for you.'
          : ''),
      `- **Evaluate for free** on the preview (\`/preview/v1/{tail}\`, \`${PREVIEW_MCP_PATH}\`): the same answers, marked as a preview.`,
      `- **Operators** switch x402 on by setting ${X402_SWITCHES.replace(/(X402_\w+)/g, '`$1`')} (the receiving wallet, and the facilitator that verifies and settles payments) and restarting; \`/.well-known/x402\` then says \`"status": "live"\`, and an unpaid request to a paid path gets the 402 with the payment requirements.`,
    ];
  }
  return [
    `1. Call \`/v1/{tail}\` without payment: the answer is **402** with the payment requirements (scheme \`exact\`, network \`${s.config.x402.network}\`, asset, payTo, maxAmountRequired in USDC base units). This is the normal handshake, not an outage.`,
    '2. Sign an EIP-3009 `transferWithAuthorization` for exactly that amount to `payTo`, and repeat the same request with the `X-PAYMENT` header (x402 v1 or v2; v2 clients may use `PAYMENT-SIGNATURE`).',
    '3. The gateway verifies the payment, runs the endpoint, settles through the facilitator and answers 200 with `X-PAYMENT-RESPONSE`. A failed call is not settled: you pay nothing.',
    '',
    `Requirements for every endpoint: <${base}/.well-known/x402>. Standard x402 clients (for example \`@x402/fetch\`) do all of this; every endpoint page has samples.`,
    '',
    '**Retries.** A call whose answer you did not get (a timeout, a dropped connection, a 503 `settlement_pending`) is retried with the same payment header, never a new signature (a new signature is a new payment). Put a payment identifier in your PaymentPayload (`extensions["payment-identifier"].info.id`, 16 to 128 characters of `A-Z a-z 0-9 _ -`, one per logical request; `generatePaymentId()` of `@x402/extensions`): the same payment with the same identifier for the same request gets the same answer again, settled once, with `Idempotent-Replayed: true`; the same identifier with another payment answers 409 `payment_identifier_conflict`. Without an identifier, keep the `redemption_ticket` of a 503 `settlement_pending` and resend the same payment header with `Payment-Redemption-Ticket: <ticket>`: it is settled at most once. A lost ticket (or none, after a gateway restart): the 409 `payment_redemption_refused` declares a Sign-In-With-X challenge (`extensions["sign-in-with-x"]`); sign it with the payer\'s key and resend the payment with the proof in `SIGN-IN-WITH-X`. A payment the gateway holds as settled or pending is decided by its ledger (and the chain) also after the authorization expired: retry, do not sign anew.',
    '',
    '**Found by agents.** Every 402 (and every MCP PaymentRequired) carries the x402 `bazaar` discovery extension (how to call the endpoint or tool, the JSON Schema of its query, an example answer) and the seller metadata in `resource` (`serviceName`, `tags`, `iconUrl`), so x402 catalogues can list each endpoint once a payment has been settled through their facilitator; it also declares the optional `payment-identifier` extension.',
  ];
}

/** The x402 way of paying an MCP tool call, one Markdown paragraph (the MCP sections of the portal). */
export function mcpX402Markdown(s: DiscoveryFacts): string {
  if (channelStatuses(s.config).x402 !== 'open') {
    return `**x402**: not configured on this deployment: a tool call without an API key answers \`isError: true\` with \`payments_not_configured\` (nothing charged) until the operator sets ${X402_SWITCHES.replace(/(X402_\w+)/g, '`$1`')}.`;
  }
  return `**x402**: without a key, a tool call answers \`isError: true\` with an x402 v2 PaymentRequired in \`structuredContent\` (the same terms as the 402 of \`/v1/...\`, resource \`mcp://tool/<name>\`). Sign it and repeat the call with the PaymentPayload in \`params._meta["${PAYMENT_META_KEY}"]\`; the data comes back with the settlement in \`result._meta["${PAYMENT_RESPONSE_META_KEY}"]\`. One payment buys one call, on MCP and HTTP alike. A payment in \`_meta\` is used even when a key is sent (when its credit runs out, the \`insufficient_credit\` error carries the PaymentRequired too).`;
}
