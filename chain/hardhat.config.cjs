// The local test chain of `npm run chain:local` (tools/chain-local.ts): Hardhat's in-process EVM on
// chain id 31337. It compiles nothing (chain/LocalUsdc.sol is compiled with solc-js from npm, as
// Hardhat's compiler download is not reachable) and keeps one default account it never uses: the
// tool makes fresh keys and funds them.
module.exports = {
  networks: { hardhat: { chainId: 31337, accounts: { count: 1 } } },
  paths: { sources: './no-sources', cache: '../.tmp/hardhat-cache', artifacts: '../.tmp/hardhat-artifacts' },
};
