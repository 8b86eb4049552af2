/**
 * The dated snapshot adapter: real jGrants records (data/grants/jgrants-snapshot.json, in the v1
 * detail shape) answered as the API would, with the snapshot's as-of date in every answer.
 */
import { Lifecycle, scoped } from 'tsyringe';
import { loadDataFile, snapshotProvenance, type TableProvenance } from '../shared/data-file';
import type { GrantsSource, ListedItems, ListRequest, SourceAnswer } from './grants-source';
import type { JgrantsResponse, JgrantsSubsidy } from './jgrants-wire';
import { htmlToText } from './plain-text';
import { foldText, splitUpstreamList } from './taxonomy';
import { parseUpstreamInstant } from './tokyo-dates';

export const GRANTS_SNAPSHOT_TABLE = 'grants/jgrants-snapshot.json';

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

  constructor() {
    const file = loadDataFile<SnapshotFile>(GRANTS_SNAPSHOT_TABLE);
    this.provenance = file.provenance;
    this.items = file.result;
    this.byId = new Map(file.result.map((i) => [i.id, i]));
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

  answerProvenance(extraNotes: string[] = []) {
    return snapshotProvenance(this.provenance, extraNotes);
  }
}
