import { expect } from 'chai';
import { hashTypedData, recoverTypedDataAddress, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { randomBytes } from 'node:crypto';
import { signRecoverable } from 'tiny-secp256k1';
import {
  MalformedAuthorizationError,
  RECOVERY_BACKEND,
  recoverPublicKey,
  recoverSigner,
  TransferSignatureVerifier,
  type TokenDomain,
} from '../../../core/payments/eip3009-signature';
import { randomAddress, randomNonce, TRANSFER_TYPES, USDC_ON_BASE } from './payer';

const N = (1n << 256n) - 0x14551231950b75fc4402da1732fc9bebfn;

describe('EIP-3009 signature check (tiny-secp256k1 + keccak) agrees with viem', () => {
  const domains: TokenDomain[] = [
    { name: 'USD Coin', version: '2', chainId: 8453, verifyingContract: USDC_ON_BASE },
    {
      name: 'USDC',
      version: '2',
      chainId: 84532,
      verifyingContract: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
    },
  ];

  const randomMessage = (from: Hex) => ({
    from,
    to: randomAddress(),
    value: BigInt(Math.floor(Math.random() * 1e9)),
    validAfter: BigInt(Math.floor(Math.random() * 2e9)),
    validBefore: BigInt(2e9) + BigInt(Math.floor(Math.random() * 1e9)),
    nonce: randomNonce(),
  });
  const asWire = (m: ReturnType<typeof randomMessage>) => ({
    ...m,
    value: String(m.value),
    validAfter: String(m.validAfter),
    validBefore: String(m.validBefore),
  });

  it('computes the same digest as viem hashTypedData and recovers the same address, for random keys and messages', async () => {
    for (let i = 0; i < 40; i++) {
      const domain = domains[i % domains.length];
      const account = privateKeyToAccount(generatePrivateKey());
      const message = randomMessage(account.address);
      const typed = {
        domain: domain as typeof domain & { verifyingContract: Hex },
        types: TRANSFER_TYPES,
        primaryType: 'TransferWithAuthorization' as const,
        message,
      };
      const signature = await account.signTypedData(typed);
      const verifier = new TransferSignatureVerifier(domain);
      expect(`0x${verifier.digest(asWire(message)).toString('hex')}`).to.equal(hashTypedData(typed));
      const viemSigner = await recoverTypedDataAddress({ ...typed, signature });
      expect(verifier.signerOf(asWire(message), signature)).to.equal(viemSigner.toLowerCase());
      expect(viemSigner).to.equal(account.address);
    }
  });

  it('agrees with viem on tampered messages: each changed field recovers another address', async () => {
    const domain = domains[0];
    const verifier = new TransferSignatureVerifier(domain);
    const account = privateKeyToAccount(generatePrivateKey());
    const message = randomMessage(account.address);
    const typed = {
      domain: domain as typeof domain & { verifyingContract: Hex },
      types: TRANSFER_TYPES,
      primaryType: 'TransferWithAuthorization' as const,
      message,
    };
    const signature = await account.signTypedData(typed);
    const tampered = [
      { ...message, to: randomAddress() },
      { ...message, value: message.value + 1n },
      { ...message, validAfter: message.validAfter + 1n },
      { ...message, validBefore: message.validBefore - 1n },
      { ...message, nonce: randomNonce() },
    ];
    for (const m of tampered) {
      const viemSigner = await recoverTypedDataAddress({ ...typed, message: m, signature });
      const ours = verifier.signerOf(asWire(m), signature);
      expect(ours).to.equal(viemSigner.toLowerCase());
      expect(ours).to.not.equal(account.address.toLowerCase());
    }
    // Another domain (token contract) recovers another address too.
    const other = new TransferSignatureVerifier({ ...domain, verifyingContract: randomAddress() });
    expect(other.signerOf(asWire(message), signature)).to.not.equal(account.address.toLowerCase());
  });

  it('accepts v as 27/28 or 0/1 and refuses high-s, zero r and other v values (the token contract would)', async () => {
    const domain = domains[0];
    const verifier = new TransferSignatureVerifier(domain);
    const account = privateKeyToAccount(generatePrivateKey());
    const message = randomMessage(account.address);
    const signature = await account.signTypedData({
      domain: domain as typeof domain & { verifyingContract: Hex },
      types: TRANSFER_TYPES,
      primaryType: 'TransferWithAuthorization',
      message,
    });
    const digest = verifier.digest(asWire(message));
    const bytes = Buffer.from(signature.slice(2), 'hex');
    const me = account.address.toLowerCase();
    expect(recoverSigner(digest, bytes)).to.equal(me);
    const yParity = Buffer.from(bytes);
    yParity[64] -= 27;
    expect(recoverSigner(digest, yParity)).to.equal(me);
    // (r, n - s, flipped v) is the same point's other signature: valid ECDSA, refused by EIP-2.
    const highS = Buffer.from(bytes);
    const s = BigInt(`0x${bytes.subarray(32, 64).toString('hex')}`);
    Buffer.from((N - s).toString(16).padStart(64, '0'), 'hex').copy(highS, 32);
    highS[64] = bytes[64] === 27 ? 28 : 27;
    expect(recoverSigner(digest, highS)).to.equal(null);
    const zeroR = Buffer.from(bytes);
    zeroR.fill(0, 0, 32);
    expect(recoverSigner(digest, zeroR)).to.equal(null);
    const badV = Buffer.from(bytes);
    badV[64] = 29;
    expect(recoverSigner(digest, badV)).to.equal(null);
    expect(recoverSigner(digest, bytes.subarray(0, 64))).to.equal(null);
    expect(verifier.signerOf(asWire(message), `${signature}00` as Hex)).to.equal(null);
  });

  it('refuses malformed fields with MalformedAuthorizationError', () => {
    const verifier = new TransferSignatureVerifier(domains[0]);
    const good = {
      from: randomAddress(),
      to: randomAddress(),
      value: '1',
      validAfter: '0',
      validBefore: '9',
      nonce: randomNonce(),
    };
    for (const bad of [
      { ...good, from: '0x1234' },
      { ...good, value: '-1' },
      { ...good, value: '1.5' },
      { ...good, validBefore: (1n << 256n).toString() },
      { ...good, nonce: '0x12' },
    ]) {
      expect(() => verifier.digest(bad)).to.throw(MalformedAuthorizationError);
    }
  });
});

describe('secp256k1 recovery: the native binding and the WebAssembly build agree', () => {
  const hex = (b: Uint8Array | null) => (b ? Buffer.from(b).toString('hex') : null);
  const word = (n: bigint) => Buffer.from(n.toString(16).padStart(64, '0'), 'hex');

  it('uses the native binding on this platform (linux-x64 prebuilt inside the npm package)', function () {
    if (process.platform !== 'linux' || process.arch !== 'x64') this.skip();
    expect(RECOVERY_BACKEND).to.equal('native');
  });

  it('recovers the same key from valid signatures, and none from malformed ones', () => {
    for (let i = 0; i < 200; i++) {
      const digest = randomBytes(32);
      const { signature, recoveryId } = signRecoverable(digest, randomBytes(32));
      const rid = recoveryId as 0 | 1;
      const native = recoverPublicKey(digest, signature, rid, 'native');
      expect(hex(native)).to.equal(hex(recoverPublicKey(digest, signature, rid, 'wasm')));
      expect(native).to.not.equal(null);
      // Another digest or recovery id: both backends give the same (other) key.
      const other = randomBytes(32);
      expect(hex(recoverPublicKey(other, signature, rid, 'native'))).to.equal(
        hex(recoverPublicKey(other, signature, rid, 'wasm')),
      );
      const flipped = (1 - rid) as 0 | 1;
      expect(hex(recoverPublicKey(digest, signature, flipped, 'native'))).to.equal(
        hex(recoverPublicKey(digest, signature, flipped, 'wasm')),
      );
    }
    const digest = randomBytes(32);
    const r = randomBytes(32);
    for (const [rr, ss] of [
      [word(0n), randomBytes(32)],
      [r, word(0n)],
      [word(N), randomBytes(32)],
      [r, word(N)],
      [word(N + 1n), word(5n)],
      [Buffer.alloc(32, 0xff), Buffer.alloc(32, 0xff)],
    ]) {
      const sig = Buffer.concat([rr, ss]);
      for (const rid of [0, 1] as const) {
        expect(recoverPublicKey(digest, sig, rid, 'native')).to.equal(null);
        expect(recoverPublicKey(digest, sig, rid, 'wasm')).to.equal(null);
      }
    }
  });
});
