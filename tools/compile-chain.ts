/**
 * Compiles the local test chain's contracts (chain/*.sol) with solc-js from npm and prints them as
 * one JSON document (ABIs, creation bytecode, compiler version). tools/chain-local.ts runs it as a
 * process of its own, so that solc's memory leaves with it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Abi, Hex } from 'viem';
import { PROJECT_ROOT } from '../config/paths';

const CHAIN_DIR = path.join(PROJECT_ROOT, 'chain');

export interface Compiled {
  abi: Abi;
  bytecode: Hex;
}

export interface CompiledContracts {
  LocalUsdc: Compiled;
  Multicall3: Compiled;
  compiler: string;
}

/**
 * Compiles the chain's contracts with solc-js (about a second): chain/LocalUsdc.sol (the token) and
 * chain/Multicall3.sol, their ABIs and creation bytecode.
 */
export function compileChainContracts(): CompiledContracts {
  const names = ['LocalUsdc', 'Multicall3'] as const;
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(
      names.map((n) => [`${n}.sol`, { content: readFileSync(path.join(CHAIN_DIR, `${n}.sol`), 'utf8') }]),
    ),
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'cancun',
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  };
  // solc-js ships no types; this is the part of its API used here.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const solc = require('solc') as { compile(input: string): string; version(): string };
  const out = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: Array<{ severity: string; formattedMessage: string }>;
    contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (out.errors ?? []).filter((e) => e.severity === 'error');
  const pick = (n: (typeof names)[number]): Compiled => {
    const c = out.contracts?.[`${n}.sol`]?.[n];
    if (errors.length > 0 || !c) {
      throw new Error(
        `chain/${n}.sol does not compile:\n${errors.map((e) => e.formattedMessage).join('\n')}`,
      );
    }
    return { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
  };
  return { LocalUsdc: pick('LocalUsdc'), Multicall3: pick('Multicall3'), compiler: solc.version() };
}

if (require.main === module) {
  try {
    process.stdout.write(JSON.stringify(compileChainContracts()));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exitCode = 1;
  }
}
