/** Search keys of a corporation, computed once when records are loaded or imported. */
import type { Corporation } from '../corporation';
import type { IndexEntry } from './name-index';
import { englishKey, furiganaKey, nameKey } from './normalize';
import type { SearchKeys } from './search-backend';

export function searchKeysOf(c: Corporation): SearchKeys {
  return {
    name: nameKey(c.name),
    former: [...new Set(c.former_names.map((f) => nameKey(f.name)).filter((k) => k !== ''))],
    reading: furiganaKey(c.furigana) ?? '',
    english: c.en_name ? englishKey(c.en_name) : '',
  };
}

/** Name searches skip corporations the NTA excludes from search (検索対象除外) and deleted records. */
export function isSearchable(c: Corporation): boolean {
  return !c.excluded_from_search && c.status !== 'deleted';
}

export function indexEntryOf(c: Corporation, keys: SearchKeys = searchKeysOf(c)): IndexEntry {
  return {
    id: c.corporate_number,
    prefectureCode: c.address.prefecture_code,
    closed: c.status !== 'active',
    keys,
  };
}
