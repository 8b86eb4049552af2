import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { InvalidQueryError } from '../../../core/plugins/errors';
import {
  decodeCursor,
  encodeCursor,
  MAX_CURSOR_CHARS,
  MAX_PAGED_ITEMS,
  pageLinks,
  pageScope,
} from '../../../core/plugins/page-cursor';

const SCOPE = pageScope('local-fx-echo', { name: 'x' });
const ids = (n: number, from = 0, width = 13) =>
  Array.from({ length: n }, (_, i) => String(10 ** (width - 1) + from + i * 7919));

function refusal(scope: string, cursor: string): InvalidQueryError {
  try {
    decodeCursor(scope, cursor);
  } catch (err) {
    return err as InvalidQueryError;
  }
  throw new Error(`accepted ${cursor}`);
}

describe('page cursors', () => {
  it('give back the ids answered, for the same search only', () => {
    const answered = ids(40);
    const cursor = encodeCursor(SCOPE, answered);
    expect([...decodeCursor(SCOPE, cursor)].sort()).to.deep.equal([...answered].sort());
    expect(decodeCursor(SCOPE, undefined).size).to.equal(0);
    const other = refusal(pageScope('local-fx-echo', { name: 'y' }), cursor);
    expect(other).to.be.instanceOf(InvalidQueryError);
    expect(other).to.include({ parameter: 'cursor', code: 'invalid_cursor' });
  });

  it('refuse a cursor altered anywhere, or not one at all', () => {
    const cursor = encodeCursor(SCOPE, ids(40));
    const flipped = (i: number) => cursor.slice(0, i) + (cursor[i] === 'A' ? 'B' : 'A') + cursor.slice(i + 1);
    for (const bad of [flipped(3), flipped(20), flipped(cursor.length - 2), `${cursor}AA`, 'abc', '!!', ''])
      expect(refusal(SCOPE, bad).code, bad).to.equal('invalid_cursor');
  });

  it('links the next page while items remain, within MAX_PAGED_ITEMS and MAX_CURSOR_CHARS', () => {
    const before = new Set(ids(20));
    expect(pageLinks(SCOPE, before, ids(10, 1000), true).has_more).to.equal(true);
    expect(pageLinks(SCOPE, before, ids(10, 1000), false)).to.deep.equal({
      has_more: false,
      next_cursor: null,
    });
    expect(pageLinks(SCOPE, before, [], true)).to.deep.equal({ has_more: false, next_cursor: null });
    const full = new Set(ids(MAX_PAGED_ITEMS - 10));
    expect(pageLinks(SCOPE, full, ids(10, 10 ** 6), true).has_more).to.equal(false);
    // 500 corporate numbers fit a cursor; 480 random 18-character ids do not.
    const numbers = pageLinks(SCOPE, new Set(ids(MAX_PAGED_ITEMS - 11)), ids(10, 10 ** 7), true);
    expect(numbers.next_cursor!.length).to.be.at.most(MAX_CURSOR_CHARS);
    const random = Array.from(
      { length: 480 },
      (_, i) => `a0W${createHash('sha256').update(String(i)).digest('base64url').slice(0, 15)}`,
    );
    expect(pageLinks(SCOPE, new Set(random), ['last'], true)).to.deep.equal({
      has_more: false,
      next_cursor: null,
    });
  });
});
