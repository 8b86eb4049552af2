/**
 * Watches of corporate numbers end to end: a gateway runs (the real composition, main.ts), the
 * CLI imports a differential file into its store (`import:registry` as a separate process), and
 * within seconds the webhook receiver on loopback gets one `corporation.changed` event per watched
 * corporation that changed, signed and verified with the Standard Webhooks reference library. On
 * SQLite, and on MongoDB when MONGODB_URI is set (TEST_STORE=mongodb runs every gateway there).
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { startTestGateway, type TestGateway } from '../../support/gateway';
import { eventually, startReceiver, type Receiver } from '../../core/watches/watch-gateway';
import { CORPORATION_EVENT_PRICE_MICRO_USDC } from '../../../domain/registry/watch-source';
import { ntaCsv, ntaNumber, ntaRecords } from '../../support/nta-records';

const run = promisify(execFile);
const IMPORT_CLI = path.join(__dirname, '..', '..', '..', 'tools', 'import-registry.js');

const legs: Array<[string, string | undefined]> = [['SQLite', undefined]];
if (process.env.MONGODB_URI) legs.push(['MongoDB', process.env.MONGODB_URI]);

for (const [storeName, mongodbUri] of legs) {
  describe(`watches of corporate numbers, fed by a CLI import (${storeName})`, function () {
    this.timeout(120_000);
    let gw: TestGateway | undefined;
    let receiver: Receiver | undefined;
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(path.join(tmpdir(), 'jpgw-corp-watch-'));
    });
    afterEach(async () => {
      await gw?.close();
      await receiver?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('delivers a signed corporation.changed event within seconds of an import that changes a watched corporation', async () => {
      const db = `jpgw_corp_watch_${process.pid}_${Date.now()}`;
      const storeEnv: Record<string, string> = {
        DATA_DIR: path.join(dir, 'data'),
        ...(mongodbUri ? { MONGODB_URI: mongodbUri, MONGODB_DB: db } : {}),
      };
      const importFile = async (file: string) =>
        run(process.execPath, [IMPORT_CLI, file], {
          env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...storeEnv },
        });
      const records = ntaRecords(3, 0, '2026-10-01');
      const full = path.join(dir, '13_tokyo_all_20261001.csv');
      writeFileSync(full, ntaCsv(records));
      await importFile(full);

      receiver = await startReceiver();
      gw = await startTestGateway({ env: { ...storeEnv, WEBHOOK_ALLOW_LOOPBACK: '1' } });
      const key = (await gw.post('/keys/create', { owner_label: 'watcher' })).body.api_key as string;
      const [watched, also, unwatched] = records.map((r) => r.corporateNumber);
      const bad = `${(Number(watched[0]) % 9) + 1}${watched.slice(1)}`; // another check digit
      const refused = await gw.post(
        '/keys/watches',
        { corporate_numbers: [watched, bad], url: receiver.url },
        { 'x-api-key': key },
      );
      expect(refused.status).to.equal(422);
      expect(refused.body.error).to.equal('invalid_watch_subjects');
      expect(refused.body.correction_hints[0].parameter).to.equal('corporate_numbers[1]');
      const created = await gw.post(
        '/keys/watches',
        { corporate_numbers: [watched, also, watched], url: receiver.url },
        { 'x-api-key': key },
      );
      expect(created.status).to.equal(201);
      expect(created.body.corporate_numbers).to.deep.equal([watched, also].sort());
      expect(created.body.event_type).to.equal('corporation.changed');
      expect(created.body.price_per_delivered_event.micro_usdc).to.equal(CORPORATION_EVENT_PRICE_MICRO_USDC);
      // The price is on the price list.
      const products = await gw.get('/products');
      expect(products.body.watches.price_per_delivered_event.micro_usdc).to.equal(
        CORPORATION_EVENT_PRICE_MICRO_USDC,
      );

      const renamed = {
        ...records[0],
        sequenceNumber: '1',
        process: '11',
        updateDate: '2026-10-20',
        changeDate: '2026-10-15',
        name: '株式会社改名後商事',
      };
      const closedOther = {
        ...records[2],
        sequenceNumber: '2',
        process: '71',
        updateDate: '2026-10-20',
        changeDate: '2026-10-16',
        closeDate: '2026-10-16',
        closeCause: '01',
      };
      const diff = path.join(dir, 'diff_20261020.csv');
      writeFileSync(diff, ntaCsv([renamed, closedOther]));
      const importedAt = Date.now();
      await importFile(diff);
      const [got] = await receiver.waitFor(1, 15_000);
      expect(got.at - importedAt).to.be.below(10_000);
      const headers = {
        'webhook-id': String(got.headers['webhook-id']),
        'webhook-timestamp': String(got.headers['webhook-timestamp']),
        'webhook-signature': String(got.headers['webhook-signature']),
      };
      const payload = new Webhook(created.body.secret as string).verify(got.body, headers) as {
        type: string;
        id: string;
        data: {
          corporate_number: string;
          change_date: string;
          process: string;
          changed: string[];
          before: { name: string };
          after: { name: string };
        };
      };
      expect(payload.type).to.equal('corporation.changed');
      expect(payload.id).to.equal(headers['webhook-id']);
      expect(payload.data.corporate_number).to.equal(watched);
      expect(payload.data.change_date).to.equal('2026-10-15');
      expect(payload.data.process).to.equal('11');
      expect(payload.data.changed).to.include('name');
      expect(payload.data.before.name).to.equal(records[0].name);
      expect(payload.data.after.name).to.equal('株式会社改名後商事');
      await new Promise((r) => setTimeout(r, 1_500));
      expect(receiver.received).to.have.length(1); // the closure of an unwatched corporation sent nothing
      expect(unwatched).to.equal(ntaNumber(2));
      const events = await eventually(async () => {
        const r = await gw!.get('/keys/watches/events', { 'x-api-key': key });
        return r.body.events.length === 1 && r.body.events[0].status === 'delivered'
          ? r.body.events
          : undefined;
      });
      expect(events[0].subject).to.equal(watched);
      expect((await gw.get('/keys/status', { 'x-api-key': key })).body.spent.micro_usdc).to.equal(
        CORPORATION_EVENT_PRICE_MICRO_USDC,
      );
      if (mongodbUri) {
        const { MongoClient } = await import('mongodb');
        const client = await MongoClient.connect(mongodbUri);
        await client
          .db(db)
          .dropDatabase()
          .finally(() => client.close());
      }
    });
  });
}
