/**
 * The delivery worker's shares: keys with due events are served in turn, each only what its free
 * slots take, and a key whose receiver gives no answer is held to one delivery at a time while
 * the other keys' events go out. Real SQLite store, real receivers on loopback.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { GatewayStore } from '../../../core/store/gateway-store';
import { openSqliteStore } from '../../../core/store/sqlite/sqlite-store';
import { DeliveryWorker, type WorkerOptions } from '../../../core/watches/delivery-worker';
import type { WatchRepository } from '../../../core/watches/watch-repository';
import { watchRepositories } from '../../../core/store/watch-stores';
import { eventually, MovableClock, startReceiver, type Receiver } from './watch-gateway';

describe('delivery worker: shares of the keys', () => {
  let dir: string;
  let store: GatewayStore;
  let repo: WatchRepository;
  let receivers: Receiver[];
  let seq = 0;
  const clock = new MovableClock();

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'jpgw-shares-'));
    store = openSqliteStore(dir);
    repo = await store.open(watchRepositories);
    receivers = [];
  });
  afterEach(async () => {
    for (const r of receivers) await r.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A key with credit, a watch to a new receiver, and `n` events due to it. */
  async function keyWithEvents(keyId: string, n: number): Promise<Receiver> {
    const receiver = await startReceiver();
    receivers.push(receiver);
    await store.keys.create({
      id: keyId,
      hash: `h-${keyId}`,
      prefix: 'p',
      ownerLabel: 't',
      createdAt: clock.now(),
      trialMicro: 1_000_000,
    });
    await repo.createWatch({
      id: `w-${keyId}`,
      keyId,
      url: receiver.url,
      secret: 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      subjects: ['abc-123'],
      createdAt: clock.now(),
    });
    const events = Array.from({ length: n }, (_, i) => ({
      id: `msg_${keyId}_${i}`,
      watchId: `w-${keyId}`,
      keyId,
      subject: 'abc-123',
      changeId: `c${i}`,
      body: JSON.stringify({ key: keyId, i }),
      createdAt: clock.now(),
    }));
    const afterSeq = await repo.cursor('feed');
    await repo.recordEvents({ source: 'feed', afterSeq, seq: ++seq, events, dropped: [], at: clock.now() });
    return receiver;
  }

  const workerOf = (options: Partial<WorkerOptions>) =>
    new DeliveryWorker(
      repo,
      store.keys,
      clock,
      {
        allowLoopback: true,
        userAgent: 't',
        timeoutMs: 2_000,
        priceMicroUsdc: 1_000,
        leaseMs: 60_000,
        slots: 32,
        perKeySlots: 4,
        ...options,
      },
      pino({ level: 'silent' }),
    );

  it('serves the keys with due events in turn, each what its free slots take', async () => {
    const order: string[] = [];
    for (const key of ['k1', 'k2', 'k3']) {
      const r = await keyWithEvents(key, 3);
      const answer = r.answer;
      r.answer = (got) => {
        order.push(JSON.parse(got.body).key as string);
        return answer(got);
      };
    }
    const worker = workerOf({ slots: 1, perKeySlots: 1 });
    for (let i = 0; i < 9; i++) {
      expect(await worker.round()).to.equal(1);
      await worker.idle();
    }
    expect(order).to.deep.equal(['k1', 'k2', 'k3', 'k1', 'k2', 'k3', 'k1', 'k2', 'k3']);
    expect(await worker.round()).to.equal(0);
  });

  it("holds a key whose receiver gives no answer to one delivery at a time, while another key's events all go out", async () => {
    const silent = await keyWithEvents('k1', 20);
    silent.answer = () => 'hang';
    const healthy = await keyWithEvents('k2', 20);
    const worker = workerOf({ timeoutMs: 300, perKeySlots: 2 });
    let mostOpenAfterPenalty = 0;
    const driving = (async () => {
      for (let i = 0; i < 500 && (healthy.received.length < 20 || silent.received.length < 5); i++) {
        await worker.round();
        // From the third request on, the first two had timed out: one at a time.
        if (silent.received.length >= 3) mostOpenAfterPenalty = Math.max(mostOpenAfterPenalty, silent.open);
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    await eventually(async () => (silent.received.length >= 5 ? true : undefined), 10_000, 'five attempts');
    for (let i = 0; i < 30; i++) {
      mostOpenAfterPenalty = Math.max(mostOpenAfterPenalty, silent.open);
      await new Promise((r) => setTimeout(r, 10));
    }
    await driving;
    await worker.idle();
    expect(silent.mostOpen).to.equal(2);
    expect(mostOpenAfterPenalty).to.equal(1);
    expect(healthy.received).to.have.length(20);
  });
});
