/**
 * The paid yardstick: the official `@x402/express` payment middleware on a bare Express 5 app,
 * protecting the gateway's paid route at the same price, answering the same JSON body (BENCH_BODY)
 * and paying through the same facilitator stand-in (X402_FACILITATOR_URL, X402_PAY_TO).
 * Prints "ready <port>".
 */
import express from 'express';
import { paymentMiddleware, x402ResourceServer } from '@x402/express';
import { HTTPFacilitatorClient } from '@x402/core/server';
import { ExactEvmScheme } from '@x402/evm/exact/server';
import { BENCH_ENDPOINT } from '../lib/endpoint';

async function main(): Promise<void> {
  const body: unknown = JSON.parse(process.env.BENCH_BODY ?? '{}');
  const route = process.env.BENCH_ROUTE ?? `/v1/${BENCH_ENDPOINT.tail}`;
  const price = process.env.BENCH_PRICE ?? '$0.001';
  const facilitator = new HTTPFacilitatorClient({ url: process.env.X402_FACILITATOR_URL! });
  const server = new x402ResourceServer(facilitator).register('eip155:8453', new ExactEvmScheme());
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(
    paymentMiddleware(
      {
        [`GET ${route}`]: {
          accepts: { scheme: 'exact', price, network: 'eip155:8453', payTo: process.env.X402_PAY_TO! },
          description: 'bench',
        },
      },
      server,
    ),
  );
  app.get(route, (_req, res) => {
    res.json(body);
  });
  const listener = app.listen(0, '127.0.0.1', () => {
    const addr = listener.address();
    console.log(`ready ${typeof addr === 'object' && addr ? addr.port : 0}`);
  });
}
void main();
