/**
 * Entity tags and If-None-Match (RFC 9110 8.8.3, 13.1.2). A strong tag names exact bytes (a
 * discovery document in one content coding); a weak tag names an answer whose data is the same
 * while its envelope differs per exchange (the request id). If-None-Match compares weakly, so
 * both give 304s alike. The gateway's own checks (ifNoneMatchHit, against the tags it sets) are
 * the only ones: Express's is switched off (ownConditionalRequestsOnly).
 */
import { createHash } from 'node:crypto';
import type { Express, Request } from 'express';

/** The opaque part of a tag: 128 bits of SHA-256 over the bytes, base64url. */
export function opaqueTagOf(body: string | Buffer): string {
  return createHash('sha256').update(body).digest('base64url').slice(0, 22);
}

export function strongTag(opaque: string): string {
  return `"${opaque}"`;
}

export function weakTag(opaque: string): string {
  return `W/"${opaque}"`;
}

/**
 * The tag among `tags` that the request's If-None-Match names, by weak comparison (`*` names the
 * first, the representation this response would send), or undefined. A 304 sends the tag it
 * matched, so a cache updates the stored response it holds (RFC 9111 4.3.4). A header that is
 * not a list of entity tags names nothing.
 */
export function ifNoneMatchHit(req: Request, tags: readonly string[]): string | undefined {
  const header = req.headers['if-none-match'];
  if (header === undefined || header === '' || tags.length === 0) return undefined;
  for (const item of header.split(',')) {
    const tag = item.trim();
    if (tag === '*') return tags[0];
    if (!/^(W\/)?"[^"]*"$/.test(tag)) continue;
    const hit = tags.find((t) => opaquePart(t) === opaquePart(tag));
    if (hit !== undefined) return hit;
  }
  return undefined;
}

function opaquePart(tag: string): string {
  return tag.replace(/^W\//, '');
}

/**
 * Switches off Express's freshness check (`req.fresh`, which res.send and res.json consult): it
 * turns any GET or HEAD 2xx into an empty 304 when If-None-Match is `*`, whether the answer has a
 * tag or not, after the route has done its work, so a paid answer whose payment had settled went
 * out as a 304 without its data (issue 34). A 304 now comes only from a route that compared the
 * request with a tag it set, before anything was charged.
 */
export function ownConditionalRequestsOnly(app: Express): void {
  Object.defineProperty(app.request, 'fresh', { configurable: true, enumerable: true, get: () => false });
}
