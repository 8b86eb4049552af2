/**
 * Answers compressed off the event loop, and tagged answers compressed once (issue 35, item 4),
 * over real HTTP on a bare Express app: what is sent must decode to exactly the answer, whichever
 * way it was made, and a large answer being compressed must not hold up a small request.
 */
import { expect } from 'chai';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import express from 'express';
import { sendEncoded } from '../../../core/http/compression';
import { rawGet } from '../../support/raw-http';

/** About 8 MB of JSON text that compresses slowly (varied digits): seconds of brotli work. */
function largeAnswer(): string {
  const rows: string[] = [];
  let x = 12345;
  for (let i = 0; i < 120_000; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    rows.push(`{"i":${i},"v":"${x.toString(36)}${(x * 7).toString(16)}","w":${x % 9973}}`);
  }
  return `[${rows.join(',')}]`;
}

/** A tagged answer as the surfaces write it: data, then a `_gateway` block holding the request id. */
const tagged = (id: string, data = 'cached data '.repeat(200)) =>
  `{"data":${JSON.stringify(data)},"_gateway":{"surface":"preview","request_id":${JSON.stringify(id)},"price_usdc":"0.001","notice":"${'n'.repeat(40)}"}}`;

const decode = (encoding: unknown, body: Buffer) =>
  (encoding === 'br' ? brotliDecompressSync(body) : gunzipSync(body)).toString('utf8');

describe('answer compression (issue 35)', () => {
  let server: Server;
  let url: string;
  const large = largeAnswer();
  /** Set when the large answer has been handed to the socket. */
  let largeSent = false;
  let largeHandled: () => void = () => undefined;
  /** Whether the large answer had been sent when the small request was handled. */
  const seenBySmall: boolean[] = [];
  /** What the tagged route answers next (a test changes the data behind the same tag). */
  let taggedData: string | undefined;

  before(async () => {
    const app = express();
    app.use((req, res, next) => {
      req.id = String(req.headers['x-request-id'] ?? 'no-id');
      res.setHeader('Content-Type', 'application/json');
      next();
    });
    app.get('/large', (req, res) => {
      res.once('finish', () => (largeSent = true));
      sendEncoded(req, res, large);
      largeHandled();
    });
    app.get('/small', (req, res) => {
      seenBySmall.push(largeSent);
      sendEncoded(req, res, '{"small":true}');
    });
    app.get('/tagged', (req, res) => {
      res.setHeader('ETag', 'W/"tag-of-the-data"');
      res.setHeader('Vary', 'Accept-Encoding');
      res.locals.surface = 'preview';
      res.locals.endpointId = 'fx-echo';
      sendEncoded(req, res, tagged(req.id, taggedData));
    });
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers a small request while a large answer is being compressed (brotli and gzip)', async function () {
    this.timeout(60_000);
    for (const encoding of ['br', 'gzip']) {
      largeSent = false;
      const handled = new Promise<void>((resolve) => (largeHandled = resolve));
      const big = rawGet(`${url}/large`, { 'Accept-Encoding': encoding });
      // The small request goes once the large one's handler has returned, not after a delay.
      await handled;
      const small = await rawGet(`${url}/small`);
      expect(small.status).to.equal(200);
      expect(seenBySmall.pop(), `${encoding}: the small request waited for the large answer`).to.equal(false);
      const res = await big;
      expect(res.headers['content-encoding']).to.equal(encoding);
      expect(res.headers.vary).to.match(/Accept-Encoding/i);
      expect(decode(encoding, res.body) === large, `${encoding}: decodes to the answer`).to.equal(true);
    }
  });

  it('sends a tagged answer compressed once: the same bytes for the same id, decoding to the answer, with ETag and Vary', async () => {
    for (const encoding of ['gzip', 'br']) {
      taggedData = undefined;
      const first = await rawGet(`${url}/tagged`, { 'Accept-Encoding': encoding, 'X-Request-Id': 'id-one' });
      const again = await rawGet(`${url}/tagged`, { 'Accept-Encoding': encoding, 'X-Request-Id': 'id-one' });
      const other = await rawGet(`${url}/tagged`, {
        'Accept-Encoding': encoding,
        'X-Request-Id': 'another-id-ünï',
      });
      for (const res of [first, again, other]) {
        expect(res.headers['content-encoding']).to.equal(encoding);
        expect(res.headers.etag).to.equal('W/"tag-of-the-data"');
        expect(res.headers.vary).to.equal('Accept-Encoding');
        expect(Number(res.headers['content-length'])).to.equal(res.body.length);
      }
      expect(again.body.equals(first.body), `${encoding}: the kept answer gives the same bytes`).to.equal(
        true,
      );
      expect(decode(encoding, first.body)).to.equal(tagged('id-one'));
      expect(decode(encoding, other.body)).to.equal(tagged('another-id-ünï'));
      expect(first.body.length).to.be.below(tagged('id-one').length / 4);
    }
  });

  it('never sends a kept answer for other data under the same tag', async () => {
    for (const encoding of ['gzip', 'br']) {
      taggedData = undefined;
      await rawGet(`${url}/tagged`, { 'Accept-Encoding': encoding, 'X-Request-Id': 'a' });
      taggedData = 'other data '.repeat(200);
      const res = await rawGet(`${url}/tagged`, { 'Accept-Encoding': encoding, 'X-Request-Id': 'b' });
      expect(decode(encoding, res.body)).to.equal(tagged('b', taggedData));
    }
  });

  it('sends an answer below 1 kB, or to a client without Accept-Encoding, as it is', async () => {
    taggedData = undefined;
    const small = await rawGet(`${url}/small`, { 'Accept-Encoding': 'gzip, br' });
    expect(small.headers['content-encoding']).to.equal(undefined);
    expect(small.body.toString()).to.equal('{"small":true}');
    const plain = await rawGet(`${url}/tagged`, { 'X-Request-Id': 'plain' });
    expect(plain.headers['content-encoding']).to.equal(undefined);
    expect(plain.headers['content-type']).to.equal('application/json');
    expect(plain.body.toString()).to.equal(tagged('plain'));
  });
});
