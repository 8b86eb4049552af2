/**
 * Chooses the grants source for this gateway: the live jGrants API when JGRANTS_BASE_URL is set
 * (UPSTREAM_CONFIG.jgrants.baseUrl), else the dated snapshot only. When the live upstream cannot
 * answer and its cache has nothing: a detail request is answered from the snapshot if the
 * snapshot holds that grant (and says so); otherwise the answer is 503 source_unavailable. A
 * listing is never silently replaced by the 21-grant snapshot.
 */
import { inject, Lifecycle, scoped } from 'tsyringe';
import type { UpstreamConfig } from '../shared/tokens';
import { SourceUnavailableError } from '../../core/plugins/errors';
import { UPSTREAM_CONFIG } from '../shared/tokens';
import {
  UpstreamUnavailableError,
  type GrantsSource,
  type ListedItems,
  type ListRequest,
  type SourceAnswer,
} from './grants-source';
import { JgrantsClient, type JgrantsClientOptions } from './jgrants-client';
import type { JgrantsSubsidy } from './jgrants-wire';
import { LiveGrantsSource } from './live-source';
import { SnapshotGrantsSource } from './snapshot-source';

const HINT = 'jGrants is temporarily unreachable; retry in a few minutes. Nothing was charged for this call.';

@scoped(Lifecycle.ContainerScoped)
export class GrantsData {
  private liveSource: LiveGrantsSource | undefined;

  constructor(
    @inject(UPSTREAM_CONFIG) config: UpstreamConfig,
    readonly snapshot: SnapshotGrantsSource,
  ) {
    this.liveSource = config.jgrants.baseUrl ? GrantsData.liveSource(config.jgrants.baseUrl) : undefined;
  }

  get live(): LiveGrantsSource | undefined {
    return this.liveSource;
  }

  /** Replaces the live source (tests and tools use one with their own client settings). */
  useLiveSource(live: LiveGrantsSource | undefined): this {
    this.liveSource = live;
    return this;
  }

  /** The live adapter with the default client settings (tests pass their own options). */
  static liveSource(baseUrl: string, options: Partial<JgrantsClientOptions> = {}): LiveGrantsSource {
    return new LiveGrantsSource(new JgrantsClient(baseUrl, options));
  }

  get mode(): 'live' | 'snapshot' {
    return this.live ? 'live' : 'snapshot';
  }

  private get primary(): GrantsSource {
    return this.live ?? this.snapshot;
  }

  async list(request: ListRequest, now: Date): Promise<SourceAnswer<ListedItems>> {
    try {
      return await this.primary.list(request, now);
    } catch (err) {
      throw unavailable(err, 'jGrants could not list grants');
    }
  }

  async detail(id: string, now: Date): Promise<SourceAnswer<JgrantsSubsidy | null>> {
    try {
      return await this.primary.detail(id, now);
    } catch (err) {
      if (err instanceof UpstreamUnavailableError && this.snapshot.has(id)) {
        const answer = await this.snapshot.detail(id);
        return {
          value: answer.value,
          provenance: this.snapshot.answerProvenance([
            `The live jGrants API could not be reached (${err.message}); this grant is served from the dated snapshot of ${this.snapshot.asOf}.`,
          ]),
        };
      }
      throw unavailable(err, `jGrants could not return grant ${id}`);
    }
  }
}

function unavailable(err: unknown, what: string): unknown {
  if (!(err instanceof UpstreamUnavailableError)) return err;
  return new SourceUnavailableError(`${what}: ${err.message}.`, HINT, {
    upstream: 'jgrants',
    reason: err.reason,
  });
}
