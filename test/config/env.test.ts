import { expect } from 'chai';
import { ConfigError, describeSettings, loadConfig } from '../../config/env';

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
});
