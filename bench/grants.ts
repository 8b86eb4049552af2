/**
 * The grants endpoints (snapshot mode) against the holiday endpoint on the same gateway, rounds
 * interleaved. Usage: npm run -s build && node dist/bench/grants.js [seconds]
 */
import { load, startServer, table, type LoadResult } from './lib/harness';

const PATHS: Array<[string, string]> = [
  ['holiday (yardstick)', '/preview/v1/local/holiday/jp?year=2026'],
  ['grants/search', '/preview/v1/grants/search'],
  ['grants/detail', '/preview/v1/grants/detail?id=a0WfQ000003cYWnUAM'],
  ['grants/deadlines', '/preview/v1/grants/deadlines'],
  [
    'grants/eligibility-candidates',
    '/preview/v1/grants/eligibility-candidates?pref=43&industry=manufacturing&employees=45',
  ],
];

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 5);
  const gateway = await startServer('gateway.js', { LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' });
  const rows: LoadResult[] = [];
  try {
    for (const [, path] of PATHS) await load('warm-up', { url: gateway.url + path, duration: 2 });
    for (let round = 1; round <= 2; round++) {
      for (const [label, path] of PATHS) {
        rows.push(await load(`${label} #${round}`, { url: gateway.url + path, duration: seconds }));
      }
    }
  } finally {
    await gateway.stop();
  }
  console.log(table(rows));
}

void main();
