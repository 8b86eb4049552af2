/**
 * The corporate register as a watch source (core/watches/): subjects are corporate numbers
 * (13 digits, check digit per the NTA rule), changes come from the registry's change feed
 * (changesSince, written in the same transaction as the register change), and each delivered
 * event is `corporation.changed` with the change's number, date, process code, the fields
 * changed and the states before and after.
 */
import type { PluginStore } from '../../core/plugins/storage';
import type { WatchChange, WatchSource, WatchSourceFactory } from '../../core/plugins/watch-source';
import { isValidCorporateNumber } from './corporate-number';
import type { CorporateRegistryRepository } from './stores/registry-repository';
import { corporateRegistryRepositories } from './stores/registry-stores';

/** The feed as the registry repository provides it (changesSince). */
export type CorporationChangeFeed = Pick<CorporateRegistryRepository, 'changesSince'>;

/** Price of one delivered corporation.changed event (micro-USDC; docs/decisions.md). */
export const CORPORATION_EVENT_PRICE_MICRO_USDC = 5_000;

export function corporateRegisterWatchSource(feed: CorporationChangeFeed): WatchSource {
  return {
    name: 'corporate-register',
    subjectsField: 'corporate_numbers',
    subjectText: 'corporate numbers (法人番号: 13 digits, the first a check digit)',
    exampleSubject: '4000020310000',
    eventType: 'corporation.changed',
    priceMicroUsdc: CORPORATION_EVENT_PRICE_MICRO_USDC,
    validateSubject(value) {
      const text = typeof value === 'string' ? value.trim() : value;
      if (isValidCorporateNumber(text)) return { ok: true, subject: text };
      const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : typeof value;
      return {
        ok: false,
        problem: /^[0-9]{13}$/.test(String(text))
          ? `${shown}: the check digit (the first digit) does not match the other twelve`
          : `${shown} is not a corporate number (13 digits as a string)`,
        accepted: 'a 13-digit corporate number as a string, its first digit the check digit',
      };
    },
    async changesSince(afterSeq, limit): Promise<WatchChange[]> {
      return (await feed.changesSince(afterSeq, limit)).map((c) => ({
        subject: c.corporate_number,
        id: c.id,
        seq: c.seq,
        at: new Date(c.recorded_at),
        data: {
          corporate_number: c.corporate_number,
          change_date: c.change_date,
          process: c.process,
          changed: c.changed,
          before: c.before,
          after: c.after,
        },
      }));
    },
  };
}

/** The source on a gateway's store: the registry repository the store opens. */
export const corporateRegisterWatches: WatchSourceFactory = async (store: PluginStore) => {
  return corporateRegisterWatchSource(await store.open(corporateRegistryRepositories));
};
