/**
 * Boot time: from spawning `node dist/main.js` to its "listening" log line, with every plugin
 * folder, on a fresh data directory and on one that already holds data. Median of N runs.
 *   node dist/bench/boot.js [runs]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bootOnce } from './lib/boot';

async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? 7);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'jpgw-boot-'));
  try {
    const times: number[] = [];
    let plugins = 0;
    for (let i = 0; i < runs; i++) {
      const r = await bootOnce(dataDir);
      times.push(r.ms);
      plugins = r.plugins;
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)];
    console.log(
      `boot with ${plugins} sold plugins: median ${median.toFixed(0)} ms, min ${times[0].toFixed(0)} ms, max ${times[times.length - 1].toFixed(0)} ms (${runs} runs, spawn to listening)`,
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

void main();
