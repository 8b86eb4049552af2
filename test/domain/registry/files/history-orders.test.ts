/**
 * The register is the same whatever order its files come in (issue 36, reproduction 7): the files
 * of the history tests (a sample of the real Tottori file, the rename, address change and merger
 * differentials, and a rename A that a later differential B corrects) imported in every order,
 * each into a store of its own, give byte-identical answers: the corporations as answered, their
 * histories and states on dates, and name searches. The name A published and B corrected was
 * never the register's: it is no former name, and searching it finds the corrected name by prefix
 * only. On SQLite, and on MongoDB when MONGODB_URI is set.
 */
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { corporationAsOf, heldHistory, statesView } from '../../../../domain/registry/answers/history';
import { candidateView, corporationView } from '../../../../domain/registry/answers/views';
import { importRegistryFile } from '../../../../domain/registry/files/importer';
import { readNtaFile } from '../../../../domain/registry/files/nta-file';
import type { NtaRecord } from '../../../../domain/registry/files/nta-layout';
import { StoreRegistry } from '../../../../domain/registry/sources/store-registry';
import type { CorporateRegistryRepository } from '../../../../domain/registry/stores/registry-repository';
import { corporateRegistryRepositories } from '../../../../domain/registry/stores/registry-stores';
import {
  BANK,
  CORRECTED_NAME,
  NUMBERS,
  SUNRISE,
  WITHDRAWN_NAME,
  realRecords,
  tottoriSample,
  writeCorrection,
  writeDiffs,
} from '../../../support/history-files';
import { mongoLeg, sqliteLeg, type StoreLeg } from '../../../support/store-legs';

const CHANGED = [...NUMBERS, SUNRISE];
const TAG = 'registry_import';
const DATES = ['2015-10-05', '2026-07-31', '2026-08-01', '2026-08-11', '2026-08-20', '2099-01-01'];
const QUERIES = [
  WITHDRAWN_NAME,
  'テスト新商号',
  CORRECTED_NAME,
  'とっとり銀行',
  'サンライズデンタル',
  'tesuto',
];

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((first, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [first, ...rest]),
  );
}

/** What buyers read of the register: corporations, histories, states on dates, name searches. */
async function answersOf(repo: CorporateRegistryRepository, numbers: readonly string[]): Promise<unknown> {
  const source = new StoreRegistry(repo, { lookup: () => [] });
  const corporations = await repo.getMany(numbers);
  const histories = await repo.historyOf(CHANGED);
  const knownUntil = (await repo.listImports('complete')).reduce(
    (a, d) => ((d.as_of ?? '') > a ? d.as_of! : a),
    '',
  );
  const changed = CHANGED.map((n) => {
    const c = corporations.get(n)!;
    const held = heldHistory(c, histories.get(n), knownUntil);
    return {
      states: statesView(c, held, TAG),
      on: DATES.map((date) => {
        try {
          const at = corporationAsOf(c, held, date, TAG);
          return { corporation: corporationView(at.corporation, TAG), state_as_of: at.state_as_of };
        } catch (err) {
          return { error: (err as { code?: string }).code ?? (err as Error).message };
        }
      }),
    };
  });
  const searches = [];
  for (const query of QUERIES) {
    const found = await source.searchByName(query, {}, 10);
    searches.push({
      query,
      more: found.more,
      candidates: found.candidates.map((x) => candidateView(x.match, x.corporation, TAG)),
    });
  }
  return {
    corporations: numbers.map((n) => corporationView(corporations.get(n)!, TAG)),
    changed,
    searches,
  };
}

describe('the register in every order of its files (issue 36)', () => {
  let real: Map<string, NtaRecord>;
  before(async () => {
    real = await realRecords(CHANGED);
    expect([...real.keys()].sort()).to.deep.equal([...CHANGED].sort());
  });

  describe('SQLite', function () {
    this.timeout(600_000);
    everyOrder(async () => sqliteLeg('jpgw-orders'));
  });

  describe('MongoDB', function () {
    this.timeout(1_200_000);
    const uri = process.env.MONGODB_URI;
    if (!uri) {
      it('runs on MongoDB (skipped: MONGODB_URI is not set, so the MongoDB leg was skipped)');
      return;
    }
    everyOrder(() => mongoLeg(uri, 'jpgw-orders'));
  });

  function everyOrder(open: () => Promise<StoreLeg>): void {
    const answers = new Map<string, string>();
    let numbers: string[];
    let files: string[];
    let filesDir: StoreLeg;

    before(async function () {
      filesDir = await open();
      const full = tottoriSample(filesDir.dataDir, 400, CHANGED);
      numbers = [];
      for await (const { record } of readNtaFile(full)) numbers.push(record.corporateNumber);
      const diffs = writeDiffs(filesDir.dataDir, real, full);
      const correction = writeCorrection(filesDir.dataDir, real.get(SUNRISE)!);
      files = [full, diffs.renamed, diffs.moved, correction.renamed, correction.corrected];
      for (const order of permutations(files)) {
        const leg = await open();
        try {
          const repo = await leg.store.open(corporateRegistryRepositories);
          for (const file of order) await importRegistryFile(repo, file, { batchSize: 100 });
          const label = order.map((f) => f.split('/').pop()).join(' ');
          answers.set(label, JSON.stringify(await answersOf(repo, numbers), null, 1));
        } finally {
          await leg.store.close();
          await leg.drop?.();
          rmSync(leg.dataDir, { recursive: true, force: true });
        }
      }
    });
    after(async () => {
      await filesDir?.store.close();
      await filesDir?.drop?.();
      if (filesDir) rmSync(filesDir.dataDir, { recursive: true, force: true });
    });

    it('gives byte-identical answers in all 120 orders of the five files', () => {
      expect(answers.size).to.equal(120);
      const [[firstOrder, first], ...rest] = [...answers];
      for (const [order, text] of rest) expect(text, `${order} against ${firstOrder}`).to.equal(first);
    });

    it('never shows the name a correction withdrew: no former name, found by prefix of the corrected one', () => {
      for (const [order, text] of answers) {
        const a = JSON.parse(text) as {
          corporations: Array<{
            corporate_number: string;
            legal_name: string;
            former_names: Array<{ legal_name: string }>;
          }>;
          searches: Array<{
            query: string;
            candidates: Array<{ corporate_number_hint: string; match_mode: string; matched_on: string }>;
          }>;
        };
        const sunrise = a.corporations.find((c) => c.corporate_number === SUNRISE)!;
        expect(sunrise.legal_name, order).to.equal(CORRECTED_NAME);
        expect(
          sunrise.former_names.map((f) => f.legal_name),
          order,
        ).to.deep.equal([real.get(SUNRISE)!.name]);
        const bank = a.corporations.find((c) => c.corporate_number === BANK)!;
        expect(
          bank.former_names.map((f) => f.legal_name),
          order,
        ).to.deep.equal([real.get(BANK)!.name]);
        const withdrawn = a.searches.find((s) => s.query === WITHDRAWN_NAME)!;
        const hit = withdrawn.candidates.find((c) => c.corporate_number_hint === SUNRISE);
        expect(hit, order).to.include({ match_mode: 'prefix' });
        expect(hit?.matched_on, order).to.not.equal('former_names');
      }
    });
  }
});
