/**
 * Integer arithmetic for rates and yen, so that no floating-point value ever decides a yen.
 * Rates are held in units of 0.001% (1 unit = 1/100,000): 9.85% is 9,850 units, 18.3% is 18,300,
 * and 5.5 per mille (0.55%) is 550. An amount with a fraction of a yen is kept exact as the
 * fraction num/den of integers until the one rounding the rules prescribe.
 */

export const UNITS_PER_WHOLE = 100_000;

const DECIMAL_TEXT = /^(\d{1,3})(?:\.(\d{1,3}))?$/;

/** "9.85" (per cent, at most 3 decimals) to 9,850 units. */
export function percentToUnits(text: string): number {
  const m = DECIMAL_TEXT.exec(text);
  if (!m) throw new Error(`not a percentage with at most 3 decimals: ${JSON.stringify(text)}`);
  return Number(m[1]) * 1000 + Number((m[2] ?? '').padEnd(3, '0'));
}

/** "5.5" (per mille, at most 2 decimals) to 550 units. */
export function perMilleToUnits(text: string): number {
  const units = percentToUnits(text);
  if (units % 10 !== 0) throw new Error(`per-mille rate with more than 2 decimals: ${text}`);
  return units / 10;
}

/** 9,850 units as "9.85" (per cent, trailing zeros dropped). */
export function unitsToPercentText(units: number): string {
  return decimalText(units, 1000);
}

/** 550 units as "5.5" (per mille). */
export function unitsToPerMilleText(units: number): string {
  return decimalText(units, 100);
}

/** An exact amount of yen: num / den, with den > 0. */
export interface ExactYen {
  num: number;
  den: number;
}

/** amount x rate, exactly: the full premium or wage-based amount before any rounding. */
export function applyRate(amountYen: number, rateUnits: number): ExactYen {
  return checked({ num: amountYen * rateUnits, den: UNITS_PER_WHOLE });
}

/** Half of an amount x rate, exactly: the employee's share of a premium split 50/50. */
export function halfOfRate(amountYen: number, rateUnits: number): ExactYen {
  return checked({ num: amountYen * rateUnits, den: 2 * UNITS_PER_WHOLE });
}

/**
 * The rounding of an employee's share deducted from pay, for social-insurance premiums and
 * employment insurance alike: a fraction of 50 sen or less is dropped, more than 50 sen makes a
 * whole yen (sources in docs/payroll.md; a written agreement may set another rule, not modelled).
 */
export function roundDeducted({ num, den }: ExactYen): number {
  const yen = Math.floor(num / den);
  const remainder = num - yen * den;
  return 2 * remainder > den ? yen + 1 : yen;
}

/** Drops any fraction of a yen (the withholding table's rule above 740,000 yen). */
export function truncateYen({ num, den }: ExactYen): number {
  return Math.floor(num / den);
}

/** The exact amount as decimal text ("2981.2", "14775"): every den used here divides a power of ten. */
export function exactYenText({ num, den }: ExactYen): string {
  // BigInt: num x 10^places can pass 2^53 for the largest salaries.
  const n = BigInt(num);
  const d = BigInt(den);
  for (let places = 0, scale = 1n; places <= 8; places++, scale *= 10n) {
    if ((n * scale) % d !== 0n) continue;
    const scaled = (n * scale) / d;
    const whole = scaled / scale;
    const fraction = (scaled % scale).toString().padStart(places, '0').replace(/0+$/, '');
    return fraction ? `${whole}.${fraction}` : `${whole}`;
  }
  throw new Error(`${num}/${den} has no short decimal expansion`);
}

function decimalText(scaled: number, scale: number): string {
  const whole = Math.floor(scaled / scale);
  const fraction = String(scaled - whole * scale)
    .padStart(String(scale).length - 1, '0')
    .replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}

function checked(x: ExactYen): ExactYen {
  // Products stay far below 2^53 for the bounded inputs (salary < 10^8, rates < 10^5 units).
  if (!Number.isSafeInteger(x.num)) throw new Error(`amount out of the exact integer range: ${x.num}`);
  return x;
}
