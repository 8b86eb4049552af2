/**
 * How long a data answer may be kept, its entity tag, and the 304 (docs/decisions.md, "Caching of
 * answers"). A deterministic answer (a snapshot's, whose handler did not read the clock) carries a
 * weak ETag over its data and may be kept ANSWER_MAX_AGE_SECONDS (an import or a deploy can change
 * the data; the tag then changes); any other answer (live upstream, computed from the clock) is
 * `no-store` and carries no tag. The preview's answers may be kept by any cache (`public`: free
 * and the same for everyone); the paid surfaces' by the buyer only (`private`: it paid for them,
 * and the x402 body holds its payment receipt).
 */
import type { Request, Response } from 'express';
import type { EndpointPayload } from '../plugins/contract';
import type { RegisteredPlugin } from '../plugins/registry';
import { sendEncoded } from '../http/compression';
import { ifNoneMatchHit } from '../http/entity-tags';
import type { EndpointExecutor } from './execute';

/** How long a deterministic answer may be kept: the same 5 minutes as a discovery document. */
export const ANSWER_MAX_AGE_SECONDS = 300;

export type AnswerAudience = 'public' | 'private';

export interface AnswerCaching {
  /** The weak tag of a deterministic answer; undefined for any other. */
  etag: string | undefined;
  cacheControl: string;
}

export function answerCaching(
  executor: EndpointExecutor,
  plugin: RegisteredPlugin,
  payload: EndpointPayload,
  audience: AnswerAudience,
): AnswerCaching {
  const etag = executor.tagOf(plugin, payload);
  return {
    etag,
    cacheControl: etag === undefined ? 'no-store' : `${audience}, max-age=${ANSWER_MAX_AGE_SECONDS}`,
  };
}

/** Sets an answer's caching headers (Cache-Control, and ETag for a deterministic answer). */
export function setAnswerCaching(res: Response, caching: AnswerCaching): void {
  res.setHeader('Cache-Control', caching.cacheControl);
  if (caching.etag !== undefined) res.setHeader('ETag', caching.etag);
  res.vary('Accept-Encoding');
}

/**
 * Whether the request's If-None-Match names this answer, so a 304 may stand for it. Only a tagged
 * (deterministic) answer can be named; for any other the condition is ignored, `*` included: an
 * answer without a validator is `no-store`, so no buyer holds a copy a 304 could refer to.
 */
export function buyerHoldsAnswer(req: Request, caching: AnswerCaching): boolean {
  return caching.etag !== undefined && ifNoneMatchHit(req, [caching.etag]) !== undefined;
}

/** Sets the caching headers; answers 304 (and returns true) when If-None-Match names the answer. */
export function answeredNotModified(req: Request, res: Response, caching: AnswerCaching): boolean {
  setAnswerCaching(res, caching);
  if (!buyerHoldsAnswer(req, caching)) return false;
  res.status(304).end();
  return true;
}

/** Sends an answer's JSON, compressed as the request asks (Content-Type JSON unless already set). */
export function sendAnswerJson(req: Request, res: Response, body: string): void {
  if (!res.get('Content-Type')) res.set('Content-Type', 'application/json');
  sendEncoded(req, res, body);
}

/**
 * Thrown by a paid surface's handler step when the buyer already holds the answer and nothing has
 * been settled for the payment: it is then not settled (no charge), and the 304 carries no data.
 */
export class AnswerNotModified extends Error {
  readonly status = 304;
  constructor(readonly caching: AnswerCaching) {
    super('the buyer holds this answer (If-None-Match): not settled');
  }
}
