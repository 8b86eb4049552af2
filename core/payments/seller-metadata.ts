/** The seller fields of every x402 `resource` (ResourceInfo) the gateway offers, and where its icon is served. */
import type { ProductDefinition } from '../plugins/products';

export const SERVICE_ICON_PATH = '/icon.svg';

/** The seller fields of an x402 `resource` (ResourceInfo). */
export interface SellerMetadata {
  serviceName: string;
  tags?: string[];
  iconUrl: string;
}

/** `serviceName`: the listing's name of the service (ServiceDescription.listing.serviceName). */
export function sellerMetadata(
  serviceName: string,
  product: ProductDefinition,
  baseUrl: string,
): SellerMetadata {
  return {
    serviceName,
    ...(product.tags.length > 0 ? { tags: [...product.tags] } : {}),
    iconUrl: `${baseUrl}${SERVICE_ICON_PATH}`,
  };
}
