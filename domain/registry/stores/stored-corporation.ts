/**
 * A corporation as a store writes it: packed (corporation-row.ts) and its search keys, computed once. The importer
 * computes them for new corporations in a worker thread (nta-prepare-worker.ts), so that the
 * thread writing to the store does not.
 */
import type { Corporation } from '../corporation';
import type { NewCorporationChange } from '../corporation-change';
import { packCorporation, unpackCorporation } from './corporation-row';
import type { SearchKeys } from '../search/search-backend';
import { isSearchable, searchKeysOf } from '../search/search-keys';

export interface StoredCorporation {
  corporate_number: string;
  /** The corporation packed for storage (corporation-row.ts). */
  packed: string;
  prefecture_code: string;
  /** Not active (closed, or deleted). */
  closed: boolean;
  /** Found by name searches (not excluded by the NTA, not deleted). */
  searchable: boolean;
  keys: SearchKeys;
  /** Its whole history packed (history-row.ts), when the import changed it (else the stored one is kept). */
  history?: string;
  /** The changes to record with it (the change feed). */
  changes?: NewCorporationChange[];
}

export function storedOf(c: Corporation): StoredCorporation {
  return {
    corporate_number: c.corporate_number,
    packed: packCorporation(c),
    prefecture_code: c.address.prefecture_code,
    closed: c.status !== 'active',
    searchable: isSearchable(c),
    keys: searchKeysOf(c),
  };
}

export function corporationOfStored(s: StoredCorporation): Corporation {
  return unpackCorporation(s.packed);
}
