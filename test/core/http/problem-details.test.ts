/**
 * Errors as RFC 9457 problem details (issue 29, item 1): every HTTP error is
 * application/problem+json with type (the errors page's anchor), title, status, detail and
 * instance (the request id), keeping the stable code, hint and correction_hints; the bodies the
 * spec fixes (the x402 challenge, the text 401 of /keys/status) stay as it says; 415 for a body
 * that is not JSON; 401 names the key's scheme in WWW-Authenticate. MCP tool errors are unchanged.
 */
import { expect } from 'chai';
import { connect } from 'node:net';
import { ERROR_CATALOGUE } from '../../../core/http/error-catalogue';
import { startFacilitatorStandin, type FacilitatorStandin } from '../../support/facilitator-standin';
import { ECHO, FAILING, fixtures, ITEM } from '../../support/fx-endpoints';
import { startTestGateway, type TestGateway, type TestResponse } from '../../support/gateway';
import { callTool, connectMcp, structured } from '../../support/mcp-client';

const BASE = 'http://gateway.test';

function expectProblem(res: TestResponse, status: number, code: string): void {
  expect(res.status, res.text).to.equal(status);
  expect(res.headers.get('content-type')).to.equal('application/problem+json; charset=utf-8');
  expect(res.body).to.include({
    type: `${BASE}/portal/errors#${code}`,
    title: ERROR_CATALOGUE[code as keyof typeof ERROR_CATALOGUE]?.title ?? res.body.title,
    status,
    error: code,
    instance: res.headers.get('x-request-id'),
    request_id: res.headers.get('x-request-id'),
  });
  expect(res.body.detail).to.equal(res.body.message).and.be.a('string').and.not.equal('');
}

describe('errors as problem details (RFC 9457)', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({
      ...fixtures(ECHO, FAILING, ITEM),
      env: { TRIAL_CREDIT_MICRO_USDC: '1000' },
    });
  });
  after(() => gw.close());

  it('a 404 and a 405 are problems whose type is the anchor of their code on the errors page', async () => {
    expectProblem(await gw.get('/nothing-here'), 404, 'not_found');
    const res = await gw.post('/health', {});
    expectProblem(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).to.include('GET');
  });

  it('a 422 keeps correction_hints as an extension member', async () => {
    const res = await gw.get(`/preview/v1/${ECHO.tail}?n=42`);
    expectProblem(res, 422, 'invalid_query');
    expect(res.body.correction_hints[0]).to.include({ parameter: 'n', code: 'out_of_range' });
  });

  it("a plugin's declared code links to its row; the instance is the caller's X-Request-Id", async () => {
    const res = await gw.get(`/preview/v1/${ITEM.tail}?id=item-100`, { 'X-Request-Id': 'trace-29' });
    expectProblem(res, 404, 'item_not_found');
    expect(res.body).to.include({ title: 'Item not found', instance: 'trace-29' });
  });

  it('the errors page documents every problem type of the catalogue and of the plugins, each at its anchor', async () => {
    const page = await gw.get('/portal/errors');
    expect(page.status).to.equal(200);
    const codes = [...Object.keys(ERROR_CATALOGUE), 'item_not_found', 'fixture_not_found'].filter(
      // Only answered where x402 is configured (this gateway has it off).
      (c) => c !== 'payment_required',
    );
    for (const code of codes) expect(page.text, code).to.include(`id="${code}"`);
    expect(page.text).not.to.include('id="payment_required"');
    const md = (await gw.get('/portal.md')).text;
    for (const code of codes) expect(md, code).to.include(`| \`${code}\` |`);
  });

  it('401 on the broker names the scheme in WWW-Authenticate; /keys/status keeps the text body', async () => {
    const missing = await gw.post('/broker/call', { product_id: ECHO.brokerId, query: { n: 1 } });
    expectProblem(missing, 401, 'api_key_required');
    expect(missing.headers.get('www-authenticate')).to.equal('ApiKey header="X-API-Key"');
    const wrong = await gw.post('/broker/call', {}, { 'X-API-Key': 'jpgw_nope' });
    expectProblem(wrong, 401, 'api_key_invalid');
    expect(wrong.headers.get('www-authenticate')).to.equal('ApiKey header="X-API-Key"');
    const status = await gw.get('/keys/status');
    expect(status.status).to.equal(401);
    expect(status.headers.get('content-type')).to.match(/^text\/plain/);
    expect(status.text).to.equal('missing API key');
    expect(status.headers.get('www-authenticate')).to.equal('ApiKey header="X-API-Key"');
  });

  it('a key out of credit and a failed handler on the broker are problems (nothing charged)', async () => {
    const { api_key } = (await gw.post('/keys/create', { owner_label: 'problems' })).body;
    const failed = await gw.post(
      '/broker/call',
      { product_id: FAILING.brokerId, query: { fail: 'unavailable' } },
      { 'X-API-Key': api_key },
    );
    expectProblem(failed, 503, 'source_unavailable');
    expect(failed.headers.get('x-credit-charged-micro-usdc')).to.equal('0');
    const first = await gw.post(
      '/broker/call',
      { product_id: ECHO.brokerId, query: { n: 1 } },
      { 'X-API-Key': api_key },
    );
    expect(first.status).to.equal(200);
    const broke = await gw.post(
      '/broker/call',
      { product_id: ECHO.brokerId, query: { n: 2 } },
      { 'X-API-Key': api_key },
    );
    expectProblem(broke, 402, 'insufficient_credit');
    expect(broke.body.balance).to.deep.equal({ micro_usdc: 0, usdc: '0' });
  });

  it('415 for a body sent as another media type or charset, with Accept-Post; 400 for a missing body', async () => {
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/json; charset=latin1',
    ]) {
      const res = await gw.post('/keys/create', '{"owner_label":"x"}', { 'content-type': type });
      expectProblem(res, 415, 'unsupported_media_type');
      expect(res.headers.get('accept-post'), type).to.equal('application/json');
    }
    const none = await fetch(`${gw.url}/keys/create`, { method: 'POST' });
    expect(none.status).to.equal(400);
    expect(((await none.json()) as { error: string }).error).to.equal('invalid_body');
  });

  it('an error on the raw socket (oversized headers) is a problem too, without an instance', async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const url = new URL(gw.url);
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write(`GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
      });
      let text = '';
      socket.on('data', (d) => (text += String(d)));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(raw).to.match(/^HTTP\/1\.1 431 /);
    expect(raw).to.include('Content-Type: application/problem+json; charset=utf-8');
    const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
    expect(body).to.include({
      type: `${BASE}/portal/errors#headers_too_large`,
      status: 431,
      error: 'headers_too_large',
      instance: '',
    });
  });

  it('an MCP tool error keeps the plain error object (not an HTTP problem)', async () => {
    const client = await connectMcp(gw, '/preview/mcp');
    try {
      const result = await callTool(client, ECHO.endpointId, { n: 42 });
      expect(result.isError).to.equal(true);
      const error = structured(result);
      expect(error.error).to.equal('invalid_query');
      expect(error).not.to.have.any.keys('type', 'title', 'status', 'detail', 'instance');
    } finally {
      await client.close();
    }
  });
});

describe('the x402 challenge keeps the body the spec fixes', () => {
  let standin: FacilitatorStandin;
  let gw: TestGateway;
  before(async () => {
    standin = await startFacilitatorStandin();
    gw = await startTestGateway({
      ...fixtures(ECHO),
      env: { X402_PAY_TO: '0x1111111111111111111111111111111111111111', X402_FACILITATOR_URL: standin.url },
    });
  });
  after(async () => {
    await gw.close();
    await standin.close();
  });

  it('402 is application/json without problem members; other paid-path errors are problems', async () => {
    const res = await gw.get(`/v1/${ECHO.tail}?n=1`);
    expect(res.status).to.equal(402);
    expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    expect(res.body.error).to.equal('payment_required');
    expect(res.body).not.to.have.any.keys('type', 'title', 'status', 'detail', 'instance');
    expectProblem(await gw.get('/v1/local/fx/nope'), 404, 'unknown_endpoint');
    const page = await gw.get('/portal/errors');
    expect(page.text).to.include('id="payment_required"');
  });
});
