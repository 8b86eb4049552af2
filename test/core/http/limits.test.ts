import { expect } from 'chai';
import net from 'node:net';
import { FIXTURE_PLUGINS_DIR, startTestGateway, type TestGateway } from '../../support/gateway';

/** Sends raw bytes and returns what the server answered (until it closes or `waitMs`). */
function raw(url: string, bytes: string, waitMs = 5000): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    let got = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(got);
    }, waitMs);
    socket.on('data', (c) => (got += String(c)));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(got);
    });
    socket.on('error', () => undefined);
    socket.write(bytes);
  });
}

const jsonOf = (response: string) => JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4));

describe('request limits', function () {
  this.timeout(20_000);
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({
      pluginDirs: [FIXTURE_PLUGINS_DIR],
      plugins: ['local-fx-echo'],
      env: { HEADERS_TIMEOUT_SECONDS: '1', REQUEST_TIMEOUT_SECONDS: '2' },
    });
  });
  after(() => gw.close());

  it('answers headers over 16 kB with 431 and a JSON code', async () => {
    const res = await raw(gw.url, `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(res).to.match(/^HTTP\/1\.1 431 /);
    expect(jsonOf(res).error).to.equal('headers_too_large');
  });

  it('answers a malformed request line with 400 and a JSON code', async () => {
    const res = await raw(gw.url, 'GARBAGE\r\n\r\n');
    expect(res).to.match(/^HTTP\/1\.1 400 /);
    expect(jsonOf(res).error).to.equal('bad_request');
  });

  it('answers a request target over 8 kB with 414 and a JSON code', async () => {
    const res = await gw.get(`/preview/v1/local/fx/echo?n=3&pad=${'x'.repeat(9000)}`);
    expect(res.status).to.equal(414);
    expect(res.body.error).to.equal('uri_too_long');
  });

  it('drops a client that sends its headers too slowly, with 408 and a JSON code', async () => {
    const started = Date.now();
    const res = await raw(gw.url, 'GET /health HTTP/1.1\r\nHost: x\r\n', 8000);
    expect(res).to.match(/^HTTP\/1\.1 408 /);
    expect(jsonOf(res).error).to.equal('request_timeout');
    expect(Date.now() - started).to.be.lessThan(7000);
  });

  it('drops a client that sends its body too slowly', async () => {
    const res = await raw(
      gw.url,
      'POST /feedback HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"prod',
      8000,
    );
    expect(res).to.match(/^HTTP\/1\.1 408 /);
  });
});
