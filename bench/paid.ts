/**
 * Paid path (x402) against the preview path, and local signature verification per second.
 *
 *   npm run bench:paid [-- seconds [rounds]]     (BENCH_SKIP_SIGNATURES=1: load rounds only)
 *
 * 1. Signature checks on one core: viem's recoverTypedDataAddress, the gateway's verifier
 *    (libsecp256k1, native binding or wasm, + keccak), each recovery backend alone, and the whole local check of a payment header (decode + checks).
 * 2. Load: the gateway (child process, SQLite store, payments configured) with the facilitator
 *    stand-in (child process) behind it, driven by autocannon; every paid request carries a fresh
 *    signed payment, so each one runs claim → /verify → handler → /settle → ledger writes.
 * 3. The yardstick: the official `@x402/express` middleware on bare Express (bench/servers/
 *    x402-express.ts), same route, price, body and facilitator stand-in, a distinct signed x402 v2
 *    payment per request (both servers get PAYMENT-SIGNATURE built from their own 402 challenge).
 *    Preview, paid and yardstick rounds are interleaved, the order alternating each round.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { recoverTypedDataAddress, type Hex } from 'viem';
import { checkPayment } from '../core/payments/check-payment';
import {
  RECOVERY_BACKEND,
  recoverPublicKey,
  TransferSignatureVerifier,
} from '../core/payments/eip3009-signature';
import { decodePayment, type PaymentAttempt } from '../core/payments/payment-header';
import type { PaymentTerms } from '../core/payments/requirements';
import { BENCH_ENDPOINT } from './lib/endpoint';
import { DOMAIN, header, makeSigner, PAY_TO, USDC_ON_BASE, type Signed } from './lib/payments';
import { load, startServer, table, type LoadResult, type Server } from './lib/harness';
import { paidLoad } from './lib/paid-load';

const TYPES = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const;
const PREVIEW = `/preview/v1/${BENCH_ENDPOINT.tail}${BENCH_ENDPOINT.queryString}`;
const PAID = `/v1/${BENCH_ENDPOINT.tail}${BENCH_ENDPOINT.queryString}`;
const PRICE = BENCH_ENDPOINT.priceMicroUsdc;

async function signatureBench(n: number): Promise<string> {
  const sign = makeSigner(50);
  const items = Array.from({ length: n }, () => sign(PRICE));
  const verifier = new TransferSignatureVerifier(DOMAIN);
  const headers = items.map(header);
  const terms: PaymentTerms = {
    scheme: 'exact',
    network: 'eip155:8453',
    chainId: 8453,
    asset: USDC_ON_BASE,
    assetName: 'USD Coin',
    assetVersion: '2',
    payTo: PAY_TO,
    configured: true,
    maxTimeoutSeconds: 300,
  };
  const rows: Array<[string, number]> = [];
  const time = async (label: string, fn: (i: number) => unknown) => {
    for (let i = 0; i < Math.min(200, n); i++) await fn(i); // warm-up
    const t = process.hrtime.bigint();
    for (let i = 0; i < n; i++) await fn(i);
    rows.push([label, Math.round(n / (Number(process.hrtime.bigint() - t) / 1e9))]);
  };
  await time('viem recoverTypedDataAddress', async (i) => {
    const a = items[i].authorization;
    const from = await recoverTypedDataAddress({
      domain: DOMAIN as typeof DOMAIN & { verifyingContract: Hex },
      types: TYPES,
      primaryType: 'TransferWithAuthorization',
      message: {
        ...a,
        value: BigInt(a.value),
        validAfter: BigInt(a.validAfter),
        validBefore: BigInt(a.validBefore),
      },
      signature: items[i].signature,
    });
    if (from !== a.from) throw new Error('viem disagrees');
  });
  for (const backend of ['wasm', 'native'] as const) {
    const digests = items.map((x) => verifier.digest(x.authorization));
    const sigs = items.map((x) => Buffer.from(x.signature.slice(2, 130), 'hex'));
    const rids = items.map((x) => (parseInt(x.signature.slice(130), 16) - 27) as 0 | 1);
    await time(
      `public key recovery alone, ${backend === 'wasm' ? 'tiny-secp256k1 (wasm)' : 'secp256k1 (native binding)'}`,
      (i) => {
        if (!recoverPublicKey(digests[i], sigs[i], rids[i], backend)) throw new Error(`${backend} failed`);
      },
    );
  }
  await time(`gateway verifier (${RECOVERY_BACKEND} secp256k1 + keccak)`, (i) => {
    if (
      verifier.signerOf(items[i].authorization, items[i].signature) !==
      items[i].authorization.from.toLowerCase()
    ) {
      throw new Error('verifier disagrees');
    }
  });
  await time('whole local check of an X-PAYMENT header', (i) => {
    const read = decodePayment(headers[i], 'X-PAYMENT');
    if (read.kind !== 'attempt') throw new Error('decode failed');
    const r = checkPayment(read.attempt as PaymentAttempt, {
      terms,
      priceMicroUsdc: PRICE,
      resourcePath: PAID.split('?')[0],
      nowSeconds: Math.floor(Date.now() / 1000),
      verifier,
    });
    if (!('payer' in r)) throw new Error(`refused: ${r.code}`);
  });
  return [
    `| check (${n} signatures, one core) | per second |`,
    '|---|---:|',
    ...rows.map(([l, v]) => `| ${l} | ${v} |`),
  ].join('\n');
}

/** The x402 v2 payment a client builds from a 402 challenge's first `accepts` entry. */
interface Challenge {
  accepted: Record<string, unknown> & { amount: string };
  resource?: unknown;
}

async function challengeOf(url: string): Promise<Challenge> {
  const r = await fetch(url);
  const h = r.headers.get('payment-required');
  if (r.status !== 402 || !h) throw new Error(`${url} answered ${r.status} without PAYMENT-REQUIRED`);
  const required = JSON.parse(Buffer.from(h, 'base64').toString('utf8')) as {
    accepts: Challenge['accepted'][];
    resource?: unknown;
  };
  return { accepted: required.accepts[0], resource: required.resource };
}

const headerV2 = (c: Challenge, s: Signed) =>
  Buffer.from(
    JSON.stringify({ x402Version: 2, resource: c.resource, accepted: c.accepted, payload: s }),
  ).toString('base64');

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 10);
  const rounds = Number(process.argv[3] ?? 2);
  if (process.env.BENCH_SKIP_SIGNATURES !== '1') {
    console.log('## Local signature verification\n');
    console.log(await signatureBench(2000));
  }

  const dataDir = mkdtempSync(path.join(tmpdir(), 'jpgw-bench-paid-'));
  const facilitator = await startServer('facilitator.js');
  const gateway = await startServer('gateway.js', {
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    DATA_DIR: dataDir,
    X402_PAY_TO: PAY_TO,
    X402_FACILITATOR_URL: facilitator.url,
    // The load comes from one client address: the per-client payment rate must not be what is measured.
    PAID_PAYMENTS_PER_MINUTE: '1000000',
  });
  const sign = makeSigner(200);
  const rows: LoadResult[] = [];
  let official: Server | undefined;
  try {
    const probe = await fetch(gateway.url + PAID, { headers: { 'x-payment': header(sign(PRICE)) } });
    if (probe.status !== 200) throw new Error(`paid probe answered ${probe.status}: ${await probe.text()}`);
    const body = await probe.text();
    // The yardstick: @x402/express on bare Express, same route, price, body and facilitator.
    official = await startServer('x402-express.js', {
      BENCH_BODY: body,
      BENCH_ROUTE: PAID.split('?')[0],
      BENCH_PRICE: `$${PRICE / 1e6}`,
      X402_PAY_TO: PAY_TO,
      X402_FACILITATOR_URL: facilitator.url,
    });
    const ours = await challengeOf(gateway.url + PAID);
    const theirs = await challengeOf(official.url + PAID);
    if (ours.accepted.amount !== String(PRICE) || theirs.accepted.amount !== String(PRICE)) {
      throw new Error(`prices differ: ${ours.accepted.amount} / ${theirs.accepted.amount}`);
    }
    for (const [name, server, c] of [
      ['gateway', gateway, ours],
      ['@x402/express', official, theirs],
    ] as const) {
      const r = await fetch(server.url + PAID, {
        headers: { 'payment-signature': headerV2(c, sign(PRICE)) },
      });
      if (r.status !== 200) throw new Error(`${name} paid probe answered ${r.status}: ${await r.text()}`);
    }
    // A generous pool: every paid request needs a payment of its own (x402 v2, PAYMENT-SIGNATURE).
    const poolSize = Math.max(20_000, seconds * 2_500);
    const fresh = (c: Challenge) => Array.from({ length: poolSize }, () => headerV2(c, sign(PRICE)));
    await load('warm-up', { url: gateway.url + PREVIEW, duration: 3 });
    await paidLoad('warm-up', gateway.url + PAID, 3, fresh(ours));
    await paidLoad('warm-up', official.url + PAID, 3, fresh(theirs));
    for (let round = 1; round <= rounds; round++) {
      const steps = [
        () => load(`preview #${round}`, { url: gateway.url + PREVIEW, duration: seconds, cpuOf: gateway }),
        () => paidLoad(`paid (x402) #${round}`, gateway.url + PAID, seconds, fresh(ours), gateway),
        () => paidLoad(`@x402/express #${round}`, official!.url + PAID, seconds, fresh(theirs), official),
      ];
      // The order alternates each round, so that a drift of the machine's load hits all.
      for (const step of round % 2 ? steps : steps.reverse()) rows.push(await step());
    }
  } finally {
    await gateway.stop();
    await official?.stop();
    await facilitator.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const avg = (prefix: string) => {
    const r = rows.filter((x) => x.label.startsWith(prefix));
    return r.reduce((s, x) => s + x.requestsPerSec, 0) / r.length;
  };
  console.log('\n## Paid path vs @x402/express and preview\n');
  console.log(table(rows));
  const settings = `50 connections, ${seconds}s rounds, LOG_LEVEL=${process.env.LOG_LEVEL ?? 'info'}, SQLite store`;
  console.log(
    `\npaid / @x402/express throughput ratio: ${(avg('paid') / avg('@x402')).toFixed(2)} (${settings})`,
  );
  console.log(`paid / preview throughput ratio: ${(avg('paid') / avg('preview')).toFixed(2)}`);
}

void main();
