/**
 * Code samples for one endpoint, generated from its description: curl, JavaScript and Python, for
 * the free preview, the key-metered broker and x402 pay-per-call. The samples read secrets from
 * the environment (API_KEY, EVM_PRIVATE_KEY) so that they run as printed (test/portal/code-samples.test.ts
 * runs the curl and JavaScript ones against a gateway). Where the deployment takes no x402
 * payments, the x402 samples say first what they get instead (503 payments_not_configured), how
 * the operator switches payments on and how to buy meanwhile.
 */
import type { EndpointDescription } from '../describe';
import { queryString } from '../describe';

export type SampleSurface = 'preview' | 'broker' | 'x402';
export type SampleLanguage = 'curl' | 'javascript' | 'python';

export interface CodeSample {
  surface: SampleSurface;
  language: SampleLanguage;
  code: string;
}

export const SURFACE_LABELS: Record<SampleSurface, string> = {
  preview: 'Free preview',
  broker: 'API key (broker)',
  x402: 'Pay per call (x402)',
};

export const LANGUAGE_LABELS: Record<SampleLanguage, string> = {
  curl: 'curl',
  javascript: 'JavaScript',
  python: 'Python',
};

/** Single-quoted for a POSIX shell. */
function sh(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function pyValue(v: string | number | boolean): string {
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number') return String(v);
  return JSON.stringify(v);
}

function pyDict(query: Record<string, string | number | boolean>): string {
  const entries = Object.entries(query);
  if (entries.length === 0) return '{}';
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${pyValue(v)}`).join(', ')}}`;
}

/** What the x402 samples need to know of the deployment. */
export interface X402SampleContext {
  network: string;
  /** Whether this deployment takes x402 payments (X402_PAY_TO and X402_FACILITATOR_URL set). */
  configured: boolean;
  /** The settings that switch x402 on, and the other ways to buy, for the samples' notice. */
  switches: string;
  otherWays: string;
}

/** The notice at the top of an x402 sample where payments are off, as comment lines. */
function offNotice(x: X402SampleContext, comment: string, prints: string): string[] {
  if (x.configured) return [];
  return [
    `${comment} x402 is not configured on this deployment: this ${prints} 503 payments_not_configured`,
    `${comment} (no 402 challenge, nothing charged) until the operator sets ${x.switches}.`,
    `${comment} Meanwhile buy with ${x.otherWays}: see the API key (broker) samples.`,
  ];
}

export function codeSamples(e: EndpointDescription, baseUrl: string, x: X402SampleContext): CodeSample[] {
  const network = x.network;
  const query = e.examples[0]?.query ?? {};
  const qs = queryString(query);
  const previewUrl = `${baseUrl}${e.paths.preview}${qs}`;
  const paidUrl = `${baseUrl}${e.paths.x402}${qs}`;
  const brokerUrl = `${baseUrl}/broker/call`;
  const body = JSON.stringify({ product_id: e.broker_id, query });
  const bodyPretty = JSON.stringify({ product_id: e.broker_id, query }, null, 2).replace(/\n/g, '\n  ');
  return [
    { surface: 'preview', language: 'curl', code: `curl ${sh(previewUrl)}` },
    {
      surface: 'preview',
      language: 'javascript',
      code: [
        `const res = await fetch(${JSON.stringify(previewUrl)});`,
        'console.log(res.status, await res.json());',
      ].join('\n'),
    },
    {
      surface: 'preview',
      language: 'python',
      code: [
        'import requests',
        '',
        `r = requests.get(${JSON.stringify(baseUrl + e.paths.preview)}, params=${pyDict(query)})`,
        'print(r.status_code, r.json())',
      ].join('\n'),
    },
    {
      surface: 'broker',
      language: 'curl',
      code: [
        `curl -X POST ${sh(brokerUrl)} \\`,
        `  -H "X-API-Key: $API_KEY" -H 'Content-Type: application/json' \\`,
        `  -d ${sh(body)}`,
      ].join('\n'),
    },
    {
      surface: 'broker',
      language: 'javascript',
      code: [
        `const res = await fetch(${JSON.stringify(brokerUrl)}, {`,
        "  method: 'POST',",
        "  headers: { 'X-API-Key': process.env.API_KEY, 'Content-Type': 'application/json' },",
        `  body: JSON.stringify(${bodyPretty}),`,
        '});',
        "console.log(res.status, res.headers.get('X-Credit-Charged-Micro-USDC'), await res.json());",
      ].join('\n'),
    },
    {
      surface: 'broker',
      language: 'python',
      code: [
        'import os',
        'import requests',
        '',
        'r = requests.post(',
        `    ${JSON.stringify(brokerUrl)},`,
        '    headers={"X-API-Key": os.environ["API_KEY"]},',
        `    json={"product_id": ${JSON.stringify(e.broker_id)}, "query": ${pyDict(query)}},`,
        ')',
        'print(r.status_code, r.json())',
      ].join('\n'),
    },
    {
      surface: 'x402',
      language: 'curl',
      code: [
        ...(x.configured
          ? ['# answers 402 with the payment requirements; an x402 client signs them and retries']
          : offNotice(x, '#', 'answers')),
        `curl -i ${sh(paidUrl)}`,
      ].join('\n'),
    },
    {
      surface: 'x402',
      language: 'javascript',
      code: [
        ...offNotice(x, '//', 'prints'),
        '// npm install @x402/fetch @x402/evm viem',
        "import { wrapFetchWithPaymentFromConfig } from '@x402/fetch';",
        "import { ExactEvmScheme } from '@x402/evm';",
        "import { privateKeyToAccount } from 'viem/accounts';",
        '',
        'const account = privateKeyToAccount(process.env.EVM_PRIVATE_KEY);',
        'const payingFetch = wrapFetchWithPaymentFromConfig(fetch, {',
        `  schemes: [{ network: ${JSON.stringify(network)}, client: new ExactEvmScheme(account) }],`,
        '});',
        `const res = await payingFetch(${JSON.stringify(paidUrl)});`,
        "console.log(res.status, res.headers.get('PAYMENT-RESPONSE'), await res.json());",
      ].join('\n'),
    },
    {
      surface: 'x402',
      language: 'python',
      code: [
        ...offNotice(x, '#', 'prints'),
        '# pip install "x402[requests,evm]" eth-account',
        'import os',
        'from eth_account import Account',
        'from x402 import x402ClientSync',
        'from x402.http.clients import x402_requests',
        'from x402.mechanisms.evm import EthAccountSigner',
        'from x402.mechanisms.evm.exact.register import register_exact_evm_client',
        '',
        'client = x402ClientSync()',
        'register_exact_evm_client(client, EthAccountSigner(Account.from_key(os.environ["EVM_PRIVATE_KEY"])))',
        'with x402_requests(client) as session:',
        `    r = session.get(${JSON.stringify(baseUrl + e.paths.x402)}, params=${pyDict(query)})`,
        '    print(r.status_code, r.json())',
      ].join('\n'),
    },
  ];
}
