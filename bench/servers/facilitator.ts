/**
 * The facilitator stand-in (test/support/facilitator-standin.ts) on a free loopback port, for the
 * paid-path benchmark. It checks signatures with the gateway's fast verifier instead of viem, so
 * that the stand-in is not the bottleneck being measured. Prints "ready <port>".
 */
import 'reflect-metadata';
import { TransferSignatureVerifier } from '../../core/payments/eip3009-signature';
import { startFacilitatorStandin } from '../../test/support/facilitator-standin';

async function main(): Promise<void> {
  const verifiers = new Map<string, TransferSignatureVerifier>();
  const standin = await startFacilitatorStandin({
    keepAlive: true,
    recoverSigner: async ({ domain, message, signature }) => {
      const key = JSON.stringify(domain);
      let v = verifiers.get(key);
      if (!v) verifiers.set(key, (v = new TransferSignatureVerifier(domain)));
      return v.signerOf(message, signature);
    },
  });
  process.stderr.write(`ready ${new URL(standin.url).port}\n`);
}
void main();
