/**
 * grants/search in pages (issue 29, item 6): following next_cursor lists every grant of the
 * one-page answer, in the same order, once each; has_more and next_cursor end the list; a cursor
 * of another search is a 422.
 */
import { expect } from 'chai';
import { startTestGateway, type TestGateway } from '../../test/support/gateway';

const CLOCK = '2026-11-22T03:00:00Z';
const PATH = '/preview/v1/grants/search';
type Page = {
  grants: Array<{ grant_id: string }>;
  has_more: boolean;
  next_cursor: string | null;
  total_matched: number;
};

describe('grants-search: pages', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ plugins: ['grants-search'], clock: CLOCK });
  });
  after(() => gw.close());

  for (const filters of ['open_only=false', 'open_only=true', 'open_only=false&pref=Tokyo']) {
    it(`pages of 3 list what one page of 50 lists, in order, once each (${filters})`, async () => {
      const whole = (await gw.get(`${PATH}?${filters}&limit=50`)).body as Page;
      expect(whole).to.include({ has_more: false, next_cursor: null });
      const listed: string[] = [];
      let cursor: string | null = null;
      do {
        const res = await gw.get(`${PATH}?${filters}&limit=3${cursor ? `&cursor=${cursor}` : ''}`);
        expect(res.status, res.text.slice(0, 300)).to.equal(200);
        const page = res.body as Page;
        expect(page.grants.length).to.be.at.most(3);
        expect(page.total_matched).to.equal(whole.total_matched);
        expect(page.has_more).to.equal(page.next_cursor !== null);
        listed.push(...page.grants.map((g) => g.grant_id));
        cursor = page.next_cursor;
      } while (cursor && listed.length <= 60);
      expect(listed).to.deep.equal(whole.grants.map((g) => g.grant_id));
    });
  }

  it('a cursor of another search is refused: 422 invalid_cursor', async () => {
    const first = (await gw.get(`${PATH}?open_only=false&limit=2`)).body as Page;
    expect(first.has_more).to.equal(true);
    const res = await gw.get(`${PATH}?open_only=true&limit=2&cursor=${first.next_cursor}`);
    expect(res.status).to.equal(422);
    expect(res.body.correction_hints[0]).to.include({ parameter: 'cursor', code: 'invalid_cursor' });
  });
});
