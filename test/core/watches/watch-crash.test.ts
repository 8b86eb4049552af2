/**
 * kill -9 in the middle of deliveries loses no event and charges each once: the events a stopped
 * process had claimed are claimed again when their lease runs out and delivered with the SAME
 * webhook-id (the receiver sees a duplicate it can recognise), the credit holds it took are given
 * back, and changes made while no gateway ran are relayed from the stored cursor. On SQLite, and
 * on MongoDB when MONGODB_URI is set.
 */
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { readResponse } from '../../support/gateway';
import { FixtureFeed, FIXTURE_PRICE } from './fixture-source';
import { baseEnv, eventually, startReceiver, type Receiver } from './watch-gateway';

const MAIN = path.join(__dirname, 'watch-main.js');

async function spawnWatchGateway(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /\{"listening":"([^"]+)"\}/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`the gateway exited (${code}): ${err}`)));
  });
  return { url, child };
}

function kill9(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

const legs: Array<[string, string | undefined]> = [['SQLite', undefined]];
if (process.env.MONGODB_URI) legs.push(['MongoDB', process.env.MONGODB_URI]);

for (const [storeName, mongodbUri] of legs) {
  describe(`watches survive kill -9 (${storeName})`, function () {
    this.timeout(60_000);
    let receiver: Receiver;
    let dataDir: string;
    let children: ChildProcess[] = [];

    beforeEach(async () => {
      receiver = await startReceiver();
      dataDir = mkdtempSync(path.join(tmpdir(), 'jpgw-watch-crash-'));
    });
    afterEach(async () => {
      for (const c of children) if (c.exitCode === null && c.signalCode === null) await kill9(c);
      children = [];
      await receiver.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('delivers every event after a kill -9 mid-delivery, with the same webhook-ids, charging each once', async () => {
      const feedFile = path.join(dataDir, 'feed.sqlite');
      const feed = new FixtureFeed(feedFile);
      const db = `jpgw_watch_crash_${process.pid}_${Date.now()}`;
      const env = {
        ...baseEnv(
          dataDir,
          {
            WEBHOOK_ALLOW_LOOPBACK: '1',
            FIXTURE_FEED: feedFile,
            WATCH_LEASE_MS: '1500',
            WATCH_TIMEOUT_MS: '30000',
          },
          mongodbUri,
          db,
        ),
      };
      try {
        receiver.answer = () => 'hang'; // the first process never hears back
        const a = await spawnWatchGateway(env);
        children.push(a.child);
        const call = async (url: string, method: string, p: string, key: string, body?: unknown) =>
          readResponse(
            await fetch(url + p, {
              method,
              headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
              ...(body ? { body: JSON.stringify(body) } : {}),
            }),
          );
        const created = await readResponse(
          await fetch(`${a.url}/keys/create`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ owner_label: 'crash' }),
          }),
        );
        const key = created.body.api_key as string;
        const before = created.body.trial_credit.micro_usdc as number;
        expect(
          (
            await call(a.url, 'POST', '/keys/watches', key, {
              things: ['abc-123', 'abd-456'],
              url: receiver.url,
            })
          ).status,
        ).to.equal(201);
        feed.append('abc-123', { n: 1 });
        feed.append('abd-456', { n: 2 });
        feed.append('abc-123', { n: 3 });
        const hung = await receiver.waitFor(3);
        const firstIds = new Set(hung.map((r) => String(r.headers['webhook-id'])));
        expect(firstIds.size).to.equal(3);
        await kill9(a.child);

        feed.append('abd-456', { n: 4 }); // while no gateway runs
        receiver.answer = () => ({ status: 200 });
        const b = await spawnWatchGateway(env);
        children.push(b.child);
        const all = await eventually(
          async () => {
            const r = await call(b.url, 'GET', '/keys/watches/events', key);
            const evs = r.body.events as Array<{ id: string; status: string }>;
            return evs.length === 4 && evs.every((e) => e.status === 'delivered') ? evs : undefined;
          },
          20_000,
          'four delivered events',
        );
        const redelivered = receiver.received.slice(3);
        expect(redelivered).to.have.length(4);
        const secondIds = new Set(redelivered.map((r) => String(r.headers['webhook-id'])));
        // The three interrupted deliveries came again under their own ids, plus the new one.
        for (const id of firstIds) expect(secondIds.has(id)).to.equal(true);
        expect(new Set(all.map((e) => e.id))).to.deep.equal(secondIds);
        const status = await call(b.url, 'GET', '/keys/status', key);
        expect(status.body.reserved_in_flight.micro_usdc).to.equal(0);
        expect(status.body.balance.micro_usdc).to.equal(before - 4 * FIXTURE_PRICE);
        await kill9(b.child);
      } finally {
        feed.close();
        if (mongodbUri) {
          const client = await MongoClient.connect(mongodbUri);
          await client
            .db(db)
            .dropDatabase()
            .finally(() => client.close());
        }
      }
    });
  });
}
