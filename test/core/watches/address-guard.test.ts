/** The SSRF guard's address rules, address by address. */
import { expect } from 'chai';
import { checkUrlForm, refusedAddress } from '../../../core/watches/address-guard';
import { retryDelayMs, nextAttempt, RETRY_WINDOW_MS } from '../../../core/watches/retry-schedule';
import { newSigningSecret } from '../../../core/watches/signing';
import { REDACTED, secretRedactor } from '../../../core/util/redact';

describe('webhook address guard', () => {
  const refused = [
    '127.0.0.1',
    '127.8.9.10',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.254',
    '192.168.0.1',
    '100.64.0.1',
    '100.127.255.254',
    '169.254.169.254',
    '169.254.1.1',
    '0.0.0.0',
    '224.0.0.251',
    '255.255.255.255',
    '::',
    '::1',
    'fc00::1',
    'fd00:ec2::254',
    'fe80::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:a9fe:a9fe', // 169.254.169.254
    '::ffff:0:c0a8:101', // IPv4-translated 192.168.1.1
    '64:ff9b::a00:1', // NAT64 of 10.0.0.1
  ];
  const allowed = [
    '93.184.215.14',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
  ];

  it('refuses loopback, private, CGNAT, link-local, metadata, unspecified, multicast and mapped forms', () => {
    for (const a of refused) expect(refusedAddress(a, false), a).to.be.a('string');
  });

  it('lets public addresses through', () => {
    for (const a of allowed) expect(refusedAddress(a, false), a).to.equal(undefined);
  });

  it('with WEBHOOK_ALLOW_LOOPBACK lets loopback through, and nothing else', () => {
    for (const a of ['127.0.0.1', '::1', '::ffff:127.0.0.1'])
      expect(refusedAddress(a, true), a).to.equal(undefined);
    for (const a of refused.filter(
      (x) => !['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1', '::ffff:7f00:1'].includes(x),
    ))
      expect(refusedAddress(a, true), a).to.be.a('string');
  });

  it('reads URL forms: https only; http to loopback only with the flag; no credentials', () => {
    expect(checkUrlForm('https://hooks.example/x', false).ok).to.equal(true);
    expect(checkUrlForm('http://hooks.example/x', false).ok).to.equal(false);
    expect(checkUrlForm('http://127.0.0.1:8080/x', false).ok).to.equal(false);
    expect(checkUrlForm('http://127.0.0.1:8080/x', true).ok).to.equal(true);
    expect(checkUrlForm('http://hooks.example/x', true).ok).to.equal(false);
    expect(checkUrlForm('https://a:b@hooks.example/x', false).ok).to.equal(false);
    expect(checkUrlForm('not a url', false).ok).to.equal(false);
    expect(checkUrlForm(42, false).ok).to.equal(false);
  });
});

describe('webhook retry schedule', () => {
  it('doubles from 30 s up to 12 h, with jitter between half and the whole', () => {
    expect(retryDelayMs(1, () => 1)).to.equal(30_000);
    expect(retryDelayMs(1, () => 0)).to.equal(15_000);
    expect(retryDelayMs(2, () => 1)).to.equal(60_000);
    expect(retryDelayMs(20, () => 1)).to.equal(12 * 3600_000);
  });

  it('ends 72 hours after the first attempt, with a last attempt at the end', () => {
    const first = new Date('2026-11-27T00:00:00Z');
    const late = new Date(first.getTime() + RETRY_WINDOW_MS - 1000);
    expect(nextAttempt(first, 12, late, () => 1)!.getTime()).to.equal(first.getTime() + RETRY_WINDOW_MS);
    expect(nextAttempt(first, 13, new Date(first.getTime() + RETRY_WINDOW_MS), () => 1)).to.equal(null);
  });
});

describe('webhook secrets in logs', () => {
  it('are redacted wherever they appear, as is, JSON-escaped or percent-encoded', () => {
    const secret = newSigningSecret();
    const redact = secretRedactor();
    for (const text of [
      `secret ${secret} here`,
      JSON.stringify({ body: { secret } }),
      `url=${encodeURIComponent(secret)}&x=1`,
    ]) {
      const out = redact(text);
      expect(out).not.to.include(secret.slice(6, 20));
      expect(out).to.include(REDACTED);
    }
  });
});
