/**
 * The dated snapshot adapter: real jGrants records (data/grants/jgrants-snapshot.json, in the v1
 * detail shape) answered as the API would, with the snapshot's as-of date and size in every
 * answer, and, per grant answered, the second public pages it was checked against
 * (data/grants/confirmations.json).
 */
import { Lifecycle, scoped } from 'tsyringe';
import type { DataProvenance, SearchedData, SourceRef } from '../../core/plugins/contract';
import { loadDataFile, snapshotProvenance, type TableProvenance } from '../shared/data-file';
import type { GrantsSource, ListedItems, ListRequest, SourceAnswer } from './grants-source';
import type { JgrantsResponse, JgrantsSubsidy } from './jgrants-wire';
import { htmlToText } from './plain-text';
import { foldText, splitUpstreamList } from './taxonomy';
import { snapshotGrantsSearched } from './searched';
import { parseUpstreamInstant } from './tokyo-dates';

export const GRANTS_SNAPSHOT_TABLE = 'grants/jgrants-snapshot.json';
export const GRANTS_CONFIRMATIONS_TABLE = 'grants/confirmations.json';

/** How far a second public source confirms a snapshot grant. */
export type ConfirmationLevel = 'confirmed' | 'program' | 'jgrants_only';

interface Confirmation {
  grant_id: string;
  level: ConfirmationLevel;
  cross_checked_against: Array<SourceRef & { confirms?: string }>;
  note?: string;
}

const LEVEL_WORDS: Record<ConfirmationLevel, string> = {
  confirmed: 'programme and cap or rate confirmed by a second public page',
  program: "programme confirmed by a second public page, not this call's amount",
  jgrants_only: 'no second public page found: rests on jGrants alone',
};

type SnapshotFile = Required<Pick<JgrantsResponse, 'metadata'>> & { result: JgrantsSubsidy[] };

function acceptingAt(item: JgrantsSubsidy, now: Date): boolean {
  const start = parseUpstreamInstant(item.acceptance_start_datetime);
  const end = parseUpstreamInstant(item.acceptance_end_datetime);
  if (!end || now.getTime() > end.getTime()) return false;
  return !start || start.getTime() <= now.getTime();
}

function hasLabel(list: string | null | undefined, label: string): boolean {
  const want = foldText(label);
  return splitUpstreamList(list).some((l) => foldText(l) === want);
}

@scoped(Lifecycle.ContainerScoped)
export class SnapshotGrantsSource implements GrantsSource {
  readonly kind = 'snapshot' as const;
  readonly provenance: TableProvenance;
  readonly items: readonly JgrantsSubsidy[];
  private readonly byId: ReadonlyMap<string, JgrantsSubsidy>;
  private readonly searchText: ReadonlyMap<string, string>;
  private readonly confirmations: ReadonlyMap<string, Confirmation>;

  constructor() {
    const file = loadDataFile<SnapshotFile>(GRANTS_SNAPSHOT_TABLE);
    this.provenance = file.provenance;
    this.items = file.result;
    this.byId = new Map(file.result.map((i) => [i.id, i]));
    const checks = loadDataFile<{ rows: Confirmation[] }>(GRANTS_CONFIRMATIONS_TABLE);
    this.confirmations = new Map(checks.rows.map((r) => [r.grant_id, r]));
    for (const item of file.result) {
      if (!this.confirmations.has(item.id))
        throw new Error(`data/${GRANTS_CONFIRMATIONS_TABLE}: no second-source check for ${item.id}`);
    }
    // Keyword matching ignores case and full/half width, as the upstream search does.
    this.searchText = new Map(
      file.result.map((i) => [
        i.id,
        foldText(
          [i.title, i.subsidy_catch_phrase, htmlToText(i.detail), i.institution_name]
            .filter(Boolean)
            .join('\n'),
        ),
      ]),
    );
  }

  get asOf(): string {
    return this.provenance.as_of;
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  async list(request: ListRequest, now: Date): Promise<SourceAnswer<ListedItems>> {
    const keyword = request.keyword ? foldText(request.keyword) : undefined;
    const items = this.items.filter(
      (i) =>
        (!keyword || (this.searchText.get(i.id) ?? '').includes(keyword)) &&
        (!request.acceptingOnly || acceptingAt(i, now)) &&
        (!request.industryLabel || hasLabel(i.industry, request.industryLabel)) &&
        (!request.purposeLabel || hasLabel(i.use_purpose, request.purposeLabel)),
    );
    return { value: { items, detailed: true }, provenance: this.answerProvenance() };
  }

  async detail(id: string): Promise<SourceAnswer<JgrantsSubsidy | null>> {
    return { value: this.byId.get(id) ?? null, provenance: this.answerProvenance() };
  }

  /** What an answer from the snapshot searched: its date and size. */
  searched(): SearchedData {
    return snapshotGrantsSearched(this.items.length, this.asOf);
  }

  answerProvenance(extraNotes: string[] = []): DataProvenance {
    const searched = this.searched();
    return { ...snapshotProvenance(this.provenance, extraNotes), searched };
  }

  /**
   * Adds, for the grants an answer holds, the second public pages each was checked against and
   * how far they confirm it (never the source of the figures: that is jGrants).
   */
  withCrossChecks(provenance: DataProvenance, grantIds: readonly string[]): DataProvenance {
    const checks = new Map<string, SourceRef>();
    for (const s of provenance.cross_checked_against ?? []) checks.set(s.url ?? s.name, s);
    const notes: string[] = [];
    for (const id of grantIds) {
      const c = this.confirmations.get(id);
      if (!c) continue;
      for (const s of c.cross_checked_against)
        checks.set(s.url ?? s.name, { name: s.name, ...(s.url ? { url: s.url } : {}) });
      notes.push(`${id}: ${LEVEL_WORDS[c.level]}${c.note ? `. ${c.note}` : '.'}`);
    }
    return {
      ...provenance,
      ...(checks.size > 0 ? { cross_checked_against: [...checks.values()] } : {}),
      notes: [...(provenance.notes ?? []), ...notes],
    };
  }
}
