/**
 * Typed errors a handler (or the domain code behind it) may throw. The kernel maps each to an
 * HTTP status and a stable JSON error code; anything else becomes a 500 without details.
 */

export class EndpointError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly hint?: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The thing asked for does not exist (unknown grant id, unregistered number ...). */
export class NotFoundError extends EndpointError {
  constructor(code: string, message: string, hint?: string, details?: Record<string, unknown>) {
    super(404, code, message, hint, details);
  }
}

/** A live upstream could not answer and no snapshot covers the request. */
export class SourceUnavailableError extends EndpointError {
  constructor(message: string, hint?: string, details?: Record<string, unknown>) {
    super(503, 'source_unavailable', message, hint, details);
  }
}

/**
 * A query that passed the DTO but cannot be answered as asked (e.g. a date outside the span the
 * tables cover). Reported like any other invalid query: 422 with correction_hints.
 */
export class InvalidQueryError extends Error {
  constructor(
    readonly parameter: string,
    readonly code: string,
    message: string,
    readonly accepted: string,
    readonly example?: string,
  ) {
    super(message);
    this.name = 'InvalidQueryError';
  }
}
