/**
 * What a registry or invoice answer searched, in the words a buyer reads: a dated sample, an
 * imported copy of the NTA files or the live NTA register. An empty answer from a 45-row sample
 * must never read as "no such company", so every answer and every endpoint's coverage says which.
 */
import type { SearchedData } from '../../../core/plugins/contract';

export const CORPORATIONS = 'corporations';
export const INVOICE_REGISTRATIONS = 'invoice registrations';

const NTA_SITE = 'the NTA Corporate Number Publication Site, https://www.houjin-bangou.nta.go.jp/,';

export function snapshotSearched(records: number, asOf: string): SearchedData {
  return {
    kind: 'snapshot',
    as_of: asOf,
    records,
    unit: CORPORATIONS,
    complete: false,
    note: `A curated sample of ${records} corporations as of ${asOf}, not the full register: no match here does not mean no such company; ${NTA_SITE} holds every corporate number.`,
  };
}

export interface ImportFacts {
  /** Corporations the store holds. */
  records: number;
  /** Newest update date in the imported records (YYYY-MM-DD). */
  asOf: string;
  files: number;
  /** A nationwide full file (00_zenkoku_all_*) was imported: every corporation up to asOf. */
  nationwide: boolean;
}

export function storeSearched(f: ImportFacts): SearchedData {
  return {
    kind: 'snapshot',
    as_of: f.asOf,
    records: f.records,
    unit: CORPORATIONS,
    complete: f.nationwide,
    note: f.nationwide
      ? `${f.records} corporations imported from the NTA's nationwide bulk download and later files (${f.files} in all); the newest update in them is of ${f.asOf}, so corporations registered or changed after that date are not in it.`
      : `${f.records} corporations imported from ${f.files} NTA bulk-download file(s), newest update ${f.asOf}; not the full register (a file covers one prefecture or one period): no match here does not mean no such company.`,
  };
}

export function liveNumberSearched(now: Date): SearchedData {
  return {
    kind: 'live',
    as_of: now.toISOString(),
    records: null,
    unit: CORPORATIONS,
    complete: true,
    note: 'Looked up in the live NTA Corporate Number System Web-API, which answers for every corporation with a corporate number.',
  };
}

/** The NTA name search splits long answers into pages (divideSize); only the first is read. */
export function liveNameSearched(now: Date, pages: number, matched: number): SearchedData {
  const whole = pages <= 1;
  return {
    kind: 'live',
    as_of: now.toISOString(),
    records: null,
    unit: CORPORATIONS,
    complete: whole,
    note: whole
      ? `The live NTA Corporate Number System Web-API name search (a partial match on the name without its legal form) answered on one page (${matched} corporations), all ranked here; readings and aliases are matched only among them.`
      : `The live NTA Corporate Number System Web-API name search (a partial match on the name without its legal form) was read on its first page only, of ${pages} (${matched} corporations matched in all): corporations on later pages were not ranked. Give a longer name or a prefecture to narrow it.`,
  };
}

export function invoiceSnapshotSearched(records: number, asOf: string): SearchedData {
  return {
    kind: 'snapshot',
    as_of: asOf,
    records,
    unit: INVOICE_REGISTRATIONS,
    complete: false,
    note: `A list of ${records} registrations seen in public copies of NTA register data (as of ${asOf}), not the register: a number not in it is answered as not checked, never as not registered.`,
  };
}

export function invoiceFileSearched(records: number, asOf: string): SearchedData {
  return {
    kind: 'snapshot',
    as_of: asOf,
    records,
    unit: INVOICE_REGISTRATIONS,
    complete: false,
    note: `${records} registrations from the NTA register as published for download (full and differential files; newest update ${asOf}). A number not in them is answered as not checked, since the files imported may not be the whole register.`,
  };
}

export function invoiceLiveSearched(now: Date): SearchedData {
  return {
    kind: 'live',
    as_of: now.toISOString(),
    records: null,
    unit: INVOICE_REGISTRATIONS,
    complete: true,
    note: 'Looked up in the live NTA qualified invoice issuer Web-API, which holds every registration: a number it does not hold is not registered.',
  };
}
