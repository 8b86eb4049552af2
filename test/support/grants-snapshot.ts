/** The real jGrants records of data/grants, for tests (plugin tests among them). */
import { loadDataFile } from '../../domain/shared/data-file';
import { GRANTS_SNAPSHOT_TABLE } from '../../domain/grants/snapshot-source';
import type { JgrantsSubsidy } from '../../domain/grants/jgrants-wire';

export const SNAPSHOT_ITEMS: readonly JgrantsSubsidy[] = loadDataFile<{ result: JgrantsSubsidy[] }>(
  GRANTS_SNAPSHOT_TABLE,
).result;

export function snapshotItem(id: string): JgrantsSubsidy {
  const item = SNAPSHOT_ITEMS.find((i) => i.id === id);
  if (!item) throw new Error(`no snapshot item ${id}`);
  return item;
}

/** Ids of real records used across the tests, named for what they show. */
export const IDS = {
  broadcastAmbiguous: 'a0WfQ000003cYWnUAM',
  naritaNoCapAreaDetail: 'a0WfQ000003aZqLUAU',
  maSmallSellerOk: 'a0WfQ000003N1RZUA0',
  maBuyerOk: 'a0WfQ000003N1RWUA0',
  gasUnknown: 'a0WfQ000003ENsfUAG',
  growthOk: 'a0WJ200000CDdjfMAD',
  sdsOk: 'a0WJ200000CDderMAD',
  globalSouthUnknown: 'a0WfQ000003GpG9UAK',
  craftsFourPrefectures: 'a0WJ200000CDeQmMAL',
  tottoriPatentAmbiguous: 'a0WfQ000003a9flUAA',
  tokushimaPatentAmbiguous: 'a0WJ200000CDdicMAD',
  tokyoForkliftUnknown: 'a0WfQ000003CWvFUAW',
  tokyoClinical50000: 'a0WJ200000CDeUgMAL',
  tokyoTourismOk: 'a0WJ200000CDdfpMAD',
  okinawaWage: 'a0WJ200000CDe6cMAD',
  kumamotoWage: 'a0WJ200000CDe6YMAT',
  hiroshimaWage: 'a0WJ200000CDe6PMAT',
  akaiwaTwoCaps: 'a0WJ200000CDdtHMAT',
  matsuyamaPerTeu: 'a0WJ200000CDdm6MAD',
  kumamotoSmallBusiness20: 'a0WJ200000CDeYyMAL',
  munakataUnknown: 'a0WJ200000CDddbMAD',
} as const;
