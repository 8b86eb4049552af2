/**
 * What the name matcher needs from wherever the records live: candidate corporations whose name,
 * former name, furigana or English name key equals, starts with or contains a query key. The
 * in-memory index (snapshot, a live answer page) and the imported registry's repositories (SQLite,
 * MongoDB) implement it.
 */

export type MatchField = 'name' | 'former_name' | 'furigana' | 'en_name';
export type KeyMode = 'exact' | 'prefix' | 'partial';

export interface KeyHit {
  id: string;
  field: MatchField;
  /** The indexed key that matched (to measure how much of it the query covers). */
  key: string;
  /** The corporation's registration is closed (or deleted): ranked below active namesakes. */
  closed: boolean;
}

export interface HitList {
  hits: KeyHit[];
  /** Corporations matching in all (may exceed hits.length, which is capped); capped when counted up to a limit. */
  total: number;
  totalCapped: boolean;
}

export interface SearchFilter {
  /** JIS X 0401 code of the head office's prefecture. */
  prefectureCode?: string;
}

export interface NameSearchBackend {
  /** Current and former names. */
  byNameKey(key: string, mode: KeyMode, filter: SearchFilter, cap: number): Promise<HitList>;
  /** Furigana reading keys. */
  byReadingKey(key: string, mode: 'exact' | 'prefix', filter: SearchFilter, cap: number): Promise<HitList>;
  /** English name keys. */
  byEnglishKey(key: string, mode: 'exact' | 'prefix', filter: SearchFilter, cap: number): Promise<HitList>;
}

/** Search keys of one corporation, computed once (at load or import time). */
export interface SearchKeys {
  name: string;
  former: string[];
  reading: string;
  english: string;
}
