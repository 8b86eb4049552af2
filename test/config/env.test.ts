import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, describeSettings, loadConfig, quotesValueOf } from '../../config/env';

describe('configuration from the environment', () => {
  it('has documented defaults', () => {
    const c = loadConfig({});
    expect(c.gateway).to.include({
      port: 8080,
      host: '0.0.0.0',
      baseUrl: 'http://localhost:8080',
      logLevel: 'info',
      trialCreditMicroUsdc: 250000,
    });
    expect(c.gateway.x402).to.include({
      network: 'eip155:8453',
      asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    });
    expect(c.gateway.marketplace).to.deep.equal({ segment: 'partner', secrets: [] });
    expect(c.gateway.mongodb).to.equal(undefined);
    expect(describeSettings().map((s) => s.name)).to.include.members([
      'PORT',
      'MONGODB_URI',
      'X402_PAY_TO',
      'MARKETPLACE_SECRETS',
    ]);
  });

  const bad: Array<[Record<string, string>, RegExp]> = [
    [{ PORT: 'abc' }, /PORT: .*got "abc".*an integer from 0 to 65535/],
    [{ PORT: '70000' }, /PORT:/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL:/],
    [{ X402_PAY_TO: '0x123' }, /X402_PAY_TO:/],
    [
      { X402_PAY_TO: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C' },
      /X402_FACILITATOR_URL: required when X402_PAY_TO is set/,
    ],
    [{ MONGODB_URI: 'http://db' }, /MONGODB_URI:/],
    [{ MARKETPLACE_SECRETS: 'short' }, /MARKETPLACE_SECRETS:/],
    [{ TRIAL_CREDIT_MICRO_USDC: '-1' }, /TRIAL_CREDIT_MICRO_USDC:/],
    [{ X402_NETWORK: 'base' }, /X402_NETWORK:/],
    [{ TRIAL_CREDIT_DAILY_BUDGET_MICRO_USDC: '-1' }, /TRIAL_CREDIT_DAILY_BUDGET_MICRO_USDC:/],
    [
      { TRIAL_CREDIT_MICRO_USDC: '300000', TRIAL_CREDIT_DAILY_BUDGET_MICRO_USDC: '200000' },
      /TRIAL_CREDIT_DAILY_BUDGET_MICRO_USDC: smaller than TRIAL_CREDIT_MICRO_USDC/,
    ],
    [{ KEY_CREATE_LIMIT_PER_HOUR_PER_IPV6_64: '0' }, /KEY_CREATE_LIMIT_PER_HOUR_PER_IPV6_64:/],
    [{ KEYS_CREATE_ALLOWED_ORIGINS: '*' }, /KEYS_CREATE_ALLOWED_ORIGINS:/],
    [{ KEYS_CREATE_ALLOWED_ORIGINS: 'null' }, /KEYS_CREATE_ALLOWED_ORIGINS:/],
    [{ KEYS_CREATE_ALLOWED_ORIGINS: 'https://app.example/' }, /KEYS_CREATE_ALLOWED_ORIGINS:/],
    [{ KEYS_CREATE_ALLOWED_ORIGINS: 'app.example' }, /KEYS_CREATE_ALLOWED_ORIGINS:/],
  ];
  for (const [env, pattern] of bad) {
    it(`refuses ${JSON.stringify(env)}, naming the variable`, () => {
      expect(() => loadConfig(env)).to.throw(ConfigError, pattern);
    });
  }

  it('limits key creation by default: 5 per hour per address and per IPv6 /64, 200 default keys of credit a day, no CORS', () => {
    const c = loadConfig({});
    expect(c.gateway.limits).to.include({ keyCreatePerHour: 5, keyCreatePerHourPerIpv6Net64: 5 });
    expect(c.gateway.trialCreditDailyBudgetMicroUsdc).to.equal(200 * c.gateway.trialCreditMicroUsdc);
    expect(c.gateway.keysCreateAllowedOrigins).to.deep.equal([]);
    expect(
      loadConfig({ TRIAL_CREDIT_DAILY_BUDGET_MICRO_USDC: '0' }).gateway.trialCreditDailyBudgetMicroUsdc,
    ).to.equal(0);
  });

  it('reads the origins allowed to create keys from a browser, exact and lowercased', () => {
    const c = loadConfig({
      KEYS_CREATE_ALLOWED_ORIGINS: 'https://App.Example, http://localhost:3000,https://[::1]:8443',
    });
    expect(c.gateway.keysCreateAllowedOrigins).to.deep.equal([
      'https://app.example',
      'http://localhost:3000',
      'https://[::1]:8443',
    ]);
  });

  it('reads a full x402 and marketplace setup', () => {
    const c = loadConfig({
      X402_PAY_TO: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
      X402_FACILITATOR_URL: 'http://127.0.0.1:9/facilitator/',
      MARKETPLACE_SECRETS: 'aaaaaaaaaaaaaaaa1,bbbbbbbbbbbbbbbb2',
      MARKETPLACE_SEGMENT: 'rapidapi',
      BASE_URL: 'https://api.example.jp/',
    });
    expect(c.gateway.x402.facilitatorUrl).to.equal('http://127.0.0.1:9/facilitator');
    expect(c.gateway.marketplace).to.deep.equal({
      segment: 'rapidapi',
      secrets: ['aaaaaaaaaaaaaaaa1', 'bbbbbbbbbbbbbbbb2'],
    });
    expect(c.gateway.baseUrl).to.equal('https://api.example.jp');
  });

  describe('boot errors never quote a secret', () => {
    const secretBad: Array<[string, string, string]> = [
      ['MARKETPLACE_SECRETS', 'this-one-is-long-enough,short-leak1', 'one secret too short'],
      ['MARKETPLACE_SECRETS', 'has space in-it-0123456789', 'a space'],
      ['METRICS_TOKEN', 'tok-leak-9876', 'too short'],
      ['MONGODB_URI', 'mongo://gw:hunter2-leak@db.internal/jp', 'a wrong scheme, with a password'],
      ['MONGODB_URI', 'mongodb://gw:hunter2 leak@db.internal/jp', 'a space in the password'],
      ['X402_FACILITATOR_URL', 'facilitator.test/?apikey=leak-4567', 'no scheme, a key in the query'],
      ['NTA_HOUJIN_BASE_URL', 'proxy.internal/?token=leak-7654', 'no scheme, a token in the query'],
    ];
    for (const [name, value, what] of secretBad) {
      it(`names ${name} (${what}) and its rule, without its value`, () => {
        let message = '';
        try {
          loadConfig({ [name]: value });
        } catch (err) {
          expect(err).to.be.instanceOf(ConfigError);
          message = (err as Error).message;
        }
        expect(message).to.include(`${name}:`).and.include('accepted:');
        expect(message).to.not.include(value);
        expect(message).to.not.include('leak');
        expect(message).to.not.include('got "');
      });
    }

    it('quotes only variables known not to be secret, all of them real variables', () => {
      const names = describeSettings().map((s) => s.name);
      const quoted = names.filter(quotesValueOf);
      expect(quoted).to.include.members(['PORT', 'LOG_LEVEL', 'BASE_URL', 'TRUST_PROXY']);
      for (const name of [
        'MARKETPLACE_SECRETS',
        'METRICS_TOKEN',
        'X402_FACILITATOR_AUTH',
        'X402_FACILITATOR_URL',
        'MONGODB_URI',
        'NTA_HOUJIN_APP_ID',
        'NTA_INVOICE_APP_ID',
        'NTA_HOUJIN_BASE_URL',
        'JGRANTS_BASE_URL',
      ]) {
        expect(names).to.include(name);
        expect(quotesValueOf(name), name).to.equal(false);
      }
      // A variable named like a secret is never quoted, listed or not; unknown names are not quoted.
      for (const name of names.filter((n) => /_(SECRET|TOKEN|KEY|AUTH|PASSWORD|URI|APP_ID)/.test(n))) {
        expect(quotesValueOf(name), name).to.equal(false);
      }
      expect(quotesValueOf('SOME_NEW_SETTING')).to.equal(false);
    });

    it('quotes a bad non-secret value, with anything shaped like a credential hidden', () => {
      expect(() => loadConfig({ BASE_URL: 'ftp://gw:pw-leak-0123@api.example.jp' })).to.throw(
        ConfigError,
        /BASE_URL: .*got "ftp:\/\/gw:\[redacted\]@api\.example\.jp"/,
      );
    });
  });

  describe('the process refusing to start', () => {
    const main = path.resolve(__dirname, '..', '..', 'main.js');
    function start(env: Record<string, string>): { status: number | null; stderr: string } {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'jpgw-boot-'));
      try {
        const out = spawnSync(process.execPath, [main], {
          env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', ...env },
          encoding: 'utf8',
          timeout: 30_000,
        });
        return { status: out.status, stderr: out.stderr };
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    }

    it('names a bad MARKETPLACE_SECRETS or METRICS_TOKEN without printing it (exit 78)', () => {
      const out = start({ MARKETPLACE_SECRETS: 'boot-leak-short', METRICS_TOKEN: 'boot-leak-2' });
      expect(out.status).to.equal(78);
      expect(out.stderr).to.match(/^Refusing to start: Invalid configuration/);
      expect(out.stderr).to.include('MARKETPLACE_SECRETS:').and.include('METRICS_TOKEN:');
      expect(out.stderr).to.not.include('boot-leak');
    });

    it('does not print the MongoDB password when the store cannot be opened (exit 1)', () => {
      const out = start({ MONGODB_URI: 'mongodb://gw:hunter2-boot-pw@127.0.0.1:1/jp?bogusOption=1' });
      expect(out.status).to.equal(1);
      expect(out.stderr).to.match(/^Refusing to start: /);
      expect(out.stderr).to.not.include('hunter2');
    });
  });
});
