/**
 * The caller's W3C trace reaches the NTA Web-API (issue 29, item 7): the live lookup sends the
 * same trace id with the gateway's span as parent, on the preview (GET) and the broker (a POST
 * whose body is parsed first).
 */
import { expect } from 'chai';
import { snapshotRecords } from '../../domain/registry/sources/snapshot-registry';
import { startTestGateway, type TestGateway } from '../../test/support/gateway';
import { startNtaStandin, type NtaStandin } from '../../test/support/nta-standin';

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const HEADER = `00-${TRACE}-b7ad6b7169203331-01`;

describe('local-houjin-number: the trace reaches the Web-API', () => {
  let standin: NtaStandin;
  let gw: TestGateway;
  const logs: string[] = [];
  before(async () => {
    standin = await startNtaStandin({ appId: 'live-app-id', records: snapshotRecords() });
    gw = await startTestGateway({
      plugins: ['local-houjin-number'],
      clock: '2026-11-22T03:00:00Z',
      logs,
      env: { NTA_HOUJIN_APP_ID: 'live-app-id', NTA_HOUJIN_BASE_URL: standin.houjinBaseUrl },
    });
  });
  after(async () => {
    await gw.close();
    await standin.close();
  });

  const spanOf = (id: string) =>
    logs.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.req_id === id && 'req' in l)
      ?.span_id;

  it('on the preview and through the broker', async () => {
    standin.requests.length = 0;
    const preview = await gw.get('/preview/v1/local/houjin-number/lookup?number=7000012050002', {
      traceparent: HEADER,
      tracestate: 'caller=1',
      'X-Request-Id': 'trace-preview',
    });
    expect(preview.status).to.equal(200);
    expect(standin.requests.length).to.be.greaterThan(0);
    for (const r of standin.requests) {
      expect(r.traceparent).to.equal(`00-${TRACE}-${String(spanOf('trace-preview'))}-01`);
      expect(r.tracestate).to.equal('caller=1');
    }

    const { api_key } = (await gw.post('/keys/create', { owner_label: 'trace' })).body;
    standin.requests.length = 0;
    const broker = await gw.post(
      '/broker/call',
      { product_id: 'jp-local-pack-v1-houjin-number', query: { number: '1180301018771' } },
      { 'X-API-Key': api_key, traceparent: HEADER, 'X-Request-Id': 'trace-broker' },
    );
    expect(broker.status, broker.text).to.equal(200);
    expect(standin.requests.length).to.be.greaterThan(0);
    for (const r of standin.requests)
      expect(r.traceparent).to.equal(`00-${TRACE}-${String(spanOf('trace-broker'))}-01`);
  });
});
