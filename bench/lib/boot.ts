/** Spawn-to-listening time of the compiled gateway (`dist/main.js`) on a data directory. */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

export function bootOnce(dataDir: string): Promise<{ ms: number; plugins: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(__dirname, '..', '..', 'main.js')], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let listening: { ms: number; plugins: number } | undefined;
    child.stdout.on('data', (c) => {
      out += String(c);
      const m = /"plugins":(\d+).*gateway listening/.exec(out);
      if (m && !listening) {
        listening = { ms: performance.now() - started, plugins: Number(m[1]) };
        child.kill('SIGTERM');
      }
    });
    child.once('exit', (code) =>
      listening ? resolve(listening) : reject(new Error(`gateway exited with ${code}: ${out.slice(-500)}`)),
    );
    child.once('error', reject);
  });
}
