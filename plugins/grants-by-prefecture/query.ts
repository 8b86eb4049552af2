import { LimitParam, OpenOnlyParam, PrefParam } from '../../domain/grants/query-fields';

export class GrantsByPrefectureQuery {
  @PrefParam({
    required: true,
    description: 'The prefecture: its own grants plus nationwide ones are listed',
  })
  pref!: string;

  @OpenOnlyParam()
  open_only: boolean = true;

  @LimitParam()
  limit: number = 10;
}
