import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { Writable } from 'node:stream';
import { configuredSecrets, createLogger } from '../../../core/http/logging';
import { generateApiKey } from '../../../core/keys/api-key';
import { loadConfig } from '../../../config/env';
import { REDACTED, redactSecrets, secretRedactor } from '../../../core/util/redact';
import { FIXTURE_PLUGINS_DIR, startTestGateway } from '../../support/gateway';
import { makePluginsDir, writeJsPlugin } from '../../support/js-plugin';

/** An x402 payment header as clients send it: base64 of the JSON payment payload. */
function x402Header(): { header: string; signature: string; nonce: string } {
  const signature = `0x${'a1b2c3d4e5'.repeat(13)}`;
  const nonce = `0x${'5e'.repeat(32)}`;
  const payload = {
    x402Version: 2,
    resource: {
      url: 'http://gateway.test/v1/local/fx/echo',
      description: 'echo',
      mimeType: 'application/json',
    },
    accepted: { scheme: 'exact', network: 'eip155:8453', amount: '1000' },
    payload: {
      signature,
      authorization: {
        from: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
        to: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
        value: '1000',
        validAfter: '0',
        validBefore: '9999999999',
        nonce,
      },
    },
  };
  return { header: Buffer.from(JSON.stringify(payload)).toString('base64'), signature, nonce };
}

const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';

describe('secret redaction (unit)', () => {
  const key = generateApiKey();

  it('leaves text with nothing secret unchanged (the same string)', () => {
    const r = secretRedactor(['mkt-secret-value-0001', 'Zq7']);
    for (const s of [
      '/preview/v1/local/fx/echo?year=2026&n=3',
      '{"level":30,"msg":"GET 200","nonce":"0x' + '5e'.repeat(32) + '"}',
      'Mozilla/5.0 (X11; Linux x86_64) Zq7x aZq7',
      `key prefix ${key.slice(0, 11)}`,
    ]) {
      expect(r(s)).to.equal(s);
    }
  });

  it('redacts API keys in a path, in any query value and in free text', () => {
    const out = redactSecrets(`/preview/v1/${key}/x?q=${key}&other=1 and ${key}.`);
    expect(out).to.not.include(key.slice(5));
    expect(out).to.equal(`/preview/v1/${REDACTED}/x?q=${REDACTED}&other=1 and ${REDACTED}.`);
  });

  it('redacts a long x402 payment (base64 JSON) in a query value, raw or percent-encoded', () => {
    const { header, signature, nonce } = x402Header();
    expect(header.length).to.be.greaterThan(400);
    for (const value of [header, encodeURIComponent(header)]) {
      const out = redactSecrets(`/v1/local/fx/echo?year=2026&p=${value}&n=1`);
      expect(out).to.equal(`/v1/local/fx/echo?year=2026&p=${REDACTED}&n=1`);
    }
    // The decoded payment's raw signature is redacted too; a 32-byte nonce stays readable.
    const decoded = Buffer.from(header, 'base64').toString();
    const out = redactSecrets(decoded);
    expect(out).to.not.include(signature.slice(2));
    expect(out).to.include(nonce);
  });

  it('redacts a JWT whole (signature included) and bearer tokens', () => {
    const out = redactSecrets(`token=${JWT}; Authorization: Bearer abc.def-ghi_jkl`);
    expect(out).to.equal(`token=${REDACTED}; Authorization: ${REDACTED}`);
    expect(redactSecrets(`/x?auth=Bearer%20${'t0k3n'.repeat(3)}`)).to.equal(`/x?auth=${REDACTED}`);
  });

  it('hides the password of a connection string, keeping the user', () => {
    expect(redactSecrets('could not open mongodb://gateway:s3cr%40t@db.internal:27017/jp')).to.equal(
      `could not open mongodb://gateway:${REDACTED}@db.internal:27017/jp`,
    );
  });

  it('redacts configured secrets anywhere when they have 8 characters or more, in any written form', () => {
    const secret = 'mkt"secret value/0001';
    const r = secretRedactor([secret]);
    expect(r(`a ${secret} b`)).to.equal(`a ${REDACTED} b`);
    expect(r(`{"ua":${JSON.stringify(`x ${secret} y`)}}`)).to.equal(`{"ua":"x ${REDACTED} y"}`);
    expect(r(`/x?q=${encodeURIComponent(secret)}`)).to.equal(`/x?q=${REDACTED}`);
    expect(r(`/x?q=${new URLSearchParams({ q: secret }).toString().slice(2)}`)).to.equal(`/x?q=${REDACTED}`);
  });

  it('redacts a short configured secret as a whole value only', () => {
    const r = secretRedactor(['Zq7']);
    expect(r('/x?a=Zq7')).to.equal(`/x?a=${REDACTED}`);
    expect(r('/x?a=Zq7&b=1#f')).to.equal(`/x?a=${REDACTED}&b=1#f`);
    expect(r('{"user-agent":"Zq7","referer":"Zq7"}')).to.equal(
      `{"user-agent":"${REDACTED}","referer":"${REDACTED}"}`,
    );
    expect(r('Zq7')).to.equal(REDACTED);
    // Inside text, or as part of a longer value, it stays: a short string is everywhere.
    expect(r('/x?a=Zq7x&b=aZq7 and Zq7 in text')).to.equal('/x?a=Zq7x&b=aZq7 and Zq7 in text');
  });

  it('takes the token of an "<scheme> <token>" authorization value as a secret too', () => {
    const r = secretRedactor(['Basic dXNlcjpwYXNzd29yZA==']);
    expect(r('sent dXNlcjpwYXNzd29yZA== to the facilitator')).to.equal(`sent ${REDACTED} to the facilitator`);
  });

  it('knows the configured secrets: marketplace, metrics token, facilitator auth, MongoDB password', () => {
    const config = loadConfig({
      MARKETPLACE_SECRETS: 'aaaaaaaaaaaaaaaa1,bbbbbbbbbbbbbbbb2',
      METRICS_TOKEN: 'metrics-token-0123456789',
      X402_FACILITATOR_AUTH: 'Bearer fac',
      MONGODB_URI: 'mongodb://gw:p%40ss-w0rd@db.internal/jp',
    }).gateway;
    expect(configuredSecrets(config)).to.include.members([
      'aaaaaaaaaaaaaaaa1',
      'bbbbbbbbbbbbbbbb2',
      'metrics-token-0123456789',
      'Bearer fac',
      'p%40ss-w0rd',
      'p@ss-w0rd',
    ]);
  });

  it('applies to every line a logger writes: objects, messages, errors with their stacks, children', () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    const logger = createLogger('info', destination, ['configured-secret-123', 'Zq7']);
    const err = new Error(`upstream refused ${key} and configured-secret-123`);
    logger.error({ err, nested: { deep: { ua: 'Zq7', jwt: JWT } } }, `failed for ${key}`);
    logger.child({ req_id: 'r1' }).warn(err);
    const text = lines.join('');
    for (const s of [key, 'configured-secret-123', '"Zq7"', JWT.slice(0, 30)]) expect(text).to.not.include(s);
    expect(lines).to.have.length(2);
    for (const line of lines) {
      const parsed = JSON.parse(line);
      expect(parsed.err.message).to.include(REDACTED);
      expect(parsed.err.stack).to.include(REDACTED);
    }
    expect(JSON.parse(lines[0]!).nested.deep.ua).to.equal(REDACTED);
  });
});

describe('secret redaction in the gateway logs', () => {
  const MARKETPLACE_SECRET = 'mkt-shared-secret-0123456789';
  const METRICS_TOKEN = 'metrics-token-abcdefghijklmnop';
  const FACILITATOR_AUTH = 'Zq7';

  it('never logs a key, payment, token or configured secret sent in the path, query or headers', async () => {
    const dir = makePluginsDir();
    const key = generateApiKey();
    writeJsPlugin(dir, {
      folder: 'local-leaky',
      handleBody: `throw new Error('upstream answered 401 for ' + ${JSON.stringify(key)} + ' / ' + ${JSON.stringify(MARKETPLACE_SECRET)});`,
    });
    const logs: string[] = [];
    const gw = await startTestGateway({
      pluginDirs: [dir],
      plugins: ['local-leaky'],
      logs,
      env: {
        MARKETPLACE_SECRETS: `${MARKETPLACE_SECRET},other-secret-abcdefghij`,
        METRICS_TOKEN,
        X402_FACILITATOR_AUTH: FACILITATOR_AUTH,
      },
    });
    const { header: payment } = x402Header();
    try {
      const requests: Array<[string, Record<string, string>]> = [
        [`/preview/v1/${key}/holiday`, {}],
        [`/preview/v1/local/leaky/echo?q=${key}`, {}],
        ['/preview/v1/local/leaky/echo?n=1', { 'User-Agent': `curl/8.5 ${key}` }],
        ['/preview/v1/local/leaky/echo?n=2', { Referer: `https://example.jp/?k=${key}` }],
        [`/preview/v1/local/leaky/echo?note=${MARKETPLACE_SECRET}`, {}],
        ['/preview/v1/local/leaky/echo?n=3', { 'User-Agent': MARKETPLACE_SECRET }],
        ['/preview/v1/local/leaky/echo?n=4', { Origin: `https://x.test/${METRICS_TOKEN}` }],
        ['/preview/v1/local/leaky/echo?n=5', { 'X-Forwarded-For': MARKETPLACE_SECRET }],
        [`/preview/v1/local/leaky/echo?t=${FACILITATOR_AUTH}`, { Referer: FACILITATOR_AUTH }],
        [`/preview/v1/local/leaky/echo?p=${encodeURIComponent(payment)}`, {}],
        [`/preview/v1/local/leaky/echo?jwt=${JWT}`, {}],
      ];
      for (const [p, headers] of requests) await gw.get(p, headers);
      await gw.close();
      const text = logs.join('\n');
      const lines = logs.map((l) => JSON.parse(l));
      // Every request was logged, and the handler's error (message and stack) too.
      expect(lines.filter((l) => l.req?.url)).to.have.length(requests.length);
      expect(lines.some((l) => l.err?.message?.startsWith('upstream answered 401'))).to.equal(true);
      for (const secret of [
        key,
        key.slice(5, 25),
        MARKETPLACE_SECRET,
        METRICS_TOKEN,
        payment.slice(0, 24),
        JWT.slice(40),
      ]) {
        expect(text, secret).to.not.include(secret);
      }
      // The short facilitator secret is gone as a whole value; the request lines still say where it was.
      expect(text).to.not.match(/[="]Zq7["&]/);
      const urls = lines.filter((l) => l.req?.url).map((l) => l.req.url as string);
      expect(urls).to.include(`/preview/v1/${REDACTED}/holiday`);
      expect(urls).to.include(`/preview/v1/local/leaky/echo?q=${REDACTED}`);
      expect(urls).to.include(`/preview/v1/local/leaky/echo?note=${REDACTED}`);
      expect(urls).to.include(`/preview/v1/local/leaky/echo?t=${REDACTED}`);
      const headers = lines.filter((l) => l.req?.headers).map((l) => l.req.headers);
      expect(headers.map((h) => h['user-agent'])).to.include.members([`curl/8.5 ${REDACTED}`, REDACTED]);
      expect(headers.map((h) => h.referer)).to.include.members([
        `https://example.jp/?k=${REDACTED}`,
        REDACTED,
      ]);
      expect(headers.map((h) => h['x-forwarded-for'])).to.include(REDACTED);
      expect(headers.map((h) => h.origin)).to.include(`https://x.test/${REDACTED}`);
      const crash = lines.find((l) => l.err?.message?.startsWith('upstream answered 401'));
      expect(crash.err.message).to.equal(`upstream answered 401 for ${REDACTED} / ${REDACTED}`);
      expect(crash.err.stack).to.include(REDACTED);
    } finally {
      await gw.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('does not cut a secret in half in a long header value', async () => {
    const logs: string[] = [];
    const gw = await startTestGateway({
      pluginDirs: [FIXTURE_PLUGINS_DIR],
      plugins: ['local-fx-echo'],
      logs,
      env: { MARKETPLACE_SECRETS: MARKETPLACE_SECRET },
    });
    try {
      // The logged header is cut at 300 characters, inside the secret.
      await gw.get('/preview/v1/local/fx/echo?n=3', {
        'User-Agent': `${'u'.repeat(290)}${MARKETPLACE_SECRET}`,
      });
      await gw.close();
      const line = logs.map((l) => JSON.parse(l)).find((l) => l.req?.url?.startsWith('/preview/'));
      expect(line.req.headers['user-agent']).to.equal(`${'u'.repeat(290)}${REDACTED}`);
      expect(logs.join('\n')).to.not.include(MARKETPLACE_SECRET.slice(0, 10));
    } finally {
      await gw.close();
    }
  });
});
