/**
 * A local EVM chain for x402 settlement tests, with nothing downloaded at run time:
 *   npm run chain:local [-- --port <p>] [--buyer-usdc <USD>]
 * starts Hardhat's node (its EDR binary ships inside the npm package) on loopback, chain id 31337,
 * compiles chain/LocalUsdc.sol (an EIP-3009 token like USDC: "USD Coin", version "2", 6 decimals)
 * and chain/Multicall3.sol with solc-js (tools/compile-chain.ts), deploys them (Multicall3 at its
 * usual address), makes fresh keys (buyer, settler, receiving wallet; test only, new on every
 * run), gives the settler gas and the buyer USDC, and prints one JSON line:
 *   {"rpc_url", "chain_id", "network", "asset", "asset_name", "asset_version", "buyer_address",
 *    "buyer_private_key", "settler_address", "settler_private_key", "pay_to"}
 * then runs until stopped (Ctrl-C or SIGTERM). Tests start the same chain with startLocalChain().
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs, stripVTControlCharacters } from 'node:util';
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  getAddress,
  http,
  parseAbi,
  parseUnits,
  type Hex,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { PROJECT_ROOT } from '../config/paths';
import type { Compiled, CompiledContracts } from './compile-chain';

export const LOCAL_CHAIN_ID = 31337;
/** Where public EVM chains have Multicall3 (chain/Multicall3.sol). */
const MULTICALL3_ADDRESS = '0xcA11bde05977b3631167028862bE2a173976CA11';
const CHAIN_DIR = path.join(PROJECT_ROOT, 'chain');
const HARDHAT_CLI = path.join(PROJECT_ROOT, 'node_modules', 'hardhat', 'internal', 'cli', 'cli.js');
const STARTED = /Started HTTP and WebSocket JSON-RPC server at (http:\/\/\S+?)\/?$/;
const START_TIMEOUT_MS = 30_000;
/** Gas money for the settler: enough for thousands of settlements at local gas prices. */
const SETTLER_ETH = parseUnits('100', 18);

/** The token's interface as tests and tools read it (the subset of USDC's they need). */
export const LOCAL_USDC_ABI = parseAbi([
  'function balanceOf(address) view returns (uint256)',
  'function authorizationState(address, bytes32) view returns (bool)',
  'function mint(address to, uint256 value)',
  'function transfer(address to, uint256 value) returns (bool)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
]);

export const localChain = defineChain({
  id: LOCAL_CHAIN_ID,
  name: 'Local test chain',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
});

export interface LocalChainInfo {
  rpc_url: string;
  chain_id: number;
  network: string;
  asset: string;
  asset_name: string;
  asset_version: string;
  buyer_address: string;
  buyer_private_key: Hex;
  settler_address: string;
  settler_private_key: Hex;
  pay_to: string;
}

export interface LocalChain {
  info: LocalChainInfo;
  /** Stops the node. */
  close(): Promise<void>;
}

/**
 * The chain's contracts compiled (tools/compile-chain.ts), in a process of its own: solc-js keeps
 * about 190 MB it never gives back, which would stay in a test run's process (and in the peak
 * memory of every process it starts afterwards).
 */
function compileInChild(): Promise<CompiledContracts> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [path.join(__dirname, 'compile-chain.js')],
      { maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(stderr.trim() || err.message));
        else resolve(JSON.parse(stdout) as CompiledContracts);
      },
    );
  });
}

/** Starts Hardhat's node on `host:port` (0: a free port) and resolves with its URL once it listens. */
function startNode(host: string, port: number): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [
      HARDHAT_CLI,
      '--config',
      path.join(CHAIN_DIR, 'hardhat.config.cjs'),
      'node',
      '--hostname',
      host,
      '--port',
      String(port),
    ],
    {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true' },
    },
  );
  // The node must not outlive its starter, also when that one exits without closing it (a test
  // run cut short, mocha's --exit): a process exit kills it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  const seen: string[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => fail(new Error(`no chain node within ${START_TIMEOUT_MS} ms`)),
      START_TIMEOUT_MS,
    );
    const fail = (err: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${err.message}\n${seen.slice(-20).join('\n')}`));
    };
    // The node logs every RPC call: its output is read to the end, or a full pipe would stall it.
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => {
        if (seen.length < 200) seen.push(line);
        // Colours (FORCE_COLOR in CI) wrap the URL in escape sequences: they are not part of it.
        const m = STARTED.exec(stripVTControlCharacters(line).trim());
        if (m) {
          clearTimeout(timer);
          resolve({ url: m[1]!, child });
        }
      });
    }
    child.once('error', fail);
    child.once('exit', (code, signal) => fail(new Error(`the chain node exited (${signal ?? code})`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/**
 * Starts the node, deploys the token and funds fresh keys. `buyerUsdc` is in USD (6 decimals).
 * Every key is new on each call: they are test keys, printed and never reused.
 */
export async function startLocalChain(
  options: { host?: string; port?: number; buyerUsdc?: string } = {},
): Promise<LocalChain> {
  // The node boots while solc compiles, each in its own process (each takes a second or two).
  const starting = startNode(options.host ?? '127.0.0.1', options.port ?? 0);
  let compiled: CompiledContracts;
  try {
    compiled = await compileInChild();
  } catch (err) {
    await starting.then(
      ({ child }) => stop(child),
      () => undefined,
    );
    throw err;
  }
  const { url, child } = await starting;
  try {
    const transport = http(url);
    const test = createTestClient({ chain: localChain, mode: 'hardhat', transport });
    const publicClient = createPublicClient({ chain: localChain, transport });
    const deployer = privateKeyToAccount(generatePrivateKey());
    const receiver = privateKeyToAccount(generatePrivateKey());
    const keys = { settler: generatePrivateKey(), buyer: generatePrivateKey() };
    const settlerAccount = privateKeyToAccount(keys.settler);
    const buyerAccount = privateKeyToAccount(keys.buyer);
    await test.setBalance({ address: deployer.address, value: SETTLER_ETH });
    await test.setBalance({ address: settlerAccount.address, value: SETTLER_ETH });
    const wallet = createWalletClient({ chain: localChain, transport, account: deployer });
    const deploy = async (c: Compiled): Promise<Hex> => {
      const hash = await wallet.deployContract({ abi: c.abi, bytecode: c.bytecode });
      const deployed = await publicClient.waitForTransactionReceipt({ hash });
      if (deployed.status !== 'success' || !deployed.contractAddress)
        throw new Error('a contract did not deploy');
      return getAddress(deployed.contractAddress);
    };
    const asset = await deploy(compiled.LocalUsdc);
    // Multicall3 lives at one address on public chains; its code is copied there (test chains only).
    const multicall = await publicClient.getCode({ address: await deploy(compiled.Multicall3) });
    await test.setCode({ address: MULTICALL3_ADDRESS, bytecode: multicall! });
    const mintTx = await wallet.writeContract({
      address: asset,
      abi: LOCAL_USDC_ABI,
      functionName: 'mint',
      args: [buyerAccount.address, parseUnits(options.buyerUsdc ?? '100', 6)],
    });
    await publicClient.waitForTransactionReceipt({ hash: mintTx });
    return {
      info: {
        rpc_url: url,
        chain_id: LOCAL_CHAIN_ID,
        network: `eip155:${LOCAL_CHAIN_ID}`,
        asset,
        asset_name: 'USD Coin',
        asset_version: '2',
        buyer_address: buyerAccount.address,
        buyer_private_key: keys.buyer,
        settler_address: settlerAccount.address,
        settler_private_key: keys.settler,
        pay_to: receiver.address,
      },
      close: () => stop(child),
    };
  } catch (err) {
    await stop(child);
    throw err;
  }
}

const USAGE = 'usage: npm run chain:local [-- --port <port>] [--host 127.0.0.1] [--buyer-usdc <USD>]';

async function main(): Promise<number> {
  let values;
  try {
    values = parseArgs({
      options: { port: { type: 'string' }, host: { type: 'string' }, 'buyer-usdc': { type: 'string' } },
    }).values;
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const port = Number(values.port ?? '8545');
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port: an integer 0..65535\n${USAGE}`);
    return 2;
  }
  if (values['buyer-usdc'] !== undefined && !/^[0-9]{1,12}(\.[0-9]{1,6})?$/.test(values['buyer-usdc'])) {
    console.error(`--buyer-usdc: an amount in USD with at most 6 decimals\n${USAGE}`);
    return 2;
  }
  const chain = await startLocalChain({
    port,
    ...(values.host ? { host: values.host } : {}),
    ...(values['buyer-usdc'] ? { buyerUsdc: values['buyer-usdc'] } : {}),
  });
  console.log(JSON.stringify(chain.info));
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await chain.close();
  return 0;
}

if (require.main === module) {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      console.error(`chain:local failed: ${(err as Error).message}`);
      process.exitCode = 1;
    },
  );
}
