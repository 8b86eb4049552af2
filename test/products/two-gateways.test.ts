/**
 * Two gateways on one MongoDB database, as two machines behind a load balancer would run them
 * (two processes, each with a data directory of its own; runs only with MONGODB_URI): a key's
 * credit is exact across both, a kill -9 of one under load loses nothing either acknowledged,
 * and the registry imported once (by the command line on one machine) is served by both.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { MongoClient } from 'mongodb';
import { PROJECT_ROOT } from '../../config/paths';
import type { GatewayStore } from '../../core/store/gateway-store';
import { connectMongoStore } from '../../core/store/mongo/mongo-store';
import { checkDigitOf } from '../../domain/registry/corporate-number';
import { recordToCsvLine } from '../../domain/registry/files/nta-layout';
import { makeRecord } from '../support/nta-standin';
import { spawnFixtureGateway, spawnGateway, type ProcessGateway } from '../support/process-gateway';

const CALL = JSON.stringify({ product_id: 'jp-local-pack-v1-fx-echo', query: { n: 3 } });
const PRICE = 1000;

let databases = 0;

/** What both machines share: the MongoDB database; each has its own data directory. */
function machines(uri: string, extra: Record<string, string>) {
  const db = `jpgw_two_${process.pid}_${Date.now()}_${++databases}`;
  const dirs = [0, 1].map(() => mkdtempSync(path.join(tmpdir(), 'jpgw-machine-')));
  const envOf = (i: number) => ({
    MONGODB_URI: uri,
    MONGODB_DB: db,
    DATA_DIR: dirs[i],
    BROKER_LIMIT_PER_MINUTE: '100000',
    KEY_CREATE_LIMIT_PER_HOUR: '100',
    ...extra,
  });
  return {
    db,
    envOf,
    /** The store both gateways use, opened as a third process would. */
    store: () => connectMongoStore(uri, db),
    async cleanUp(): Promise<void> {
      const client = await MongoClient.connect(uri);
      await client.db(db).dropDatabase();
      await client.close();
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    },
  };
}

async function post(gw: ProcessGateway, p: string, body: string, headers: Record<string, string> = {}) {
  return fetch(`${gw.url}${p}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
}

async function createKey(gw: ProcessGateway, label: string): Promise<{ key: string; id: string }> {
  const res = await post(gw, '/keys/create', JSON.stringify({ owner_label: label }));
  expect(res.status).to.equal(201);
  const b = (await res.json()) as { api_key: string; key_id: string };
  return { key: b.api_key, id: b.key_id };
}

/** The key's credit as stored: conservation, no open hold, every charge recorded once. */
async function expectExact(
  store: GatewayStore,
  keyId: string,
  trial: number,
  answered: number,
): Promise<void> {
  const key = await store.keys.status(keyId);
  expect(key, keyId).to.not.equal(null);
  expect(key!.holds, `${keyId} holds`).to.deep.equal([]);
  expect(key!.balanceMicro + PRICE * answered, `${keyId} balance + charges = trial`).to.equal(trial);
  expect(key!.calls, `${keyId} charged calls`).to.equal(answered);
  expect((await store.keys.usage(keyId, 1_000_000)).length, `${keyId} usage records`).to.equal(answered);
}

describe('two gateways on one MongoDB database (two machines)', function () {
  this.timeout(120_000);
  const uri = process.env.MONGODB_URI;
  if (!uri) {
    it('runs on MongoDB (skipped: MONGODB_URI is not set, so the MongoDB leg was skipped)');
    return;
  }

  it('credit for 5 calls answers exactly 5 of 20 concurrent calls spread over both', async () => {
    const m = machines(uri, { TRIAL_CREDIT_MICRO_USDC: String(5 * PRICE) });
    const gws: ProcessGateway[] = [];
    try {
      gws.push(await spawnFixtureGateway(m.envOf(0)), await spawnFixtureGateway(m.envOf(1)));
      const { key, id } = await createKey(gws[0], 'two machines');
      const statuses = await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const res = await post(gws[i % 2], '/broker/call', CALL, {
            'X-API-Key': key,
            'Idempotency-Key': randomUUID(),
          });
          await res.arrayBuffer();
          return { gateway: i % 2, status: res.status };
        }),
      );
      const answered = statuses.filter((s) => s.status === 200);
      expect(answered, JSON.stringify(statuses)).to.have.length(5);
      expect(statuses.filter((s) => s.status !== 200).map((s) => s.status)).to.deep.equal(
        Array(15).fill(402),
      );
      const store = await m.store();
      try {
        await expectExact(store, id, 5 * PRICE, 5);
      } finally {
        await store.close();
      }
    } finally {
      await Promise.all(gws.map((g) => g.stop().catch(() => undefined)));
      await m.cleanUp();
    }
  });

  it('kill -9 of one under load loses nothing acknowledged: every call answered once, charged once', async () => {
    const TRIAL = 5_000_000;
    // Calls the killed gateway held count as abandoned a second later (default 120 s).
    const m = machines(uri, { TRIAL_CREDIT_MICRO_USDC: String(TRIAL), ABANDONED_CALL_SECONDS: '1' });
    const gws: ProcessGateway[] = [];
    try {
      gws.push(await spawnFixtureGateway(m.envOf(0)), await spawnFixtureGateway(m.envOf(1)));
      const keys = await Promise.all([0, 1, 2, 3].map((i) => createKey(gws[i % 2], `load ${i}`)));
      const calls = new Map<string, Array<{ idem: string; answered: boolean }>>(keys.map((k) => [k.id, []]));
      const call = async (gw: ProcessGateway, k: { key: string }, c: { idem: string; answered: boolean }) => {
        const res = await post(gw, '/broker/call', CALL, { 'X-API-Key': k.key, 'Idempotency-Key': c.idem });
        await res.arrayBuffer();
        if (res.status === 200) c.answered = true;
        return res.status;
      };
      let running = true;
      // Two workers per key, one on each gateway: the same key is charged through both at once.
      const worker = async (k: { key: string; id: string }, gw: ProcessGateway) => {
        while (running) {
          const c = { idem: randomUUID(), answered: false };
          calls.get(k.id)!.push(c);
          try {
            await call(gw, k, c);
          } catch {
            if (gw === gws[0]) return; // the killed machine: its calls are retried below
          }
        }
      };
      const load = keys.flatMap((k) => [worker(k, gws[0]), worker(k, gws[1])]);
      await new Promise((r) => setTimeout(r, 500 + Math.floor(Math.random() * 1000)));
      await gws[0].kill();
      // The other machine goes on serving the same keys meanwhile.
      await new Promise((r) => setTimeout(r, 700));
      running = false;
      await Promise.all(load);
      await new Promise((r) => setTimeout(r, 1100));
      gws[0] = await spawnFixtureGateway(m.envOf(0));
      // Every call not answered is retried with its own Idempotency-Key, on either machine.
      let retried = 0;
      for (const k of keys) {
        for (const c of calls.get(k.id)!.filter((x) => !x.answered)) {
          expect(await call(gws[retried++ % 2], k, c), `retry of ${c.idem}`).to.equal(200);
        }
      }
      const store = await m.store();
      try {
        let total = 0;
        for (const k of keys) {
          const made = calls.get(k.id)!;
          expect(made.every((c) => c.answered)).to.equal(true);
          total += made.length;
          await expectExact(store, k.id, TRIAL, made.length);
        }
        expect(total).to.be.greaterThan(20);
        expect(retried, 'the kill cut some calls short').to.be.greaterThan(0);
      } finally {
        await store.close();
      }
    } finally {
      await Promise.all(gws.map((g) => g.stop().catch(() => undefined)));
      await m.cleanUp();
    }
  });

  it('serves on both machines the registry imported once, from one of them', async () => {
    const m = machines(uri, {});
    const gws: ProcessGateway[] = [];
    const base = '010099999999';
    const number = `${checkDigitOf(base)}${base}`;
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'jpgw-import-')), '13_tokyo_all_20261031.csv');
    try {
      writeFileSync(
        file,
        recordToCsvLine(
          makeRecord({
            sequenceNumber: '1',
            corporateNumber: number,
            process: '01',
            correct: '0',
            updateDate: '2026-10-01',
            changeDate: '2015-10-05',
            name: '株式会社ふたつ機械',
            kind: '301',
            prefectureName: '東京都',
            cityName: '千代田区',
            streetNumber: '試験町1番地',
            prefectureCode: '13',
            cityCode: '101',
            postCode: '1000001',
            assignmentDate: '2015-10-05',
            furigana: 'フタツキカイ',
            hihyoji: '0',
          }),
        ) + '\n',
      );
      const cli = path.join(PROJECT_ROOT, 'dist', 'tools', 'import-registry.js');
      const { stdout } = await promisify(execFile)(process.execPath, [cli, file, '--json'], {
        env: { ...process.env, ...m.envOf(0), LOG_LEVEL: 'silent' },
      });
      expect(JSON.parse(stdout)[0]).to.include({ rows: 1, created: 1 });
      gws.push(await spawnGateway(m.envOf(0)), await spawnGateway(m.envOf(1)));
      // Every installed look-up by a required `number` that answers a corporation answers this one
      // on both gateways (read from the OpenAPI document, so that no plugin is named here).
      let answered = 0;
      for (const lookUp of await numberPaths(gws[0].url)) {
        const bodies = await Promise.all(
          gws.map(async (gw) => (await fetch(`${gw.url}${lookUp}?number=${number}`)).json()),
        );
        const corporations = bodies.map((b) => (b as { corporation?: { legal_name: string } }).corporation);
        if (corporations.every((c) => c === undefined)) continue; // not a corporation look-up
        for (const c of corporations) expect(c?.legal_name, lookUp).to.equal('株式会社ふたつ機械');
        answered++;
      }
      expect(answered, 'a corporate-number look-up answered on both').to.be.greaterThan(0);
    } finally {
      await Promise.all(gws.map((g) => g.stop().catch(() => undefined)));
      rmSync(path.dirname(file), { recursive: true, force: true });
      await m.cleanUp();
    }
  });
});

/** The preview paths of the installed endpoints with a required `number`, from the OpenAPI document. */
async function numberPaths(url: string): Promise<string[]> {
  const doc = (await (await fetch(`${url}/openapi.json`)).json()) as {
    paths: Record<string, { get?: { parameters?: { name: string; required?: boolean }[] } }>;
  };
  return Object.entries(doc.paths)
    .filter(
      ([p, item]) =>
        p.startsWith('/preview/') && item.get?.parameters?.some((q) => q.name === 'number' && q.required),
    )
    .map(([p]) => p);
}
