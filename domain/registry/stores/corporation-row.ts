/**
 * A corporation as SQLite stores it: a JSON array of its values in a fixed order, without field
 * names, which were two fifths of every row (597 bytes became about 330 on the bench's file, and
 * the corporations are most of registry.sqlite, written twice through its WAL). Rows written as
 * JSON objects before this format are still read.
 */
import type { Corporation, CorporationStatus } from '../corporation';
import { packAddress, unpackAddress, type PackedAddress } from './address-row';

/** The first element of a packed row: the layout below. */
const LAYOUT = 1;

type Packed = [
  typeof LAYOUT,
  string, // corporate_number
  string, // name
  string, // furigana
  string, // en_name
  string, // kind
  PackedAddress,
  CorporationStatus,
  string, // close_date
  string, // close_cause
  string, // successor_corporate_number
  string, // process
  string, // correct
  string, // change_date
  string, // change_cause
  string, // update_date
  string, // assignment_date
  0 | 1, // excluded_from_search
  Array<[string, string, string]>, // former_names: name, furigana, until
];

export function packCorporation(c: Corporation): string {
  const packed: Packed = [
    LAYOUT,
    c.corporate_number,
    c.name,
    c.furigana,
    c.en_name,
    c.kind,
    packAddress(c.address),
    c.status,
    c.close_date,
    c.close_cause,
    c.successor_corporate_number,
    c.process,
    c.correct,
    c.change_date,
    c.change_cause,
    c.update_date,
    c.assignment_date,
    c.excluded_from_search ? 1 : 0,
    c.former_names.map((f) => [f.name, f.furigana, f.until]),
  ];
  return JSON.stringify(packed);
}

/** The corporation of a stored row, its fields in the order the importer builds them. */
export function unpackCorporation(text: string): Corporation {
  const value = JSON.parse(text) as Packed | Corporation;
  if (!Array.isArray(value)) return value;
  if (value[0] !== LAYOUT) throw new Error(`unknown corporation row layout ${String(value[0])}`);
  const [
    ,
    number,
    name,
    furigana,
    enName,
    kind,
    a,
    status,
    closeDate,
    closeCause,
    successor,
    process,
    correct,
    changeDate,
    changeCause,
    update,
    assignment,
    excluded,
    former,
  ] = value;
  return {
    corporate_number: number,
    name,
    furigana,
    en_name: enName,
    kind,
    address: unpackAddress(a),
    status,
    close_date: closeDate,
    close_cause: closeCause,
    successor_corporate_number: successor,
    process: process,
    correct: correct,
    change_date: changeDate,
    change_cause: changeCause,
    update_date: update,
    assignment_date: assignment,
    excluded_from_search: excluded === 1,
    former_names: former.map(([n, f, until]) => ({
      name: n,
      furigana: f,
      until,
    })),
  };
}
