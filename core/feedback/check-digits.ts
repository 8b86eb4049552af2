/** Check digits that tell a real identifier from any run of digits of the same length. */

function digitsOf(text: string): number[] {
  return [...text].map(Number);
}

/** Payment card numbers (ISO/IEC 7812): the Luhn sum, doubling every second digit from the right. */
export function luhnValid(number: string): boolean {
  let sum = 0;
  digitsOf(number)
    .reverse()
    .forEach((d, i) => {
      const v = i % 2 === 1 ? d * 2 : d;
      sum += v > 9 ? v - 9 : v;
    });
  return sum % 10 === 0;
}

/**
 * My Number (個人番号, 12 digits): the formula of 総務省令第八十五号 第五条. With Pn the n-th digit of
 * the first eleven counted from the right and Qn = n + 1 (n <= 6) or n - 5 (n >= 7), the last digit
 * is 11 - (ΣPn×Qn mod 11), or 0 when that remainder is 0 or 1. From the left the weights are
 * 6,5,4,3,2,7,6,5,4,3,2.
 */
export function myNumberValid(number: string): boolean {
  if (!/^\d{12}$/.test(number)) return false;
  const d = digitsOf(number);
  const sum = d.slice(0, 11).reduce((acc, p, i) => {
    const n = 11 - i;
    return acc + p * (n <= 6 ? n + 1 : n - 5);
  }, 0);
  const remainder = sum % 11;
  return d[11] === (remainder <= 1 ? 0 : 11 - remainder);
}

/**
 * Corporate number (法人番号, 13 digits, public): the first digit is 9 - (ΣPn×Qn mod 9) over the other
 * twelve, Pn counted from the right, Qn 1 for odd n and 2 for even n (財務省令第七十号 第二条).
 */
export function corporateNumberValid(number: string): boolean {
  if (!/^\d{13}$/.test(number)) return false;
  const d = digitsOf(number);
  const sum = d
    .slice(1)
    .reverse()
    .reduce((acc, p, i) => acc + p * (i % 2 === 0 ? 1 : 2), 0);
  return d[0] === 9 - (sum % 9);
}
