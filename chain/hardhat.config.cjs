// The local test chain of `npm run chain:local` (tools/chain-local.ts): Hardhat's in-process EVM on
// chain id 31337. It compiles nothing (chain/*.sol are compiled with solc-js from npm, as Hardhat's
// compiler download is not reachable) and keeps one default account it never uses: the tool makes
// fresh keys and funds them. A failing transaction is mined and reported by its receipt, as on a
// real node (Hardhat's default answers its send with an error, which would read as "not sent").
module.exports = {
  networks: { hardhat: { chainId: 31337, accounts: { count: 1 }, throwOnTransactionFailures: false } },
  paths: { sources: './no-sources', cache: '../.tmp/hardhat-cache', artifacts: '../.tmp/hardhat-artifacts' },
};
