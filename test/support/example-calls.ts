/**
 * One endpoint example answered on a surface a buyer reaches without a payment signature: the
 * preview, the marketplace (with its secret) or the broker (with a key).
 */
import type { RegisteredPlugin } from '../../core/plugins/registry';
import type { TestGateway, TestResponse } from './gateway';

export type UnsignedSurface = 'preview' | 'marketplace' | 'broker';

export interface ExampleCall {
  res: TestResponse;
  /** The example's query string (for messages). */
  qs: string;
}

export async function callExample(
  gw: TestGateway,
  surface: UnsignedSurface,
  plugin: RegisteredPlugin,
  example: { query: Record<string, unknown> },
  credentials: { marketplaceSecret: string; apiKey: string },
): Promise<ExampleCall> {
  const query = Object.fromEntries(Object.entries(example.query).map(([k, v]) => [k, String(v)]));
  const qs = new URLSearchParams(query).toString();
  const res =
    surface === 'preview'
      ? await gw.get(`/preview/v1/${plugin.tail}?${qs}`)
      : surface === 'marketplace'
        ? await gw.get(`/marketplace/partner/v1/${plugin.tail}?${qs}`, {
            'X-Marketplace-Proxy-Secret': credentials.marketplaceSecret,
          })
        : await gw.post(
            '/broker/call',
            { product_id: plugin.brokerId, query },
            { 'X-API-Key': credentials.apiKey },
          );
  return { res, qs };
}
