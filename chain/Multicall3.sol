// SPDX-License-Identifier: MIT
// The part of Multicall3 (github.com/mds1/multicall, deployed at 0xcA11bde05977b3631167028862bE2a173976CA11
// on every public EVM chain) that the x402 reference facilitator calls: `tryAggregate`, which it uses to
// say why a payment's simulation failed (balance, nonce used, token name). A local chain has no
// Multicall3, so chain:local puts this code at that address.
pragma solidity ^0.8.20;

contract Multicall3 {
    struct Call {
        address target;
        bytes callData;
    }

    struct Result {
        bool success;
        bytes returnData;
    }

    function tryAggregate(bool requireSuccess, Call[] calldata calls) public payable returns (Result[] memory returnData) {
        returnData = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool success, bytes memory ret) = calls[i].target.call(calls[i].callData);
            if (requireSuccess) require(success, "Multicall3: call failed");
            returnData[i] = Result(success, ret);
        }
    }
}
