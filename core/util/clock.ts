/** The time source, injected so that tests can fix "today". */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock stopped at one instant (tests, benchmarks). */
export function fixedClock(iso: string): Clock {
  const t = new Date(iso);
  if (Number.isNaN(t.getTime())) throw new Error(`fixedClock: not a date: ${iso}`);
  return { now: () => new Date(t.getTime()) };
}
