/**
 * Errors as RFC 9457 problem details (`application/problem+json`): `type` (the errors page's
 * anchor of the code), `title`, `status`, `detail`, `instance` (the request id), with the
 * gateway's own members kept as extensions (`error`, `message`, `hint`, `correction_hints`,
 * `request_id`, ...), so clients reading the stable code see no change.
 */
import { catalogued } from './error-catalogue';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';

/** The portal page documenting every problem type; each code is an anchor on it. */
export const ERRORS_PAGE_PATH = '/portal/errors';

/** A code a plugin declares in its manifest (`errors`), documented on the errors page too. */
export interface DeclaredProblem {
  code: string;
  status: number;
  description: string;
}

export class ProblemTypes {
  private readonly declared: ReadonlyMap<string, DeclaredProblem>;

  constructor(
    private readonly baseUrl: string,
    declared: Iterable<DeclaredProblem> = [],
  ) {
    this.declared = new Map([...declared].map((d) => [d.code, d]));
  }

  /** The errors page's anchor of a documented code; `about:blank` (RFC 9457) for any other. */
  typeOf(code: string): string {
    return catalogued(code) || this.declared.has(code)
      ? `${this.baseUrl}${ERRORS_PAGE_PATH}#${code}`
      : 'about:blank';
  }

  titleOf(code: string): string {
    return catalogued(code)?.title ?? titleFromCode(code);
  }

  /** Whether the spec fixes this code's body (sent as plain JSON, without problem members). */
  specBody(code: string): boolean {
    return catalogued(code)?.specBody === true;
  }

  /** The problem object of a JSON error body `{error, message, ..., request_id}`. */
  problem(
    status: number,
    body: { error: string; message: string; request_id?: string },
  ): Record<string, unknown> {
    return {
      type: this.typeOf(body.error),
      title: this.titleOf(body.error),
      status,
      detail: body.message,
      instance: body.request_id ?? '',
      ...body,
    };
  }

  /** Codes plugins declare, for the errors page. */
  declaredProblems(): DeclaredProblem[] {
    return [...this.declared.values()].filter((d) => !catalogued(d.code));
  }
}

/** `grant_not_found` → `Grant not found`: a plugin's code read as a title. */
export function titleFromCode(code: string): string {
  const words = code.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
