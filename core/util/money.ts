/** USDC has 6 decimals; prices are integers of micro-USDC and shown as exact decimal USD text. */
export const MICRO_PER_USD = 1_000_000;

/** 15000 → "0.015", 10000 → "0.01", 2500000 → "2.5": exact, no floating point. */
export function formatUsd(micro: number | bigint): string {
  const value = BigInt(micro);
  const sign = value < 0n ? '-' : '';
  const abs = value < 0n ? -value : value;
  const whole = abs / BigInt(MICRO_PER_USD);
  const frac = (abs % BigInt(MICRO_PER_USD)).toString().padStart(6, '0').replace(/0+$/, '');
  return `${sign}${whole}${frac ? `.${frac}` : ''}`;
}
