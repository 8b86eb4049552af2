/** The API key of a request: read from X-API-Key, resolved to its key, or refused with a 401. */
import type { Request, RequestHandler } from 'express';
import { HttpError } from '../http/errors';
import type { KeyLedger } from './key-ledger';

/**
 * The challenge of every 401 for a missing or invalid key (RFC 9110 asks a 401 to name its scheme):
 * the key goes in the X-API-Key header.
 */
export const API_KEY_CHALLENGE = { 'WWW-Authenticate': 'ApiKey header="X-API-Key"' };

export function apiKeyOf(req: Request): string | undefined {
  const v = req.headers['x-api-key'];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** Resolves X-API-Key into res.locals.key, or answers 401 (JSON on the broker). */
export function requireApiKey(keys: KeyLedger): RequestHandler {
  return async (req, res, next) => {
    const presented = apiKeyOf(req);
    if (!presented) {
      return next(
        new HttpError(
          401,
          'api_key_required',
          'This call needs an API key in the X-API-Key header.',
          {
            hint: 'Create one with POST /keys/create {"owner_label": "..."}; it comes with free trial credit.',
          },
          API_KEY_CHALLENGE,
        ),
      );
    }
    const key = await keys.authenticate(presented);
    if (!key) {
      return next(
        new HttpError(
          401,
          'api_key_invalid',
          'The X-API-Key header does not hold a valid API key.',
          { hint: 'Check the key (it starts with jpgw_) or create a new one with POST /keys/create.' },
          API_KEY_CHALLENGE,
        ),
      );
    }
    res.locals.key = key;
    next();
  };
}
