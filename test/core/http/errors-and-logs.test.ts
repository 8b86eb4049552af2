import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { FIXTURE_PLUGINS_DIR, startTestGateway } from '../../support/gateway';
import { makePluginsDir, writeJsPlugin } from '../../support/js-plugin';

describe('errors and logs', () => {
  it('answers a handler crash with a JSON 500 that leaks no stack trace, and logs it', async () => {
    const dir = makePluginsDir();
    writeJsPlugin(dir, {
      folder: 'local-boom',
      handleBody: "throw new Error('kaboom at /secret/path.js:12');",
    });
    const logs: string[] = [];
    const gw = await startTestGateway({ pluginDirs: [dir], logs });
    try {
      const res = await gw.get('/preview/v1/local/boom/echo?n=2');
      expect(res.status).to.equal(500);
      expect(res.body).to.include({ error: 'internal_error' });
      expect(res.text).to.not.include('kaboom').and.not.include('.js:');
      expect(res.body.request_id).to.equal(res.headers.get('x-request-id'));
      await new Promise((r) => setTimeout(r, 50));
      expect(logs.some((l) => l.includes('kaboom'))).to.equal(true);
    } finally {
      await gw.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('writes JSON log lines with the request id and never a credential header or secret query value', async () => {
    const logs: string[] = [];
    const gw = await startTestGateway({
      pluginDirs: [FIXTURE_PLUGINS_DIR],
      plugins: ['local-fx-echo'],
      logs,
    });
    const secrets = {
      'X-API-Key': 'jpk_live_SECRETKEYVALUE123456',
      'X-PAYMENT': 'eyJzZWNyZXQiOiJwYXltZW50In0=',
      'PAYMENT-SIGNATURE': 'c2lnbmF0dXJlLXNlY3JldA==',
      'X-Marketplace-Proxy-Secret': 'mkt-secret-value-one-111',
      'X-Service-Marketplace-Secret': 'mkt-secret-value-two-222',
      Authorization: 'Bearer tokentokentoken',
    };
    try {
      const res = await gw.get('/preview/v1/local/fx/echo?n=3&api_key=QUERYSECRET999', secrets);
      expect(res.status).to.equal(422); // api_key is not a parameter: refused, but logged safely
      await gw.close();
      const text = logs.join('\n');
      const line = logs.map((l) => JSON.parse(l)).find((l) => l.req?.url?.startsWith('/preview/'));
      expect(line.req.id).to.equal(res.headers.get('x-request-id'));
      expect(line.req.headers['x-api-key']).to.equal('[redacted]');
      for (const value of [...Object.values(secrets), 'QUERYSECRET999']) expect(text).to.not.include(value);
    } finally {
      await gw.close();
    }
  });
});
