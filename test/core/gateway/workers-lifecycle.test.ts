/**
 * WORKERS (issue 28), the primary's side, with real processes on SQLite: one start-up log and
 * log lines naming their worker; a worker killed with kill -9 is replaced and logged while the
 * other keeps serving, and nothing acknowledged is lost; WORKERS=auto is one worker per core; a
 * bad WORKERS, a worker that cannot start and a lost money store each refuse the start in one line
 * (the store before any worker is forked).
 */
import { expect } from 'chai';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { ECHO } from '../../support/fx-endpoints';
import {
  announcedWorkers,
  logLines,
  postOnNewConnection,
  requestOnNewConnection,
  spawnFixtureGateway,
  startExpectingRefusal,
  type LogLine,
  type ProcessGateway,
} from '../../support/process-gateway';

const CALL = { product_id: ECHO.brokerId, query: { n: 3 } };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitForLine(
  gw: ProcessGateway,
  match: (l: LogLine) => boolean,
  what: string,
): Promise<LogLine> {
  for (let i = 0; i < 300; i++) {
    const found = logLines(gw).find(match);
    if (found) return found;
    await sleep(50);
  }
  throw new Error(`no log line: ${what}\n${gw.output()}`);
}

describe('WORKERS: the primary starts, replaces and names its workers (real processes, SQLite)', function () {
  this.timeout(90_000);
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'jpgw-workers-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('writes the start-up lines once, and every line says which worker (or the primary) wrote it', async () => {
    const gw = await spawnFixtureGateway({ DATA_DIR: dataDir, WORKERS: '2' });
    try {
      for (let i = 0; i < 6; i++) {
        const r = await requestOnNewConnection(`${gw.url}/preview/v1/${ECHO.tail}?n=2`, {
          headers: { 'X-Request-Id': `named-${i}` },
        });
        expect(r.status).to.equal(200);
      }
      await waitForLine(gw, (l) => l.req_id === 'named-5', 'the last request');
    } finally {
      await gw.stop();
    }
    const lines = logLines(gw);
    expect(lines.filter((l) => String(l.msg).startsWith('sales channels:'))).to.have.length(1);
    expect(lines.filter((l) => String(l.msg).startsWith('gateway listening'))).to.have.length(1);
    expect(announcedWorkers(gw).map((w) => w.id)).to.deep.equal([1, 2]);
    for (const l of lines) {
      expect(l.role === 'primary' || [1, 2].includes(l.worker), JSON.stringify(l)).to.equal(true);
    }
    const served = new Set(lines.filter((l) => String(l.req_id).startsWith('named-')).map((l) => l.worker));
    expect(served).to.deep.equal(new Set([1, 2]));
  });

  it('kill -9 of one worker under load: the other keeps serving, a new worker replaces it, and it is logged; nothing acknowledged is lost', async () => {
    const gw = await spawnFixtureGateway({
      DATA_DIR: dataDir,
      WORKERS: '2',
      TRIAL_CREDIT_MICRO_USDC: '5000000',
      BROKER_LIMIT_PER_MINUTE: '100000',
    });
    let ok = 0;
    let cut = 0;
    const other: string[] = [];
    let key = '';
    try {
      key = (await postOnNewConnection(`${gw.url}/keys/create`, { owner_label: 'kill -9' })).body.api_key;
      let stop = false;
      let n = 0;
      const loop = async () => {
        while (!stop) {
          const id = `load-${n++}`;
          try {
            const r = await postOnNewConnection(`${gw.url}/broker/call`, CALL, {
              'X-API-Key': key,
              'X-Request-Id': id,
            });
            if (r.status === 200) ok++;
            else other.push(`${r.status} ${r.text}`);
          } catch {
            cut++; // the connection died with the worker: no answer, so nothing was acknowledged
          }
        }
      };
      const loops = Array.from({ length: 6 }, loop);
      await sleep(700);
      const [victim, survivor] = announcedWorkers(gw);
      const killedAt = Date.now();
      process.kill(victim.pid, 'SIGKILL');
      const exited = await waitForLine(
        gw,
        (l) => l.exited_worker === victim.id,
        'the exit of the killed worker',
      );
      const replaced = await waitForLine(gw, (l) => l.replaces === victim.id, 'the replacement serving');
      await sleep(700);
      stop = true;
      await Promise.all(loops);

      expect(exited).to.include({ role: 'primary', pid: victim.pid, signal: 'SIGKILL', level: 50 });
      expect(exited.msg).to.include(`worker ${victim.id} (pid ${victim.pid}) exited on SIGKILL`);
      expect(replaced).to.include({ role: 'primary', started_worker: 3 });
      const answers = logLines(gw).filter(
        (l) => String(l.req_id).startsWith('load-') && l.res?.statusCode === 200,
      );
      const survivorAfter = answers.filter((l) => l.worker === survivor.id && l.time > killedAt);
      const survivorBeforeReplacement = survivorAfter.filter((l) => l.time < replaced.time);
      expect(
        survivorBeforeReplacement.length,
        'the other worker served while its peer was down',
      ).to.be.greaterThan(0);
      expect(answers.filter((l) => l.worker === 3).length, 'the replacement serves').to.be.greaterThan(0);
      expect(other, 'no call was answered with an error').to.deep.equal([]);
      const metrics = (await requestOnNewConnection(`${gw.url}/metrics`)).text;
      expect(metrics).to.match(/^gateway_worker_exits_total 1$/m);
      expect(metrics).to.match(/^gateway_workers_serving 2$/m);
      expect(cut, 'only calls in flight on the killed worker were cut').to.be.at.most(6);
    } finally {
      await gw.stop();
    }
    const after = await spawnFixtureGateway({ DATA_DIR: dataDir });
    try {
      const s = (await requestOnNewConnection(`${after.url}/keys/status`, { headers: { 'X-API-Key': key } }))
        .body;
      // Every call answered 200 is charged; a call cut by the kill may have been charged before its answer was lost.
      expect(s.spent.calls).to.be.at.least(ok);
      expect(s.spent.calls).to.be.at.most(ok + cut);
      expect(s.balance.micro_usdc + s.reserved_in_flight.micro_usdc).to.equal(
        5_000_000 - ECHO.price * s.spent.calls,
      );
    } finally {
      await after.stop();
    }
  });

  it('kill -9 of the primary ends every worker (none is left serving or holding the store)', async () => {
    const gw = await spawnFixtureGateway({ DATA_DIR: dataDir, WORKERS: '2' });
    const workers = announcedWorkers(gw);
    await gw.kill();
    // Ended: gone, or a zombie left for init to reap (its parent was the primary).
    const ended = (pid: number) => {
      try {
        return /^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
      } catch {
        return true;
      }
    };
    for (let i = 0; i < 100 && !workers.every((w) => ended(w.pid)); i++) await sleep(50);
    expect(workers.filter((w) => !ended(w.pid))).to.deep.equal([]);
  });

  it(`WORKERS=auto starts one worker per core (${availableParallelism()} here)`, async () => {
    const gw = await spawnFixtureGateway({ DATA_DIR: dataDir, WORKERS: 'auto' });
    try {
      const cores = availableParallelism();
      if (cores === 1) {
        // One core: one process, no primary.
        expect(logLines(gw).some((l) => l.role === 'primary')).to.equal(false);
      } else {
        expect(announcedWorkers(gw)).to.have.length(cores);
      }
    } finally {
      await gw.stop();
    }
  });

  for (const value of ['0', 'two', '1.5', '65', '-2', 'AUTO ']) {
    it(`WORKERS=${JSON.stringify(value)} refuses the start, naming the variable`, async () => {
      const r = await startExpectingRefusal({ DATA_DIR: dataDir, WORKERS: value });
      expect(r.code).to.equal(78);
      expect(r.stdout).to.equal('');
      expect(r.stderr).to.match(/^Refusing to start: Invalid configuration:\n {2}- WORKERS: /);
      expect(r.stderr).to.include('accepted: auto (one per core) or an integer from 1 to 64');
      expect(r.stderr.trim().split('\n')).to.have.length(2);
    });
  }

  for (const workers of ['1', '2']) {
    it(`a busy port (WORKERS=${workers}) is one line naming the port and what to do, no stack trace`, async () => {
      const taken = net.createServer();
      await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
      const port = (taken.address() as net.AddressInfo).port;
      try {
        const r = await startExpectingRefusal({ DATA_DIR: dataDir, WORKERS: workers, PORT: String(port) });
        expect(r.code).to.equal(1);
        expect(r.stderr).to.equal(
          `Refusing to start: port ${port} on 127.0.0.1 is already in use by another process (EADDRINUSE); stop that process or set PORT to a free port\n`,
        );
        expect(r.stdout).to.not.include('gateway listening');
        expect(r.stdout).to.not.match(/"level":50|at .*\.js:\d+/);
      } finally {
        taken.close();
      }
    });
  }

  it('a HOST that is not an address of this machine is one line naming it', async () => {
    // 192.0.2.1 is TEST-NET-1 (RFC 5737): never assigned to a machine.
    const r = await startExpectingRefusal({ DATA_DIR: dataDir, HOST: '192.0.2.1' });
    expect(r.code).to.equal(1);
    expect(r.stderr).to.equal(
      'Refusing to start: HOST 192.0.2.1 is not an address of this machine (EADDRNOTAVAIL); set HOST to one of its addresses, or 0.0.0.0\n',
    );
  });

  it('a lost money store refuses the start in the primary, before any worker is forked', async () => {
    const storeDir = path.join(dataDir, 'store');
    mkdirSync(storeDir);
    writeFileSync(path.join(storeDir, 'gateway.sqlite'), '');
    writeFileSync(path.join(storeDir, 'gateway.sqlite-created'), 'marker');
    const r = await startExpectingRefusal({ DATA_DIR: dataDir, WORKERS: '2' });
    expect(r.code).to.equal(1);
    // Not even the start-up lines, which the primary writes just before it forks.
    expect(r.stdout).to.equal('');
    expect(r.stderr.trim().split('\n'), r.stderr).to.have.length(1);
    expect(r.stderr).to.match(/^Refusing to start: .*gateway\.sqlite is empty \(0 bytes\)/);
  });
});
