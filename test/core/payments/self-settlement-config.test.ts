/**
 * The settings of self-hosted settlement (X402_FACILITATOR=self), as the boot reads them: what is
 * required with it, what conflicts, and that the settler key and the RPC URL are secrets (never
 * quoted by a boot error, redacted from log lines). The chain side is in self-settlement-chain.
 */
import { expect } from 'chai';
import { Writable } from 'node:stream';
import { ConfigError, loadConfig } from '../../../config/env';
import { paymentsConfigured } from '../../../core/config';
import { configuredSecrets, createLogger } from '../../../core/http/logging';

const KEY = `0x${'ab12'.repeat(16)}`;
const RPC = 'https://base.example-node.test/v2/secret-api-key-123';
const PAY_TO = `0x${'1'.repeat(40)}`;
const SELF = {
  X402_FACILITATOR: 'self',
  X402_PAY_TO: PAY_TO,
  X402_RPC_URL: RPC,
  X402_SETTLER_PRIVATE_KEY: KEY,
};

function problems(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).to.be.instanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('the configuration was accepted');
}

describe('self-hosted settlement settings', () => {
  it('self needs the receiving wallet, a node and a settler key, and takes no facilitator URL', () => {
    const message = problems({ X402_FACILITATOR: 'self' });
    for (const name of ['X402_PAY_TO', 'X402_RPC_URL', 'X402_SETTLER_PRIVATE_KEY']) {
      expect(message).to.include(`${name}: required when X402_FACILITATOR=self`);
    }
    expect(problems({ ...SELF, X402_FACILITATOR_URL: 'https://facilitator.test' })).to.match(
      /X402_FACILITATOR_URL: not used when X402_FACILITATOR=self/,
    );
    expect(problems({ ...SELF, X402_FACILITATOR: 'own' })).to.match(/X402_FACILITATOR/);
  });

  it('switches payments on without a facilitator URL; the remote facilitator stays the default', () => {
    const self = loadConfig(SELF).gateway;
    expect(self.x402).to.deep.include({ rpcUrl: RPC, selfSettlement: { settlerPrivateKey: KEY } });
    expect(self.x402.facilitatorUrl).to.equal(undefined);
    expect(paymentsConfigured(self)).to.equal(true);
    const remote = loadConfig({ X402_PAY_TO: PAY_TO, X402_FACILITATOR_URL: 'https://f.test' }).gateway;
    expect(remote.x402.selfSettlement).to.equal(undefined);
    expect(problems({ X402_PAY_TO: PAY_TO })).to.match(
      /X402_FACILITATOR_URL: required .* unless X402_FACILITATOR=self/,
    );
  });

  it('a malformed key or URL is refused without quoting it', () => {
    const badKey = `${KEY.slice(0, 60)}zz`;
    const message = problems({
      ...SELF,
      X402_SETTLER_PRIVATE_KEY: badKey,
      X402_RPC_URL: 'ftp://node.test/key-abc',
    });
    expect(message)
      .to.match(/X402_SETTLER_PRIVATE_KEY/)
      .and.match(/X402_RPC_URL/);
    expect(message).to.not.include(badKey.slice(2, 40));
    expect(message).to.not.include('key-abc');
  });

  it('log lines never show the settler key (with or without 0x) or the RPC URL', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    const logger = createLogger('info', sink, configuredSecrets(loadConfig(SELF).gateway));
    logger.info({ key: KEY, bare: KEY.slice(2), node: RPC }, `sending with ${KEY} through ${RPC}`);
    const text = lines.join('');
    expect(text).to.include('[redacted]');
    expect(text).to.not.include(KEY.slice(2));
    expect(text).to.not.include('secret-api-key-123');
  });
});
