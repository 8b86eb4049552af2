/** Query helpers shared by the plugin tests. */
import { expect } from 'chai';
import type { TestResponse } from './gateway';

/** `path?k=v&…`, every value URL-encoded. */
export function withQuery(path: string, params: Record<string, string | number>): string {
  return `${path}?${Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&')}`;
}

/** [query string, expected status, expected invalid_query hint code or null]. */
export type QueryCase = [string, number, string | null];

/** One test per case: the status, and for a refusal `invalid_query` with a coded, explained hint. */
export function itAnswersEachQuery(get: (query: string) => Promise<TestResponse>, cases: QueryCase[]): void {
  for (const [q, status, code] of cases) {
    it(`${q || '(no query)'} -> ${status}${code ? ` ${code} with correction_hints` : ''}`, async () => {
      const res = await get(q);
      expect(res.status).to.equal(status);
      if (code) {
        expect(res.body.error).to.equal('invalid_query');
        expect(res.body.correction_hints[0]).to.include({ code });
        expect(res.body.correction_hints[0].hint).to.be.a('string').and.not.equal('');
      }
    });
  }
}
