/**
 * The compressed yardstick: bare Express 5 with the `compression` middleware (its defaults: 1 kB
 * threshold, brotli quality 4 preferred, then gzip), returning the gateway's JSON body
 * (BENCH_BODY), serialised per request as the gateway does. Prints "ready <port>".
 */
import compression from 'compression';
import express from 'express';

const body: unknown = JSON.parse(process.env.BENCH_BODY ?? '{}');
const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.use(compression());
app.all('/*path', (_req, res) => {
  res.json(body);
});
const server = app.listen(0, '127.0.0.1', () => {
  const addr = server.address();
  console.log(`ready ${typeof addr === 'object' && addr ? addr.port : 0}`);
});
