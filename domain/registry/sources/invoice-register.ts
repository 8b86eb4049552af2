/**
 * Qualified invoice issuer registrations (適格請求書発行事業者). `confirmed: true` only when the NTA
 * register itself said so: the NTA invoice-issuer Web-API (when NTA_INVOICE_APP_ID is set), or the
 * register files the NTA publishes, imported by the operator, whose states over time answer a
 * registration on a past date (as_of) as well. Every other answer is `confirmed: false` with its reason: a registration seen in a public copy of
 * register data (the dated list in data/registry/invoice-registrations.json), or only derived (a
 * corporation's registration number, if it registered, is T + its corporate number). Web-API:
 * /1/num?number=T...(up to 10)&type=21 (JSON), documented at
 * https://www.invoice-kohyo.nta.go.jp/web-api/index.html.
 */
import { inject, Lifecycle, scoped } from 'tsyringe';
import { PLUGIN_STORE, type PluginStore } from '../../../core/plugins/storage';
import type { UpstreamConfig } from '../../shared/tokens';
import type {
  DataCoverage,
  DataProvenance,
  HandlerLogger,
  SearchedData,
  SourceRef,
} from '../../../core/plugins/contract';
import { loadDataFile, snapshotProvenance, type TableProvenance } from '../../shared/data-file';
import { UPSTREAM_CONFIG } from '../../shared/tokens';
import { tokyoDate } from '../../shared/tokyo-time';
import { coverageOf } from '../../shared/coverage';
import { invoiceFileSearched, invoiceLiveSearched, invoiceSnapshotSearched } from '../answers/searched';
import { dateOf, stateOn, type InvoiceState } from '../stores/invoice-history';
import { type InvoiceRegisterStore } from '../stores/invoice-store';
import { invoiceRegisterStores } from '../stores/invoice-stores';
import { unavailable, UpstreamError, UpstreamHttp, type UpstreamHttpOptions } from './upstream-http';

export const INVOICE_TABLE = 'registry/invoice-registrations.json';
export const NTA_INVOICE_UPSTREAM = 'NTA qualified-invoice-issuer Web-API';
export const NTA_INVOICE_DOWNLOAD = {
  name: '国税庁 適格請求書発行事業者公表サイト データダウンロード (NTA qualified invoice issuer register, published files)',
  url: 'https://www.invoice-kohyo.nta.go.jp/download/',
};
/** How long what the imported register holds is taken as known before it is read again. */
const IMPORTED_STATE_MS = 30_000;

/**
 * What a derived registration rests on: the rule, not a register. The publication site, where a
 * registration number is looked up, is the NTA's statement of it (a corporation's number is T +
 * its corporate number); no download of it was read.
 */
export const T_NUMBER_RULE = {
  name: "国税庁 適格請求書発行事業者公表サイト (NTA qualified invoice issuer publication site): a corporation's registration number is T + its corporate number; derived here, no register data read",
  url: 'https://www.invoice-kohyo.nta.go.jp/',
};

export const NTA_INVOICE_WEB_API = {
  name: '国税庁 適格請求書発行事業者公表システム Web-API (NTA qualified invoice issuer publication Web-API)',
  url: 'https://www.invoice-kohyo.nta.go.jp/web-api/index.html',
};

export type RegistrationStatus = 'registered' | 'cancelled' | 'expired' | 'not_registered' | 'not_checked';
/**
 * register_live: the NTA Web-API answered; register_file: the register as the NTA publishes it
 * for download, imported by the operator (npm run import:registry); secondary_source: a public
 * copy of NTA register data shows it (not the register itself); derived: T + corporate number,
 * not checked at all.
 */
export type RegistrationBasis = 'register_live' | 'register_file' | 'secondary_source' | 'derived';

export interface RegistrationAnswer {
  registration_number: string;
  status: RegistrationStatus;
  /** True only when the NTA register itself answered; false for copies and derivations. */
  confirmed: boolean;
  basis: RegistrationBasis;
  /** Why `confirmed` is false (null when the register answered). */
  reason: string | null;
  /** 氏名又は名称 as registered. */
  legal_name: string | null;
  /** 本店又は主たる事務所の所在地 as registered, in one line. */
  address: { line: string } | null;
  registration_date: string | null;
  update_date: string | null;
  disposal_date: string | null;
  expire_date: string | null;
  /** For rows seen in a copy: the date of the register data the copy shows, when known. */
  seen_on: string | null;
  /** 人格区分 as the register gives it; null when the register was not read. */
  registrant_kind: 'individual' | 'corporation' | null;
  /** 主たる屋号, when the registrant asked for it to be published. */
  trade_name: string | null;
  /** 通称・旧姓, when the registrant asked for it to be published. */
  popular_or_previous_name: string | null;
  /** For a sole proprietor: what the register publishes of one, and so what this answer holds. */
  publication_note: string | null;
  /** With as_of: the registration on that date, and how much of its history is held. */
  on_date: OnDateAnswer | null;
  /** The official publisher (the NTA register). */
  sources: SourceRef[];
  /** The public copies a listed registration was seen in. */
  cross_checked_against: SourceRef[];
}

export interface OnDateAnswer {
  /** The date asked (as_of). */
  date: string;
  /** Whether the registration was in force on the date; null when not known here. */
  in_force: boolean | null;
  /** Whether the name and address shown are those of the date (false: they are null or today's, see note). */
  state_known: boolean;
  /** The day the state shown was published (its update date). */
  state_date: string | null;
  /** The day of the oldest state of this registration held here; null when none is held. */
  history_starts: string | null;
  /** Whether the oldest state held is the registration's first publication. */
  history_complete: boolean;
  note: string;
}

/** One `announcement` of the invoice Web-API (JSON, type=21); only the fields used here. */
export interface Announcement {
  registratedNumber: string;
  process?: string;
  kind?: string;
  latest?: string;
  registrationDate?: string;
  updateDate?: string;
  disposalDate?: string;
  expireDate?: string;
  name?: string;
  address?: string;
  addressRequest?: string;
  addressInside?: string;
  tradeName?: string;
  popularName_previousName?: string;
}

interface SnapshotRow {
  registration_number: string;
  name: string;
  kind: string;
  registration_date: string | null;
  update_date?: string | null;
  address?: string;
  seen_on: string | null;
  sources: SourceRef[];
  cross_checked_against: SourceRef[];
}

const NOT_LIVE = 'not confirmed against the live register';

function seenReason(row: SnapshotRow): string {
  const when = row.seen_on ? `register data of ${row.seen_on}` : 'register data of an unstated date';
  return `${NOT_LIVE}: a public copy of NTA ${when} lists this registration; it may since have been cancelled or have expired.`;
}

const DERIVED_REASON = `${NOT_LIVE}: no list available here holds this number and whether it is registered was not checked (a corporation's number, if it registered, is T + its corporate number).`;

export class NtaInvoiceClient {
  private readonly http: UpstreamHttp;

  constructor(
    private readonly settings: { appId: string; baseUrl: string; http?: Omit<UpstreamHttpOptions, 'name'> },
  ) {
    this.http = new UpstreamHttp({ name: NTA_INVOICE_UPSTREAM, ...settings.http });
  }

  /** Latest announcements of up to 10 registration numbers per request (longer lists are split). */
  async byNumbers(
    tNumbers: readonly string[],
  ): Promise<{ lastUpdateDate: string; announcements: Announcement[] }> {
    const announcements: Announcement[] = [];
    let lastUpdateDate = '';
    for (let i = 0; i < tNumbers.length; i += 10) {
      const url = new URL(`${this.settings.baseUrl.replace(/\/+$/, '')}/num`);
      url.searchParams.set('id', this.settings.appId);
      url.searchParams.set('number', tNumbers.slice(i, i + 10).join(','));
      url.searchParams.set('type', '21');
      url.searchParams.set('history', '0');
      const response = await this.http.get(url);
      let body: { lastUpdateDate?: string; announcement?: Announcement[] };
      try {
        body = JSON.parse(response.body) as typeof body;
      } catch {
        throw new UpstreamError(
          NTA_INVOICE_UPSTREAM,
          'http_status',
          `${NTA_INVOICE_UPSTREAM} answered something that is not JSON`,
        );
      }
      lastUpdateDate = body.lastUpdateDate ?? lastUpdateDate;
      announcements.push(...(body.announcement ?? []));
    }
    return { lastUpdateDate, announcements };
  }
}

const orNull = (s: string | undefined | null): string | null => (s ? s : null);

/** Status on a date: registered when registered on or before it and neither cancelled nor expired by then. */
export function statusOn(a: Announcement, isoDate: string): RegistrationStatus {
  if (a.disposalDate && a.disposalDate <= isoDate) return 'cancelled';
  if (a.expireDate && a.expireDate <= isoDate) return 'expired';
  if (a.registrationDate && a.registrationDate > isoDate) return 'not_registered';
  return 'registered';
}

@scoped(Lifecycle.ContainerScoped)
export class InvoiceRegister {
  readonly tableProvenance: TableProvenance;
  private readonly snapshot: Map<string, SnapshotRow>;
  private readonly client?: NtaInvoiceClient;
  private warned = false;
  /** What the imported register files hold: registrations and the newest update date. */
  private imported?: { count: number; asOf: string; at: number };
  private store?: Promise<InvoiceRegisterStore>;

  constructor(
    @inject(UPSTREAM_CONFIG) upstream: UpstreamConfig,
    @inject(PLUGIN_STORE) private readonly gatewayStore: PluginStore,
  ) {
    const file = loadDataFile<{ registrations: SnapshotRow[] }>(INVOICE_TABLE);
    this.tableProvenance = file.provenance;
    this.snapshot = new Map(file.registrations.map((r) => [r.registration_number, r]));
    if (upstream.ntaInvoice.appId) {
      this.client = new NtaInvoiceClient({
        appId: upstream.ntaInvoice.appId,
        baseUrl: upstream.ntaInvoice.baseUrl,
      });
    }
  }

  get live(): boolean {
    return this.client !== undefined;
  }

  /** What a registration lookup searches: the live register, the imported files, or the dated list of copies. */
  searched(now: Date): SearchedData {
    if (this.client) return invoiceLiveSearched(now);
    if (this.imported && this.imported.count > 0)
      return invoiceFileSearched(this.imported.count, this.imported.asOf);
    return invoiceSnapshotSearched(this.snapshot.size, this.tableProvenance.as_of);
  }

  /**
   * A number the imported files do not hold: the files loaded may be only part of the register
   * (the corporations' parts, say), so it is not called unregistered; a copy may still show it.
   */
  private notImported(t: string): RegistrationAnswer {
    const row = this.snapshot.get(t);
    if (row) return this.fromSnapshot(t, row);
    const { count, asOf } = this.imported!;
    return {
      ...blank(t),
      reason: `Not in the NTA register files imported here (${count} registrations, newest update ${asOf}), which may not be the whole register: not checked. A corporation's registration number, if it registered, is T + its corporate number.`,
    };
  }

  private fromSnapshot(t: string, row: SnapshotRow): RegistrationAnswer {
    return {
      ...blank(t),
      status: 'registered',
      confirmed: false,
      basis: 'secondary_source',
      reason: seenReason(row),
      legal_name: row.name,
      address: lineAddress(row.address),
      registration_date: row.registration_date,
      update_date: row.update_date ?? null,
      seen_on: row.seen_on,
      sources: row.sources,
      cross_checked_against: row.cross_checked_against,
    };
  }

  private registerFiles(): Promise<InvoiceRegisterStore> {
    this.store ??= this.gatewayStore.open(invoiceRegisterStores);
    return this.store;
  }

  /** Re-reads what the imported files hold when the last reading is older than IMPORTED_STATE_MS. */
  private async refreshImported(): Promise<void> {
    if (this.imported && Date.now() - this.imported.at < IMPORTED_STATE_MS) return;
    const store = await this.registerFiles();
    const [count, done] = await Promise.all([store.count(), store.completedImports()]);
    const asOf = done.map((d) => d.as_of ?? '').reduce((a, b) => (b > a ? b : a), '');
    this.imported = { count, asOf, at: Date.now() };
  }

  coverage(now: Date): DataCoverage {
    return coverageOf(this.searched(now));
  }

  /** The provenance of answers about `answered`: the copies cross-checked are those rows' own. */
  provenance(now: Date, answered: readonly RegistrationAnswer[] = []): DataProvenance {
    if (this.client) {
      return {
        kind: 'live',
        as_of: now.toISOString(),
        sources: [NTA_INVOICE_WEB_API],
        searched: this.searched(now),
      };
    }
    if (this.imported && this.imported.count > 0) {
      return {
        kind: 'snapshot',
        as_of: this.imported.asOf,
        sources: [NTA_INVOICE_DOWNLOAD],
        searched: this.searched(now),
      };
    }
    const {
      cross_checked_against: _all,
      sources: listSources,
      ...table
    } = snapshotProvenance(this.tableProvenance);
    const refs = (list: SourceRef[]) => [...new Map(list.map((s) => [s.url ?? s.name, s])).values()];
    const checks = refs(answered.flatMap((a) => a.cross_checked_against));
    // The documents of what was used: a row of the list cites its copies' source; a derived
    // answer cites the rule, never the download page of a list it was not in.
    const sources = answered.length === 0 ? listSources : refs(answered.flatMap((a) => a.sources));
    return {
      ...table,
      sources,
      ...(checks.length > 0 ? { cross_checked_against: checks } : {}),
      searched: this.searched(now),
    };
  }

  /**
   * Answers for T-numbers (T + 13 digits), from the register when it is connected. Without it the
   * operator is told once, in the log, how to connect it; buyers only see "not confirmed". With
   * `asOf` (YYYY-MM-DD), each answer is the registration on that date as far as the history held
   * tells it (`on_date`).
   */
  async lookupMany(
    tNumbers: readonly string[],
    now: Date,
    log?: HandlerLogger,
    asOf?: string,
  ): Promise<Map<string, RegistrationAnswer>> {
    const answers = await this.currentAnswers([...new Set(tNumbers)], now, log, asOf);
    if (asOf) for (const a of answers.values()) a.on_date ??= noHistory(asOf);
    return answers;
  }

  private async currentAnswers(
    unique: string[],
    now: Date,
    log: HandlerLogger | undefined,
    asOf: string | undefined,
  ): Promise<Map<string, RegistrationAnswer>> {
    const out = new Map<string, RegistrationAnswer>();
    if (this.client) {
      const { announcements } = await this.client
        .byNumbers(unique)
        .catch((err) => unavailable(err, NTA_INVOICE_UPSTREAM));
      const today = tokyoDate(now).iso;
      for (const a of announcements) {
        if (a.latest !== undefined && a.latest !== '1') continue;
        out.set(a.registratedNumber, {
          ...publishedFields(a),
          registration_number: a.registratedNumber,
          status: statusOn(a, today),
          confirmed: true,
          basis: 'register_live',
          reason: null,
          registration_date: orNull(a.registrationDate),
          update_date: orNull(a.updateDate),
          disposal_date: orNull(a.disposalDate),
          expire_date: orNull(a.expireDate),
          seen_on: null,
          sources: [NTA_INVOICE_WEB_API],
          cross_checked_against: [],
          on_date: null,
        });
      }
      for (const t of unique) {
        if (!out.has(t))
          out.set(t, {
            ...blank(t),
            status: 'not_registered',
            confirmed: true,
            basis: 'register_live',
            reason: null,
            sources: [NTA_INVOICE_WEB_API],
          });
      }
      return out;
    }
    await this.refreshImported();
    if (this.imported && this.imported.count > 0) {
      const store = await this.registerFiles();
      const held = asOf
        ? await store.history(unique)
        : new Map([...(await store.getMany(unique))].map(([n, row]) => [n, [row]]));
      const today = tokyoDate(now).iso;
      for (const t of unique) {
        const states = held.get(t);
        out.set(t, states ? fromRegisterFile(states, today, asOf) : this.notImported(t));
      }
      return out;
    }
    if (log && !this.warned) {
      this.warned = true;
      log.warn(
        { setting: 'NTA_INVOICE_APP_ID' },
        'Invoice registrations are answered as not confirmed against the live register: NTA_INVOICE_APP_ID is not set (docs/operations.md, "Registry and invoice upstreams").',
      );
    }
    for (const t of unique) {
      const row = this.snapshot.get(t);
      out.set(t, row ? this.fromSnapshot(t, row) : blank(t));
    }
    return out;
  }
}

const INDIVIDUAL_NOTE =
  'A sole proprietor: the register publishes the name as registered and, only where the person asked for them to be published, a trade name, a popular or previous name and an address; this answer holds only what it published, nothing derived or looked up elsewhere.';

/** What the register publishes of a registrant, as published; for a sole proprietor nothing more. */
function publishedFields(
  a: Pick<
    Announcement,
    | 'kind'
    | 'name'
    | 'address'
    | 'addressRequest'
    | 'addressInside'
    | 'tradeName'
    | 'popularName_previousName'
  >,
): Pick<
  RegistrationAnswer,
  | 'legal_name'
  | 'address'
  | 'registrant_kind'
  | 'trade_name'
  | 'popular_or_previous_name'
  | 'publication_note'
> {
  const individual = a.kind === '1';
  // A sole proprietor's address is published only on request (addressRequest); a foreign
  // business's domestic office (addressInside) stands for either's when it has no other.
  const line = individual
    ? (orNull(a.addressRequest) ?? orNull(a.addressInside))
    : (orNull(a.address) ?? orNull(a.addressInside));
  return {
    legal_name: orNull(a.name),
    address: lineAddress(line),
    registrant_kind: individual ? 'individual' : a.kind === '2' ? 'corporation' : null,
    trade_name: orNull(a.tradeName),
    popular_or_previous_name: orNull(a.popularName_previousName),
    publication_note: individual ? `${INDIVIDUAL_NOTE}${line ? '' : ' No address was published.'}` : null,
  };
}

/** The names and addresses of a state, all null: the state on a date before the history held. */
const UNKNOWN_STATE = {
  legal_name: null,
  address: null,
  trade_name: null,
  popular_or_previous_name: null,
};

/**
 * A registration as the imported register files show it: the NTA's own data, so confirmed. Its
 * states are oldest first, the current last. On a date, the dates of registration, cancellation
 * and expiry are the register's as it states them now (a cancellation may be published after the
 * day it takes effect); the names and address are the state published on or before the date.
 */
function fromRegisterFile(states: InvoiceState[], today: string, asOf?: string): RegistrationAnswer {
  const current = states[states.length - 1];
  if (current.process === '99') return withdrawn(current, asOf);
  const base: RegistrationAnswer = {
    ...publishedFields(current),
    registration_number: current.registratedNumber,
    status: statusOn(current, asOf ?? today),
    confirmed: true,
    basis: 'register_file',
    reason: null,
    registration_date: orNull(current.registrationDate),
    update_date: orNull(current.updateDate),
    disposal_date: orNull(current.disposalDate),
    expire_date: orNull(current.expireDate),
    seen_on: null,
    sources: [NTA_INVOICE_DOWNLOAD],
    cross_checked_against: [],
    on_date: null,
  };
  if (!asOf) return base;
  const { state, historyStarts, historyComplete } = stateOn(states, asOf);
  const held = `${states.length} state${states.length === 1 ? '' : 's'} held, the oldest of ${historyStarts}`;
  const ahead =
    asOf > today
      ? ` ${asOf} is still to come: what the register states now, which later changes may alter.`
      : '';
  return {
    ...base,
    ...(state
      ? {
          ...publishedFields(state),
          registrant_kind: base.registrant_kind,
          update_date: orNull(state.updateDate),
        }
      : { ...UNKNOWN_STATE, update_date: null }),
    on_date: {
      date: asOf,
      in_force: base.status === 'registered',
      state_known: state !== null,
      state_date: state ? dateOf(state) : null,
      history_starts: historyStarts,
      history_complete: historyComplete,
      note: !state
        ? `The history held here starts later (${held}, not the first publication): whether it was in force on ${asOf} is answered from its registration, cancellation and expiry dates, but its name and address then are not known here (null).`
        : dateOf(state) > asOf
          ? // Before its first publication nothing was published: its first state is the nearest truth.
            `The register first published this registration on ${dateOf(state)}, after ${asOf}: the name and address shown are those of that first publication (${held}), as nothing earlier was published; whether it was in force from the registration, cancellation and expiry dates the register states now.${ahead}`
          : `The name and address the register published on or before ${asOf} (its state of ${dateOf(state)}; ${held}); whether it was in force from the registration, cancellation and expiry dates the register states now.${ahead}`,
    },
  };
}

/** A registration the NTA deleted from its publication (process 99): nothing of it is answered. */
function withdrawn(current: InvoiceState, asOf?: string): RegistrationAnswer {
  const reason = `The NTA deleted this registration from its publication (update of ${dateOf(current)}): nothing of it is answered, on any date.`;
  return {
    ...blank(current.registratedNumber),
    basis: 'register_file',
    reason,
    sources: [NTA_INVOICE_DOWNLOAD],
    on_date: asOf ? { ...noHistory(asOf), note: reason } : null,
  };
}

/** On a date, for a registration whose states are not held here. */
function noHistory(asOf: string): OnDateAnswer {
  return {
    date: asOf,
    in_force: null,
    state_known: false,
    state_date: null,
    history_starts: null,
    history_complete: false,
    note: 'No dated states of this registration are held here (only the imported NTA register files keep them): the other fields are the answer of today, not of this date.',
  };
}

function lineAddress(line: string | null | undefined): { line: string } | null {
  return line ? { line } : null;
}

/** The fields only the register's own data fills. */
const NOT_READ = {
  registrant_kind: null,
  trade_name: null,
  popular_or_previous_name: null,
  publication_note: null,
  on_date: null,
} as const;

/** A derived answer: T + corporate number, not checked. */
function blank(t: string): RegistrationAnswer {
  return {
    ...NOT_READ,
    registration_number: t,
    status: 'not_checked',
    confirmed: false,
    basis: 'derived',
    reason: DERIVED_REASON,
    legal_name: null,
    address: null,
    registration_date: null,
    update_date: null,
    disposal_date: null,
    expire_date: null,
    seen_on: null,
    sources: [T_NUMBER_RULE],
    cross_checked_against: [],
  };
}
