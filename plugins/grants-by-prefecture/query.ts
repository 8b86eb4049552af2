import { CursorParam } from '../../core/plugins/page-cursor';
import { PrefectureParam } from '../../domain/shared/prefecture-param';
import { LimitParam, OpenOnlyParam } from '../../domain/grants/query-fields';

export class GrantsByPrefectureQuery {
  @PrefectureParam({
    required: true,
    description: 'The prefecture: its own grants plus nationwide ones are listed',
  })
  pref!: string;

  @OpenOnlyParam()
  open_only: boolean = true;

  @LimitParam()
  limit: number = 10;

  @CursorParam()
  cursor?: string;
}
