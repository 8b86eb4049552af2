/**
 * kill -9 of a gateway process while it settles payments (issue 34): the gateway runs as a process
 * (dist/test/support/fixture-main.js, as `npm start` runs it) on a store the test keeps
 * (storeEnvFor), the paid requests are sent, and the process is killed (SIGKILL) once `broadcast`
 * says their transfers went out, before any answer came. What is left is the ledger as a crash
 * leaves it: each payment `pending` in the settle phase, its claim's lease running, no ticket
 * handed out and no transaction recorded.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { PrivateKeyAccount } from 'viem/accounts';
import {
  createSIWxPayload,
  encodeSIWxHeader,
  SIGN_IN_WITH_X,
  type EVMSigner,
} from '@x402/extensions/sign-in-with-x';
import { spawnFixtureGateway } from './process-gateway';

export interface PaidRequest {
  path: string;
  headers: Record<string, string>;
}

export async function killMidSettle(
  env: Record<string, string>,
  requests: PaidRequest[],
  broadcast: () => Promise<boolean>,
): Promise<void> {
  const gw = await spawnFixtureGateway(env);
  try {
    const answered = requests.map((r) =>
      fetch(gw.url + r.path, { headers: r.headers }).then(
        async (res) => `${res.status} ${await res.text()}`,
        () => 'cut',
      ),
    );
    const deadline = Date.now() + 20_000;
    while (!(await broadcast())) {
      if (Date.now() > deadline) throw new Error(`nothing was broadcast within 20 s\n${gw.output()}`);
      await sleep(20);
    }
    await gw.kill();
    const outcomes = await Promise.all(answered);
    if (outcomes.some((o) => o !== 'cut')) {
      throw new Error(`a request was answered before the kill: ${outcomes.join('; ')}`);
    }
  } finally {
    if (gw.child.exitCode === null && gw.child.signalCode === null) await gw.kill();
  }
}

/**
 * The payer's Sign-In-With-X proof for the challenge a refusal declared (`extensions["sign-in-with-x"]`),
 * signed by `account` with the extension package's own client code, as the SIGN-IN-WITH-X header
 * value (base64 JSON) and as the payload object (MCP `_meta`). The challenge names the gateway's
 * public URL (BASE_URL), which tests reach through a loopback port.
 */
export async function signPayerProof(
  // Tests read refusal bodies as JSON.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  refusal: any,
  signer: Pick<PrivateKeyAccount, 'address' | 'signMessage'> | EVMSigner,
  change: Record<string, unknown> = {},
): Promise<{ header: string; payload: Record<string, unknown> }> {
  const declared = refusal.extensions[SIGN_IN_WITH_X];
  const [chain] = declared.supportedChains as Array<{ chainId: string; type: 'eip191' }>;
  const info = { ...declared.info, chainId: chain!.chainId, type: chain!.type, ...change };
  const payload = await createSIWxPayload(info, signer as EVMSigner, info.uri);
  return { header: encodeSIWxHeader(payload), payload: payload as unknown as Record<string, unknown> };
}
