import { injectable } from 'tsyringe';
import { corporationAsOf, type StateAsOfView } from '../../domain/registry/answers/history';
import type {
  DataCoverage,
  EndpointHandler,
  EndpointPayload,
  HandlerContext,
} from '../../core/plugins/contract';
import { NotFoundError } from '../../core/plugins/errors';
import { answering } from '../../domain/registry/answers/answers';
import { CorporateRegistry } from '../../domain/registry/sources/corporate-registry';
import type { EdinetView } from '../../domain/registry/answers/edinet-answers';
import { corporationView, type CorporationView } from '../../domain/registry/answers/views';
import type { HoujinNumberQuery } from './query';

export interface HoujinNumberPayload extends EndpointPayload {
  corporate_number: string;
  corporation: CorporationView;
  /** The corporation in the FSA's EDINET code list; null when it is not a filer there. */
  edinet: EdinetView | null;
  /** With as_of: the date, since when the state answered held, how much history is held. */
  state_as_of?: StateAsOfView;
  diagnostics?: {
    check_digit_valid: true;
    history_records: number;
  };
}

@injectable()
export class HoujinNumberHandler implements EndpointHandler<HoujinNumberQuery, HoujinNumberPayload> {
  constructor(private readonly registry: CorporateRegistry) {}

  handle(query: HoujinNumberQuery, ctx: HandlerContext): Promise<HoujinNumberPayload> {
    return answering(ctx.log, () => this.answer(query, ctx));
  }

  coverage(now: Date): DataCoverage {
    return this.registry.coverage(now);
  }

  private async answer(query: HoujinNumberQuery, ctx: HandlerContext): Promise<HoujinNumberPayload> {
    const source = await this.registry.source();
    const corporation = await source.getByNumber(query.number);
    if (!corporation || corporation.status === 'deleted') {
      // A miss says what was searched: in a sample it does not mean no such corporation.
      const { searched } = await this.registry.provenance(source, ctx.now);
      throw new NotFoundError(
        'corporate_number_not_found',
        corporation
          ? `Corporate number ${query.number} was deleted from the register.`
          : `No corporation with number ${query.number} in the ${source.kind === 'live' ? 'NTA register' : source.kind === 'store' ? 'imported register' : 'registry snapshot'}.`,
        source.kind === 'snapshot'
          ? 'The check digit is valid, and the snapshot is a sample (see searched), so the number may well exist: check it on the NTA Corporate Number Publication Site, https://www.houjin-bangou.nta.go.jp/.'
          : 'The check digit is valid but no corporation holds this number; check the digits against the source document.',
        { corporate_number: query.number, _source: source.sourceTag, searched },
      );
    }
    const asOf = query.as_of
      ? corporationAsOf(
          corporation,
          (await this.registry.history(source, corporation)).held,
          query.as_of,
          source.sourceTag,
        )
      : null;
    const edinet = await this.registry.edinet([query.number]);
    const payload: HoujinNumberPayload = {
      corporate_number: query.number,
      corporation: corporationView(asOf?.corporation ?? corporation, source.sourceTag),
      ...(asOf ? { state_as_of: asOf.state_as_of } : {}),
      edinet: edinet.of(query.number),
      _attribution: source.attribution,
      _provenance: edinet.addTo(await this.registry.provenance(source, ctx.now, [query.number]), [
        query.number,
      ]),
    };
    if (query.verbose) {
      payload.diagnostics = {
        check_digit_valid: true,
        history_records: corporation.former_names.length,
      };
    }
    return payload;
  }
}
