/**
 * The seller metadata x402 catalogues show beside every resource of the gateway (x402 bazaar,
 * "Service Metadata on resource"): the service's name, the product's topical tags and an icon
 * served from the gateway's own origin. Defined once (config/service.ts, config/products.ts) and
 * checked at boot with the reference package's own rules: a catalogue drops a field that breaks
 * them without a word, so a deployment that would lose one refuses to start instead.
 */
import type { Router } from 'express';
import { isValidServiceName, sanitizeTags } from '@x402/extensions/bazaar';
import { mount } from '../http/api-catalog';
import { DiscoveryDocument } from '../http/discovery-document';
import type { ProductDefinition } from '../plugins/products';
import type { DiscoveryRoutesDeps } from './facts';
import { SERVICE_ICON_PATH } from '../payments/seller-metadata';
import type { ServiceDescription } from './service';

/** An icon is a small image; a larger document is a mistake in the configuration. */
const MAX_ICON_BYTES = 16 * 1024;

/** What is wrong with the seller metadata, one line each (empty: nothing). */
export function sellerListingProblems(
  service: ServiceDescription,
  products: readonly ProductDefinition[],
): string[] {
  const problems: string[] = [];
  const { serviceName, iconSvg } = service.listing;
  if (!isValidServiceName(serviceName)) {
    problems.push(
      `service listing.serviceName ${JSON.stringify(serviceName)}: must be 1 to 32 printable ASCII characters`,
    );
  }
  const icon = iconSvg.trimStart();
  if (!icon.startsWith('<svg') || !icon.includes('xmlns="http://www.w3.org/2000/svg"')) {
    problems.push(
      'service listing.iconSvg: must be an SVG document (<svg xmlns="http://www.w3.org/2000/svg" ...>)',
    );
  } else if (/<script|\son[a-z]+\s*=/i.test(icon)) {
    problems.push('service listing.iconSvg: must not hold scripts or event handlers');
  } else if (Buffer.byteLength(iconSvg) > MAX_ICON_BYTES) {
    problems.push(`service listing.iconSvg: ${Buffer.byteLength(iconSvg)} bytes, at most ${MAX_ICON_BYTES}`);
  }
  for (const p of products) {
    const kept = sanitizeTags(p.tags) ?? [];
    if (kept.length !== p.tags.length || kept.some((t, i) => t !== p.tags[i])) {
      problems.push(
        `product ${p.id} tags ${JSON.stringify(p.tags)}: at most 5, each 1 to 32 printable ASCII characters, no two alike (ignoring case)`,
      );
    }
  }
  return problems;
}

/** Refuses to start with seller metadata a catalogue would drop. */
export function checkSellerListing(
  service: ServiceDescription,
  products: readonly ProductDefinition[],
): void {
  const problems = sellerListingProblems(service, products);
  if (problems.length > 0) {
    throw new Error(`Seller listing (config/service.ts, config/products.ts):\n  ${problems.join('\n  ')}`);
  }
}

/** GET /icon.svg: the service icon every 402 names in `resource.iconUrl`. */
export function mountServiceIcon(router: Router, s: Pick<DiscoveryRoutesDeps, 'service' | 'catalog'>): void {
  const icon = new DiscoveryDocument(s.service.listing.iconSvg, 'image/svg+xml');
  mount(
    router,
    s.catalog,
    'get',
    SERVICE_ICON_PATH,
    {
      operationId: 'getServiceIcon',
      summary: 'The service icon, named by `resource.iconUrl` in every x402 payment request',
      tags: ['discovery'],
      responses: {
        '200': {
          description: 'The icon (SVG).',
          content: { 'image/svg+xml': { schema: { type: 'string' } } },
        },
      },
    },
    (req, res) => icon.send(req, res),
  );
}
