/**
 * What a row of a published registry file can hold, from its layout: the longest row its columns'
 * maximum lengths allow (a longer one is damage, refused before it is read whole, so a file with
 * a line of a gigabyte never sits in memory), and text without control characters (a NUL in a
 * corporation's name is damage too, never imported as is).
 */

/** Characters a row holds at most: every column at its published maximum length. */
export function layoutChars(maxima: readonly number[]): number {
  return maxima.reduce((sum, m) => sum + m, 0);
}

/**
 * The longest row as decoded text (UTF-16 code units, what nta-rows.ts splits): a character takes
 * two at most (a doubled quote, or a surrogate pair: a JIS level 3 or 4 kanji of the Unicode
 * edition), each field its two quotes, then the commas and a CRLF.
 */
export function maxRowCodeUnits(maxima: readonly number[]): number {
  return 2 * layoutChars(maxima) + 2 * maxima.length + (maxima.length - 1) + 2;
}

/**
 * The longest row's content in UTF-8 bytes, for csv-parse's `max_record_size` (which counts the
 * bytes of the field being read): four bytes a character at most; quotes are not content.
 */
export function maxRecordBytes(maxima: readonly number[]): number {
  return 4 * layoutChars(maxima);
}

/** C0 controls, DEL and C1 controls (what these look for, hence the lint exceptions). */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** The same, less tab, line feed and carriage return: the layout of a free-text column's own text. */
// eslint-disable-next-line no-control-regex
const CONTROL_IN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/**
 * Where the first control character of a field is (0-based), or -1. `freeText` lets line breaks
 * and tabs through (a free-text column such as the NTA's 変更事由の詳細); names, kana, addresses
 * and codes hold none.
 */
export function controlCharacterAt(value: string, freeText = false): number {
  const m = (freeText ? CONTROL_IN_TEXT : CONTROL).exec(value);
  return m ? m.index : -1;
}

/** "column name holds U+0000 (a control character) at character 5". */
export function controlCharacterDetail(column: string, value: string, at: number): string {
  const code = value.charCodeAt(at).toString(16).toUpperCase().padStart(4, '0');
  return `column ${column} holds U+${code} (a control character) at character ${at + 1}`;
}

/** "the row is longer than the NTA corporate-number layout allows (...)". */
export function rowTooLongDetail(
  layout: string,
  maxima: readonly number[],
  bound: number,
  unit: string,
): string {
  return `the row is longer than the ${layout} layout allows: more than ${bound} ${unit}, where its ${maxima.length} columns hold ${layoutChars(maxima)} characters at most`;
}
