/**
 * A head office address as the packed rows store it (corporation-row.ts, history-row.ts): its ten
 * values in a fixed order, without field names.
 */
import type { CorporationAddress as Address } from '../corporation';

export type PackedAddress = [string, string, string, string, string, string, string, string, string, string];

export function packAddress(a: Address): PackedAddress {
  return [
    a.prefecture_name,
    a.prefecture_code,
    a.city_name,
    a.city_code,
    a.street_number,
    a.post_code,
    a.outside,
    a.en_prefecture_name,
    a.en_city_name,
    a.en_outside,
  ];
}

/** The address of packed values, its fields in the order the importer builds them. */
export function unpackAddress(a: PackedAddress): Address {
  return {
    prefecture_name: a[0],
    prefecture_code: a[1],
    city_name: a[2],
    city_code: a[3],
    street_number: a[4],
    post_code: a[5],
    outside: a[6],
    en_prefecture_name: a[7],
    en_city_name: a[8],
    en_outside: a[9],
  };
}
