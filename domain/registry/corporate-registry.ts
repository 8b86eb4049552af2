/**
 * Which registry source answers:
 * 1. the live NTA Web-API when NTA_HOUJIN_APP_ID is set (failures answer 503 source_unavailable;
 *    no silent fall-back to older data);
 * 2. otherwise the store-backed registry once an import has completed (`npm run import:registry`);
 * 3. otherwise the curated snapshot in data/registry.
 * The import check is cached for 30 s, so an import finished on MongoDB while gateways run is
 * picked up without a restart (the embedded store is locked by the gateway: import before start).
 */
import { inject, Lifecycle, scoped } from 'tsyringe';
import type { UpstreamConfig } from '../../config/env';
import { SourceUnavailableError } from '../../core/plugins/errors';
import { DOCUMENT_STORE, type DocumentStore } from '../../core/store/port';
import { UPSTREAM_CONFIG } from '../shared/tokens';
import { prefectureOf, requireSearchableName } from './answers';
import { BrandAliasMap } from './brand-aliases';
import { LiveRegistry } from './live-registry';
import { NtaHoujinClient } from './nta-houjin-client';
import type { RegistrySource } from './registry-source';
import { SnapshotRegistry } from './snapshot-registry';
import { StoreRegistry } from './store-registry';

const IMPORT_CHECK_MS = 30_000;

@scoped(Lifecycle.ContainerScoped)
export class CorporateRegistry {
  private readonly live?: LiveRegistry;
  private storeRegistry?: Promise<StoreRegistry>;
  private importCheck?: { at: number; has: Promise<boolean> };

  constructor(
    @inject(UPSTREAM_CONFIG) upstream: UpstreamConfig,
    @inject(DOCUMENT_STORE) private readonly store: DocumentStore,
    readonly snapshot: SnapshotRegistry,
    private readonly aliases: BrandAliasMap,
  ) {
    if (upstream.ntaHoujin.appId) {
      this.live = new LiveRegistry(
        new NtaHoujinClient({ appId: upstream.ntaHoujin.appId, baseUrl: upstream.ntaHoujin.baseUrl }),
        aliases,
      );
    }
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
      throw new SourceUnavailableError(
        'The corporate registry store cannot be read right now.',
        'Try again shortly; the operator can check the store (MongoDB) connection.',
        { cause: (err as Error).message.slice(0, 200) },
      );
    }
  }

  /**
   * A name search as the endpoints ask it: a name that is only a legal form is refused (422 on
   * `parameter`), `pref` (code or name, already accepted by the DTO) filters by prefecture.
   */
  async searchByName(name: string, pref: string | undefined, limit: number, parameter = 'name') {
    requireSearchableName(name, parameter);
    const prefecture = prefectureOf(pref);
    const source = await this.source();
    const found = await source.searchByName(name, { prefectureCode: prefecture?.code }, limit);
    return { source, prefecture, ...found };
  }

  private openStore(): Promise<StoreRegistry> {
    this.storeRegistry ??= StoreRegistry.open(this.store, this.aliases);
    return this.storeRegistry;
  }
}
