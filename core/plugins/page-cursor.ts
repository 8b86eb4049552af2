/**
 * Cursor pagination of list answers (issue 29): `cursor` continues a list where the previous page
 * ended, `has_more` and `next_cursor` say whether and how. A cursor holds the ids already
 * answered (deflated), bound to one search by a hash of its scope (endpoint and filters), so each
 * page is the best `limit` items not yet answered, ranked again. Rows added or re-ranked between
 * two pages (an import) therefore never repeat an item, and never skip one that matched before:
 * a keyset over the ranking could do neither, since an import changes scores (namesakes dilute
 * a name match). Lists are paged up to MAX_PAGED_ITEMS items, which keeps a cursor well below
 * the longest URL the gateway accepts.
 */
import { createHash } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { InvalidQueryError } from './errors';
import { Doc } from './query-rules';

/** How many items of one list the pages may hold together. */
export const MAX_PAGED_ITEMS = 500;
/**
 * The longest cursor written or accepted (URLs end at 8 KiB): 500 corporate numbers take about
 * 4,700 characters, 500 jGrants ids more, so a list of long ids ends sooner (about 300 grants).
 */
export const MAX_CURSOR_CHARS = 6000;

const VERSION = 1;
const TAG_BYTES = 8;
const ACCEPTED = 'the next_cursor of the previous page of the same search, unchanged';

/** Binds the ids to the search: a cursor of another search, or altered, does not match. */
function tagOf(scope: string, ids: Buffer): Buffer {
  return createHash('sha256').update(scope).update('\u0000').update(ids).digest().subarray(0, TAG_BYTES);
}

/** The scope of a list: its endpoint and every parameter but `limit` and `cursor`. */
export function pageScope(endpointId: string, filters: Record<string, unknown>): string {
  return `${endpointId}\n${JSON.stringify(filters)}`;
}

/** The cursor of the page after one that answered `answered` (every id answered so far). */
export function encodeCursor(scope: string, answered: Iterable<string>): string {
  const ids = deflateRawSync([...new Set(answered)].sort().join('\n'));
  return Buffer.concat([Buffer.of(VERSION), tagOf(scope, ids), ids]).toString('base64url');
}

/** The ids a cursor says were answered; a cursor of another search, or garbled, is a 422. */
export function decodeCursor(scope: string, cursor: string | undefined): ReadonlySet<string> {
  if (cursor === undefined) return new Set();
  const bytes = Buffer.from(cursor, 'base64url');
  const refuse = (why: string) =>
    new InvalidQueryError('cursor', 'invalid_cursor', `cursor ${why}`, ACCEPTED);
  if (bytes.length <= 1 + TAG_BYTES || bytes[0] !== VERSION || bytes.toString('base64url') !== cursor)
    throw refuse('is not a cursor this service wrote');
  const ids = bytes.subarray(1 + TAG_BYTES);
  if (!bytes.subarray(1, 1 + TAG_BYTES).equals(tagOf(scope, ids)))
    throw refuse(
      'is not the next_cursor of this search (another search, or altered): keep every other parameter as on the first page',
    );
  let text: string;
  try {
    text = inflateRawSync(ids, { maxOutputLength: 64 * 1024 }).toString('utf8');
  } catch {
    throw refuse('is not a cursor this service wrote');
  }
  return new Set(text === '' ? [] : text.split('\n'));
}

/** What a page says about the rest of its list. */
export interface PageLinks {
  /** True when items not yet answered remain (within MAX_PAGED_ITEMS). */
  has_more: boolean;
  /** The `cursor` of the next page; null on the last one. */
  next_cursor: string | null;
}

/**
 * The links of a page: `answeredBefore` the cursor's ids, `answered` this page's, `more` whether
 * the search found items beyond them.
 */
export function pageLinks(
  scope: string,
  answeredBefore: ReadonlySet<string>,
  answered: readonly string[],
  more: boolean,
): PageLinks {
  const all = [...answeredBefore, ...answered];
  if (!more || answered.length === 0 || all.length >= MAX_PAGED_ITEMS)
    return { has_more: false, next_cursor: null };
  const cursor = encodeCursor(scope, all);
  // A cursor too long for a URL ends the paging, as MAX_PAGED_ITEMS does.
  return cursor.length > MAX_CURSOR_CHARS
    ? { has_more: false, next_cursor: null }
    : { has_more: true, next_cursor: cursor };
}

/** The `cursor` query parameter of a paged list. */
export function CursorParam(): PropertyDecorator {
  const decorators: PropertyDecorator[] = [
    Doc({
      description: `Continues a list: the next_cursor of the previous answer, with every other parameter unchanged (lists are paged up to ${MAX_PAGED_ITEMS} items, fewer where the ids are long)`,
    }),
    IsOptional(),
    IsString(),
    IsNotEmpty(),
    MaxLength(MAX_CURSOR_CHARS),
  ];
  return (target, key) => decorators.forEach((d) => d(target, key));
}

/** JSON Schema of the page links, for payload schemas. */
export const PAGE_LINK_PROPERTIES = {
  has_more: {
    type: 'boolean',
    description: `True when the list has items beyond this page: ask again with cursor=next_cursor (lists are paged up to ${MAX_PAGED_ITEMS} items, fewer where the ids are long).`,
  },
  next_cursor: {
    type: ['string', 'null'],
    description:
      'The cursor parameter of the next page (the same search, every other parameter unchanged); null on the last page.',
  },
};
