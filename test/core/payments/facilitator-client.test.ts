/**
 * How the facilitator client classifies answers: what was definitely not settled (safe to free the
 * payment) versus what may have moved money (unknown: keep the payment reserved).
 */
import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FacilitatorClient } from '../../../core/payments/facilitator-client';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

describe('facilitator client', () => {
  let server: http.Server;
  let url: string;
  let handler: Handler;
  const seen: Array<{ path?: string; auth?: string; body: unknown }> = [];
  const request = { x402Version: 2, paymentPayload: { a: 1 }, paymentRequirements: { b: 2 } };

  before(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ path: req.url, auth: req.headers.authorization, body: JSON.parse(body || 'null') });
        handler(req, res, body);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    ((_req, res) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    }) as Handler;

  it('posts {x402Version, paymentPayload, paymentRequirements} with the Authorization header', async () => {
    handler = json(200, { isValid: true, payer: '0xabc' });
    const client = new FacilitatorClient(url, 5000, 'Bearer t');
    expect(await client.verify(request)).to.deep.equal({ kind: 'valid', payer: '0xabc' });
    expect(seen.at(-1)).to.deep.equal({ path: '/verify', auth: 'Bearer t', body: request });
    handler = json(200, { success: true, transaction: '0xtx', network: 'eip155:8453', payer: '0xabc' });
    expect(await client.settle(request)).to.deep.equal({
      kind: 'settled',
      transaction: '0xtx',
      network: 'eip155:8453',
      payer: '0xabc',
    });
    expect(seen.at(-1)?.path).to.equal('/settle');
  });

  it('verify: isValid false is a refusal (also on a 4xx); anything else is "unavailable"', async () => {
    const client = new FacilitatorClient(url, 5000);
    handler = json(400, { isValid: false, invalidReason: 'invalid_exact_evm_signature' });
    expect(await client.verify(request)).to.include({
      kind: 'invalid',
      reason: 'invalid_exact_evm_signature',
    });
    handler = json(401, { error: 'unauthorized' });
    expect(await client.verify(request)).to.include({ kind: 'unavailable', status: 502 });
    handler = json(503, 'busy');
    expect(await client.verify(request)).to.include({ kind: 'unavailable', status: 503 });
    handler = json(308, '', { location: 'https://elsewhere.example/verify' });
    expect(await client.verify(request)).to.include({ kind: 'unavailable', status: 502 });
  });

  it('settle: success:false is a failure, but settlement_pending and unreadable answers are "unknown"', async () => {
    const client = new FacilitatorClient(url, 5000);
    handler = json(200, {
      success: false,
      errorReason: 'invalid_exact_evm_insufficient_balance',
      transaction: '',
    });
    expect(await client.settle(request)).to.include({
      kind: 'failed',
      reason: 'invalid_exact_evm_insufficient_balance',
    });
    handler = json(200, { success: false, errorReason: 'settlement_pending', transaction: '0xpending' });
    expect(await client.settle(request)).to.include({ kind: 'unknown', transaction: '0xpending' });
    handler = json(502, '<html>bad gateway</html>');
    expect(await client.settle(request)).to.include({ kind: 'unknown' });
    handler = json(200, { success: true });
    expect((await client.settle(request)).kind, 'success without a transaction').to.equal('unknown');
  });

  it('settle: a redirect settles nothing ("unreachable"); a reset connection may have ("unknown")', async () => {
    const client = new FacilitatorClient(url, 5000);
    handler = json(308, '', { location: 'https://elsewhere.example/settle' });
    expect(await client.settle(request)).to.include({ kind: 'unreachable' });
    handler = (req) => req.socket.destroy();
    expect(await client.settle(request)).to.include({ kind: 'unknown' });
  });

  it('a timeout is "unknown" for settle and "unavailable" for verify', async () => {
    const client = new FacilitatorClient(url, 200);
    handler = () => {}; // never answers
    expect(await client.settle(request)).to.deep.equal({ kind: 'unknown', detail: 'settle timed out' });
    expect(await client.verify(request)).to.include({ kind: 'unavailable', status: 503 });
  });

  it('a refused connection settles nothing ("unreachable")', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const client = new FacilitatorClient(`http://127.0.0.1:${port}`, 5000);
    const outcome = await client.settle(request);
    expect(outcome).to.include({ kind: 'unreachable' });
    expect((outcome as { detail: string }).detail).to.match(/ECONNREFUSED/);
  });
});
