/**
 * `npm run chain:local`, run as a developer runs it: one JSON line describing a local chain whose
 * token is what x402 buyers sign for (USDC's EIP-712 domain and decimals), with a funded buyer and
 * a settler with gas, and a node that stops with the command. Bad arguments
 * exit 2 with the usage.
 */
import { expect } from 'chai';
import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { createPublicClient, http, parseAbi, parseUnits, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

const TOOL = path.resolve(__dirname, '..', '..', 'tools', 'chain-local.js');
const TOKEN = parseAbi([
  'function name() view returns (string)',
  'function version() view returns (string)',
  'function decimals() view returns (uint8)',
  'function balanceOf(address) view returns (uint256)',
]);

/** Starts the tool and resolves with its JSON line and a stop function (SIGTERM, then its exit). */
function startTool(): Promise<{ info: Record<string, string | number>; stop: () => Promise<number | null> }> {
  const child = spawn(process.execPath, [TOOL, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const stop = () =>
    new Promise<number | null>((resolve) => {
      if (child.exitCode !== null) return resolve(child.exitCode);
      child.once('exit', (code) => resolve(code));
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += String(c)));
    child.once('exit', (code) => reject(new Error(`chain:local exited (${code}): ${stderr}`)));
    createInterface({ input: child.stdout }).once('line', (line) => {
      child.removeAllListeners('exit');
      resolve({ info: JSON.parse(line) as Record<string, string | number>, stop });
    });
  });
}

describe('npm run chain:local', function () {
  this.timeout(60_000);

  it('prints one JSON line: a chain 31337 with a USDC-like token, a funded buyer, a settler with gas; stops with the command', async () => {
    const first = await startTool();
    const { info } = first;
    let stopped = false;
    try {
      expect(info).to.include({
        chain_id: 31337,
        network: 'eip155:31337',
        asset_name: 'USD Coin',
        asset_version: '2',
      });
      expect(info.rpc_url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
      for (const k of ['buyer_private_key', 'settler_private_key'])
        expect(info[k]).to.match(/^0x[0-9a-f]{64}$/);
      expect(privateKeyToAccount(info.buyer_private_key as Hex).address).to.equal(info.buyer_address);
      expect(privateKeyToAccount(info.settler_private_key as Hex).address).to.equal(info.settler_address);
      expect(info.pay_to).to.match(/^0x[0-9a-fA-F]{40}$/);

      const client = createPublicClient({ transport: http(String(info.rpc_url)) });
      const asset = info.asset as Hex;
      const read = <T>(functionName: 'name' | 'version' | 'decimals') =>
        client.readContract({ address: asset, abi: TOKEN, functionName }) as Promise<T>;
      expect(await client.getChainId()).to.equal(31337);
      expect(await read<string>('name')).to.equal('USD Coin');
      expect(await read<string>('version')).to.equal('2');
      expect(await read<number>('decimals')).to.equal(6);
      const balanceOf = (a: unknown) =>
        client.readContract({ address: asset, abi: TOKEN, functionName: 'balanceOf', args: [a as Hex] });
      expect(await balanceOf(info.buyer_address)).to.equal(parseUnits('100', 6));
      expect(await balanceOf(info.pay_to)).to.equal(0n);
      const gas = await client.getBalance({ address: info.settler_address as Hex });
      expect(gas > parseUnits('1', 18), `settler gas ${gas}`).to.equal(true);
      // The reference facilitator explains refusals through Multicall3 at its usual address.
      expect(await client.getCode({ address: '0xcA11bde05977b3631167028862bE2a173976CA11' })).to.match(
        /^0x[0-9a-f]{100,}$/,
      );

      expect(await first.stop()).to.equal(0);
      stopped = true;
      const gone = await createPublicClient({ transport: http(String(info.rpc_url), { retryCount: 0 }) })
        .getChainId()
        .then(
          () => 'answering',
          () => 'gone',
        );
      expect(gone).to.equal('gone');
    } finally {
      if (!stopped) await first.stop();
    }
  });

  it('refuses a bad port or amount with the usage (exit 2)', async () => {
    for (const args of [['--port', 'x'], ['--buyer-usdc', '1.1234567'], ['--nope']]) {
      const out = await promisify(execFile)(process.execPath, [TOOL, ...args]).then(
        () => ({ code: 0, stderr: '' }),
        (err: { code: number; stderr: string }) => err,
      );
      expect(out.code, args.join(' ')).to.equal(2);
      expect(out.stderr).to.match(/usage: npm run chain:local/);
    }
  });
});
