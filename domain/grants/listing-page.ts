/** Which page of a grants listing is asked (core/plugins/page-cursor.ts): its scope and the grants already answered. */
import { decodeCursor, pageScope } from '../../core/plugins/page-cursor';

export interface ListingPage {
  scope: string;
  /** Grant ids answered on earlier pages. */
  skip: ReadonlySet<string>;
}

/**
 * The page a listing query asks for: the scope is the endpoint and every parameter but `limit`
 * and `cursor`, plus `extra` (what else decides the list, such as the day a window starts).
 */
export function listingPage(
  endpointId: string,
  q: { limit: number; cursor?: string },
  extra: Record<string, unknown> = {},
): ListingPage {
  const { limit: _limit, cursor, ...filters } = q;
  const scope = pageScope(endpointId, { ...filters, ...extra });
  return { scope, skip: decodeCursor(scope, cursor) };
}
