/**
 * Which registry source answers:
 * 1. the live NTA Web-API when NTA_HOUJIN_APP_ID is set (failures answer 503 source_unavailable;
 *    no silent fall-back to older data);
 * 2. otherwise the store-backed registry once an import has completed (`npm run import:registry`);
 * 3. otherwise the curated snapshot in data/registry.
 * The import check is cached for 3 s (one indexed read of the import records), so an import
 * finished while gateways run is picked up within seconds, without a restart.
 * What the source answering now searches (kind, date, size) is remembered from the last answer and
 * refreshed in the background, so the endpoints can state their coverage without any I/O.
 */
import { inject, Lifecycle, scoped } from 'tsyringe';
import type { UpstreamConfig } from '../../shared/tokens';
import type { DataCoverage, DataProvenance, SearchedData } from '../../../core/plugins/contract';
import { PLUGIN_STORE, type PluginStore } from '../../../core/plugins/storage';
import { UPSTREAM_CONFIG } from '../../shared/tokens';
import { prefectureOf, registryProvenance, requireSearchableName } from '../answers/answers';
import { BrandAliasMap } from '../search/brand-aliases';
import { EdinetLookup } from '../answers/edinet-answers';
import { LiveRegistry } from './live-registry';
import { NtaHoujinClient } from './nta-houjin-client';
import { corporateRegistryRepositories } from '../stores/registry-stores';
import type { NameSearchResult, RegistrySource } from './registry-source';
import { coverageOf } from '../../shared/coverage';
import { liveNumberSearched } from '../answers/searched';
import { SnapshotRegistry } from './snapshot-registry';
import { newestAsOf, StoreRegistry } from './store-registry';
import { RegistryUnavailableError } from './upstream-http';
import type { Corporation } from '../corporation';
import { heldHistory, type HeldHistory } from '../answers/history';
import type { ImportRecord } from '../stores/registry-repository';

/**
 * How long whether an import completed, and what the answering source searched, are remembered:
 * the check reads the few import records by an index, so a gateway learns of an import made by the
 * CLI within seconds (once the store answers, every look-up reads it directly).
 */
const IMPORT_CHECK_MS = 3_000;

@scoped(Lifecycle.ContainerScoped)
export class CorporateRegistry {
  private readonly live?: LiveRegistry;
  private storeRegistry?: Promise<StoreRegistry>;
  private importCheck?: { at: number; has: Promise<boolean> };
  /** What the source answering last searched, and when that was learnt. */
  private last?: { at: number; searched: SearchedData };
  private refreshing?: Promise<void>;

  constructor(
    @inject(UPSTREAM_CONFIG) upstream: UpstreamConfig,
    @inject(PLUGIN_STORE) private readonly store: PluginStore,
    readonly snapshot: SnapshotRegistry,
    private readonly aliases: BrandAliasMap,
  ) {
    if (upstream.ntaHoujin.appId) {
      this.live = new LiveRegistry(
        new NtaHoujinClient({ appId: upstream.ntaHoujin.appId, baseUrl: upstream.ntaHoujin.baseUrl }),
        aliases,
      );
    }
    // Learn at start-up whether an import replaces the snapshot, for coverage.
    this.refresh();
  }

  /** The source answering now. */
  async source(): Promise<RegistrySource> {
    if (this.live) return this.live;
    try {
      const store = await this.openStore();
      if (!this.importCheck || Date.now() - this.importCheck.at > IMPORT_CHECK_MS) {
        this.importCheck = { at: Date.now(), has: store.hasImport() };
      }
      return (await this.importCheck.has) ? store : this.snapshot;
    } catch (err) {
      this.storeRegistry = undefined;
      this.importCheck = undefined;
      // Without the store it is unknown whether imported (newer) data exists: say so, do not guess.
      throw new RegistryUnavailableError(
        'The corporate registry store cannot be read right now.',
        { upstream: 'registry store', cause: (err as Error).message.slice(0, 200) },
        'Check the registry store (MONGODB_URI, or registry.sqlite in DATA_DIR/store) is reachable (docs/operations.md, "Registry and invoice upstreams").',
      );
    }
  }

  /**
   * The provenance of an answer, with what it searched (remembered for coverage). `found` is the
   * name search's result, whose paging the live source reports.
   */
  async provenance(
    source: RegistrySource,
    now: Date,
    corporateNumbers: readonly string[] = [],
    found?: NameSearchResult,
  ): Promise<DataProvenance> {
    const provenance = await registryProvenance(source, now, corporateNumbers, found);
    if (provenance.searched && !found?.pages) this.last = { at: Date.now(), searched: provenance.searched };
    return provenance;
  }

  /**
   * What the registry's answers search now, without I/O: live, the imported store or the sample.
   * Until the start-up check has finished, the sample is described and the summary says so.
   */
  coverage(now: Date): DataCoverage {
    if (this.live) {
      return coverageOf(
        liveNumberSearched(now),
        'Live NTA Corporate Number System Web-API: a number lookup reads the whole register; a name search reads the first page of the NTA answer only (each answer says whether that was all of it).',
      );
    }
    if (!this.last || Date.now() - this.last.at > IMPORT_CHECK_MS) this.refresh();
    if (this.last) return coverageOf(this.last.searched);
    const sample = this.snapshot.searchedNow();
    return coverageOf(
      sample,
      `${sample.note} (The store is being checked for an import of the NTA bulk download, which would replace this sample.)`,
    );
  }

  /** Re-learns what the answering source searches; failures leave the last known state. */
  private refresh(): void {
    if (this.live || this.refreshing) return;
    this.refreshing = this.source()
      .then((source) => source.searched(new Date()))
      .then((searched) => {
        this.last = { at: Date.now(), searched };
      })
      .catch(() => undefined)
      .finally(() => {
        this.refreshing = undefined;
      });
  }

  /**
   * A name search as the endpoints ask it: a name that is only a legal form is refused (422 on
   * `parameter`), `pref` (code or name, already accepted by the DTO) filters by prefecture, `skip`
   * leaves out the corporations earlier pages answered.
   */
  async searchByName(
    name: string,
    pref: string | undefined,
    limit: number,
    options: { parameter?: string; skip?: ReadonlySet<string> } = {},
  ) {
    requireSearchableName(name, options.parameter ?? 'name');
    const prefecture = prefectureOf(pref);
    const source = await this.source();
    const found = await source.searchByName(name, { prefectureCode: prefecture?.code }, limit, options.skip);
    return { source, prefecture, found, ...found };
  }

  /**
   * The EDINET filers among these corporations. The code list is kept in the registry store
   * whichever source answers corporations (snapshot, imported store or live NTA), so every answer
   * is enriched alike; a store that cannot be read answers 503, as it does for corporations.
   */
  async edinet(corporateNumbers: readonly string[]): Promise<EdinetLookup> {
    try {
      const repo = await this.store.open(corporateRegistryRepositories);
      const [list, filers] = await Promise.all([repo.edinetList(), repo.edinetFilersOf(corporateNumbers)]);
      return new EdinetLookup(list, filers);
    } catch (err) {
      throw new RegistryUnavailableError(
        'The EDINET code list in the registry store cannot be read right now.',
        { upstream: 'registry store', cause: (err as Error).message.slice(0, 200) },
        'Check the registry store (MONGODB_URI, or registry.sqlite in DATA_DIR/store) is reachable (docs/operations.md, "Registry and invoice upstreams").',
      );
    }
  }

  /**
   * The history held of a corporation the source answered, and the files it was imported from: the
   * imported store's states; any other source (the snapshot, the live Web-API) holds its current
   * record alone.
   */
  async history(
    source: RegistrySource,
    corporation: Corporation,
  ): Promise<{ held: HeldHistory; files: ImportRecord[] }> {
    if (source.kind === 'live') return { held: heldHistory(corporation, undefined, null), files: [] };
    if (source.kind !== 'store') {
      const knownUntil = (await source.provenance(new Date())).as_of.slice(0, 10);
      return { held: heldHistory(corporation, undefined, knownUntil), files: [] };
    }
    try {
      const repo = await this.store.open(corporateRegistryRepositories);
      const [states, files] = await Promise.all([
        repo.historyOf([corporation.corporate_number]),
        repo.listImports('complete'),
      ]);
      const recorded = states.get(corporation.corporate_number);
      return { held: heldHistory(corporation, recorded, newestAsOf(files)), files };
    } catch (err) {
      throw new RegistryUnavailableError(
        'The history in the registry store cannot be read right now.',
        { upstream: 'registry store', cause: (err as Error).message.slice(0, 200) },
        'Check the registry store (MONGODB_URI, or registry.sqlite in DATA_DIR/store) is reachable (docs/operations.md, "Registry and invoice upstreams").',
      );
    }
  }

  private openStore(): Promise<StoreRegistry> {
    this.storeRegistry ??= this.store
      .open(corporateRegistryRepositories)
      .then((registry) => new StoreRegistry(registry, this.aliases));
    return this.storeRegistry;
  }
}
