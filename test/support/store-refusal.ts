/**
 * A gateway process that is expected to refuse its start because a part of its store was lost:
 * what it printed and its exit code, and what every such refusal must say (one line: which file or
 * collections, what they held, how to restore them, how to start afresh on purpose).
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { PROJECT_ROOT } from '../../config/paths';

export interface Refusal {
  code: number | null;
  output: string;
}

/** Runs a gateway entry point (`dist/main.js`, or the fixture one) expecting it to refuse. */
export function startExpectingRefusal(entry: string, env: Record<string, string>): Promise<Refusal> {
  const child = spawn(process.execPath, [entry], {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c) => {
    output += String(c);
    if (output.includes('gateway listening')) child.kill('SIGKILL'); // it started: the test fails
  });
  child.stderr.on('data', (c) => (output += String(c)));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

/** The one line a refusal prints, after the checks every refusal passes. */
export function refusalLine(r: Refusal): string {
  expect(r.output, r.output).to.not.include('gateway listening');
  expect(r.code, r.output).to.equal(1);
  const lines = r.output.trim().split('\n');
  expect(lines, r.output).to.have.length(1);
  expect(lines[0]).to.match(/^Refusing to start: /);
  expect(lines[0]).to.not.match(/\n\s+at /);
  return lines[0];
}

/** A refusal naming the SQLite database `file`, its `problem`, what it `holds`, restore and afresh. */
export function expectFileRefusal(r: Refusal, file: string, problem: RegExp, holds: string): void {
  const line = refusalLine(r);
  expect(line).to.include(`${file} `);
  expect(line).to.match(problem);
  expect(line).to.include(`It holds ${holds}`);
  expect(line).to.include(`copy the latest backup to ${file},`);
  expect(line).to.include('docs/operations.md');
  expect(line).to.include(`move ${file}* `);
}

/** A refusal naming the MongoDB collections of `set` that are gone, what it holds, restore and afresh. */
export function expectCollectionsRefusal(
  r: Refusal,
  db: string,
  set: string,
  gone: readonly string[],
  holds: string,
): void {
  const line = refusalLine(r);
  expect(line).to.include(`MongoDB database "${db}": the collection`);
  expect(line).to.include(`of the set "${set}"`);
  for (const c of gone) expect(line).to.include(`"${c}"`);
  expect(line).to.include(`That set holds ${holds}`);
  expect(line).to.include('mongorestore');
  expect(line).to.include(`store_markers.deleteOne({ _id: "${set}" })`);
}
