/** One autocannon load of a paid path: each request carries the next payment of a pool signed beforehand. */
import { load, type LoadResult, type Server } from './harness';

export async function paidLoad(
  label: string,
  url: string,
  seconds: number,
  pool: string[],
  cpuOf?: Server,
): Promise<LoadResult> {
  let next = 0;
  return load(label, {
    url,
    duration: seconds,
    cpuOf,
    requests: [
      {
        method: 'GET',
        setupRequest: (req) => {
          const payment = pool[next++];
          if (payment === undefined) throw new Error('payment pool exhausted: raise the pool size');
          return { ...req, headers: { ...req.headers, 'payment-signature': payment } };
        },
      },
    ],
  });
}
