import { injectable } from 'tsyringe';
import type {
  DataCoverage,
  EndpointHandler,
  EndpointPayload,
  HandlerContext,
} from '../../core/plugins/contract';
import { NotFoundError } from '../../core/plugins/errors';
import { grantsAttribution } from '../../domain/grants/attribution';
import { GrantsCatalogue } from '../../domain/grants/catalogue';
import type { GrantRecord } from '../../domain/grants/grant-record';
import { tokyoDateOf } from '../../domain/grants/tokyo-dates';
import type { GrantsDetailQuery } from './query';

export type GrantDetailPayload = GrantRecord & EndpointPayload & { today: string };

@injectable()
export class GrantsDetailHandler implements EndpointHandler<GrantsDetailQuery, GrantDetailPayload> {
  constructor(private readonly catalogue: GrantsCatalogue) {}

  coverage(now: Date): DataCoverage {
    return this.catalogue.coverage(now, 'detail');
  }

  async handle(q: GrantsDetailQuery, ctx: HandlerContext): Promise<GrantDetailPayload> {
    const { record, provenance } = await this.catalogue.detail(q.id, ctx.now);
    if (!record) {
      throw new NotFoundError(
        'grant_not_found',
        `No grant with id ${q.id} in ${provenance.kind === 'live' ? 'jGrants' : `the jGrants snapshot of ${provenance.as_of}`}.`,
        'Grant ids are the grant_id of the grants a search or listing answers; ids are case-sensitive.',
        {
          id: q.id,
          source: provenance.kind,
          ...(provenance.searched ? { searched: provenance.searched } : {}),
        },
      );
    }
    return {
      today: tokyoDateOf(ctx.now),
      ...record,
      _attribution: grantsAttribution(provenance),
      _provenance: provenance,
    };
  }
}
