/**
 * The 13-digit corporate number (法人番号) and the qualified-invoice registration number
 * (T + 13 digits). Check digit per 法人番号の指定等に関する省令 Art. 2 (NTA checkdigit.pdf):
 * check = 9 - (sum of Pn x Qn for n = 1..12) mod 9, where Pn is the n-th digit of the 12-digit base
 * counted from the right and Qn is 1 for odd n, 2 for even n. The check digit is the leftmost digit.
 */

const THIRTEEN_DIGITS = /^[0-9]{13}$/;
const T_NUMBER = /^T?[0-9]{13}$/;

/** The check digit (1..9) of a 12-digit base number. */
export function checkDigitOf(base: string): number {
  if (!/^[0-9]{12}$/.test(base)) throw new Error(`checkDigitOf: not a 12-digit base: ${base}`);
  let sum = 0;
  for (let n = 1; n <= 12; n++) {
    sum += Number(base[12 - n]) * (n % 2 === 1 ? 1 : 2);
  }
  return 9 - (sum % 9);
}

/** True for 13 digits whose leftmost digit is the check digit of the other twelve. */
export function isValidCorporateNumber(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    THIRTEEN_DIGITS.test(value) &&
    Number(value[0]) === checkDigitOf(value.slice(1))
  );
}

export interface ParsedRegistrationNumber {
  /** The 13 digits after the optional T. */
  digits: string;
  /** T + the 13 digits: the form the invoice register publishes. */
  tNumber: string;
  hadPrefix: boolean;
}

/** Reads an invoice registration number written T1234567890123 or 1234567890123. */
export function parseRegistrationNumber(value: string): ParsedRegistrationNumber | undefined {
  if (!T_NUMBER.test(value)) return undefined;
  const digits = value.startsWith('T') ? value.slice(1) : value;
  return { digits, tNumber: `T${digits}`, hadPrefix: value.startsWith('T') };
}

/** A corporation's registration number, if registered, is T + its corporate number. */
export function derivedTNumber(corporateNumber: string): string {
  return `T${corporateNumber}`;
}
