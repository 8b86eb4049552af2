/** Surface path prefixes, shared by routes and discovery documents. */
export const PREVIEW_PATH_PREFIX = '/preview/v1';
export const PAID_PATH_PREFIX = '/v1';
export function marketplacePathPrefix(segment: string): string {
  return `/marketplace/${segment}/v1`;
}
