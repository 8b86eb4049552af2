/**
 * The yardstick: a bare Express 5 handler returning a fixed JSON body (the same body the gateway
 * answers), serialised per request as the gateway does. Prints "ready <port>" when listening.
 */
import express from 'express';

const body: unknown = JSON.parse(process.env.BENCH_BODY ?? '{}');
const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.all('/*path', (_req, res) => {
  res.json(body);
});
const server = app.listen(0, '127.0.0.1', () => {
  const addr = server.address();
  console.log(`ready ${typeof addr === 'object' && addr ? addr.port : 0}`);
});
