import { injectable } from 'tsyringe';
import type {
  DataCoverage,
  EndpointHandler,
  EndpointPayload,
  HandlerContext,
} from '../../core/plugins/contract';
import { NotFoundError } from '../../core/plugins/errors';
import { answering } from '../../domain/registry/answers/answers';
import { historyNote, historyStart, statesView, type StateView } from '../../domain/registry/answers/history';
import { corporationView, type CorporationView } from '../../domain/registry/answers/views';
import { CorporateRegistry } from '../../domain/registry/sources/corporate-registry';
import type { CompanyHistoryQuery } from './query';

/** A file whose import recorded states here. */
interface ImportedFileView {
  name: string;
  differential: boolean;
  /** The newest update date among its records. */
  as_of: string | null;
  imported_at: string | null;
}

export interface CompanyHistoryPayload extends EndpointPayload {
  corporate_number: string;
  /** The corporation as the register holds it now. */
  corporation: CorporationView;
  /** Every state held, oldest first, each with what changed from the one before. */
  states: StateView[];
  history_starts: string;
  history_recorded: boolean;
  note: string;
  files: ImportedFileView[];
}

@injectable()
export class CompanyHistoryHandler implements EndpointHandler<CompanyHistoryQuery, CompanyHistoryPayload> {
  constructor(private readonly registry: CorporateRegistry) {}

  handle(query: CompanyHistoryQuery, ctx: HandlerContext): Promise<CompanyHistoryPayload> {
    return answering(ctx.log, () => this.answer(query, ctx));
  }

  coverage(now: Date): DataCoverage {
    return this.registry.coverage(now);
  }

  private async answer(query: CompanyHistoryQuery, ctx: HandlerContext): Promise<CompanyHistoryPayload> {
    const source = await this.registry.source();
    const corporation = await source.getByNumber(query.number);
    if (!corporation) {
      const { searched } = await this.registry.provenance(source, ctx.now);
      throw new NotFoundError(
        'corporate_number_not_found',
        `No corporation with number ${query.number} in the ${source.kind === 'snapshot' ? 'registry snapshot' : source.kind === 'store' ? 'imported register' : 'NTA register'}.`,
        'The check digit is valid; check the digits against the source document, or find the company with a search by its name.',
        { corporate_number: query.number, _source: source.sourceTag, searched },
      );
    }
    // A deleted corporation's history is still its history: it is answered, its last state says so.
    const { held, files } = await this.registry.history(source, corporation);
    return {
      corporate_number: query.number,
      corporation: corporationView(corporation, source.sourceTag),
      states: statesView(corporation, held, source.sourceTag),
      history_starts: historyStart(held),
      history_recorded: held.recorded,
      note: historyNote(held),
      files: files.map((f) => ({
        name: f.file,
        differential: f.kind === 'diff',
        as_of: f.as_of ?? null,
        imported_at: f.finished_at ?? null,
      })),
      _attribution: source.attribution,
      _provenance: await this.registry.provenance(source, ctx.now, [query.number]),
    };
  }
}
