/**
 * The worker settles a claim that a stopped process left: when its hold was charged (the
 * receiver answered 2xx, the process stopped before marking the event), the event is marked
 * delivered without being sent or charged again; when its hold is still open, the hold is given
 * back and the event delivered under a new one. Real SQLite store, real receiver on loopback.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { GatewayStore } from '../../../core/store/gateway-store';
import { openSqliteStore } from '../../../core/store/sqlite/sqlite-store';
import { DeliveryWorker, WATCH_BROKER_ID } from '../../../core/watches/delivery-worker';
import type { WatchRepository } from '../../../core/watches/watch-repository';
import { watchRepositories } from '../../../core/store/watch-stores';
import { MovableClock, startReceiver, type Receiver } from './watch-gateway';

const PRICE = 2_000;

describe('delivery worker: claims a stopped process left', () => {
  let dir: string;
  let store: GatewayStore;
  let repo: WatchRepository;
  let receiver: Receiver;
  const clock = new MovableClock();
  let worker: DeliveryWorker;

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'jpgw-worker-'));
    store = openSqliteStore(dir);
    repo = await store.open(watchRepositories);
    receiver = await startReceiver();
    await store.keys.create({
      id: 'k1',
      hash: 'h1',
      prefix: 'p',
      ownerLabel: 't',
      createdAt: clock.now(),
      trialMicro: 10_000,
    });
    await repo.createWatch({
      id: 'w1',
      keyId: 'k1',
      url: receiver.url,
      secret: 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      subjects: ['abc-123'],
      createdAt: clock.now(),
    });
    await repo.recordEvents({
      source: 'feed',
      afterSeq: 0,
      seq: 1,
      events: [
        {
          id: 'msg_1',
          watchId: 'w1',
          keyId: 'k1',
          subject: 'abc-123',
          changeId: 'c1',
          body: '{}',
          createdAt: clock.now(),
        },
      ],
      dropped: [],
      at: clock.now(),
    });
    worker = new DeliveryWorker(
      repo,
      store.keys,
      clock,
      {
        allowLoopback: true,
        userAgent: 't',
        timeoutMs: 2_000,
        priceMicroUsdc: PRICE,
        leaseMs: 1_000,
        slots: 5,
        perKeySlots: 5,
      },
      pino({ level: 'silent' }),
    );
  });
  afterEach(async () => {
    await receiver.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** What a process does before it stops: claims and takes the hold. */
  async function claimAndHold() {
    const {
      claimed: [claimed],
    } = await repo.claimDue('k1', clock.now(), new Date(clock.now().getTime() + 1_000), 5, {
      recordedBefore: new Date(0),
      error: 'expired',
    });
    expect(
      await store.keys.reserve('k1', {
        id: claimed.holdId,
        amount: PRICE,
        brokerId: WATCH_BROKER_ID,
        at: clock.now(),
      }),
    ).to.equal(true);
    return claimed;
  }

  it('marks delivered, without sending or charging again, an event whose hold was charged', async () => {
    const claimed = await claimAndHold();
    await store.keys.commit('k1', {
      holdId: claimed.holdId,
      brokerId: WATCH_BROKER_ID,
      priceMicro: PRICE,
      status: 200,
      at: clock.now(),
      requestId: claimed.id,
    });
    clock.advance(1_001);
    expect(await worker.round()).to.equal(1);
    await worker.idle();
    expect((await repo.getEvent('msg_1'))!.status).to.equal('delivered');
    expect(receiver.received).to.have.length(0);
    expect((await store.keys.get('k1'))!.balanceMicro).to.equal(10_000 - PRICE);
  });

  it('gives back the open hold of an unfinished claim and delivers under a new one, charging once', async () => {
    await claimAndHold();
    clock.advance(1_001);
    expect(await worker.round()).to.equal(1);
    await worker.idle();
    expect(receiver.received).to.have.length(1);
    const e = (await repo.getEvent('msg_1'))!;
    expect(e).to.include({ status: 'delivered', attempts: 1 });
    const key = (await store.keys.status('k1'))!;
    expect(key.holds).to.deep.equal([]);
    expect(key.balanceMicro).to.equal(10_000 - PRICE);
  });
});
