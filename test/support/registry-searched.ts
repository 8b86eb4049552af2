/**
 * What the registry, invoice and enrichment answers must say they searched, computed from the data
 * files (never written down): the plugins' own "searched" tests compare their answers with these.
 */
import { checkDigitOf } from '../../domain/registry/corporate-number';
import { INVOICE_TABLE } from '../../domain/registry/sources/invoice-register';
import { snapshotRecords, SNAPSHOT_PROVENANCE } from '../../domain/registry/sources/snapshot-registry';
import { loadDataFile } from '../../domain/shared/data-file';
import type { TestResponse } from './gateway';
import type { Query, SnapshotSearched } from './searched-suite';

export const SEARCHED_CLOCK = '2026-11-22T03:00:00Z';
export const SNAPSHOT_SIZE = new Set(snapshotRecords().map((r) => r.corporateNumber)).size;
export const SNAPSHOT_AS_OF = loadDataFile(SNAPSHOT_PROVENANCE).provenance.as_of;
export const INVOICE_FILE = loadDataFile<{ registrations: Array<{ registration_number: string }> }>(
  INVOICE_TABLE,
);
export const INVOICE_ROWS = INVOICE_FILE.registrations.length;
export const INVOICE_AS_OF = INVOICE_FILE.provenance.as_of;

/** The registry snapshot: a curated sample of corporations, not the register. */
export const REGISTRY_SAMPLE = {
  kind: 'snapshot',
  as_of: SNAPSHOT_AS_OF,
  records: SNAPSHOT_SIZE,
  unit: 'corporations',
  complete: false,
};

/** The same facts as /product-status.json states them per endpoint. */
export const REGISTRY_COVERAGE = {
  kind: 'snapshot',
  as_of: SNAPSHOT_AS_OF,
  records: { count: SNAPSHOT_SIZE, unit: 'corporations', complete: false },
};

/** A valid corporate number (check digit right) that no snapshot row holds. */
export function absentNumber(): string {
  const held = new Set(snapshotRecords().map((r) => r.corporateNumber));
  for (let i = 0; ; i++) {
    const base = `0100019${String(i).padStart(5, '0')}`;
    const n = `${checkDigitOf(base)}${base}`;
    if (!held.has(n)) return n;
  }
}

/** Substrings that only ever come from this repository, ../shared or an operator's settings. */
const NOT_FOR_BUYERS = ['shared/', 'reference/', 'Team research', '.md', 'data/', 'NTA_INVOICE_APP_ID'];

function strings(value: unknown, at = '$'): Array<[string, string]> {
  if (typeof value === 'string') return [[at, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => strings(v, `${at}[${i}]`));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => strings(v, `${at}.${k}`));
  return [];
}

/** Every string of the answers that names a repository or ../shared file, or an operator setting. */
export function ownWords(answers: readonly TestResponse[]): string[] {
  return answers.flatMap((res) =>
    strings(res.body).flatMap(([at, text]) =>
      NOT_FOR_BUYERS.filter((w) => text.includes(w)).map((w) => `${at}: "${w}" in ${text.slice(0, 100)}`),
    ),
  );
}

/** The data set's log lines about the missing invoice Web-API id (the operator is told once). */
export function invoiceIdWarnings(logs: readonly string[]): Array<{ level: number }> {
  return logs.filter((l) => l.includes('NTA_INVOICE_APP_ID')).map((l) => JSON.parse(l) as { level: number });
}

/** The snapshot checks of a registry or enrichment endpoint (test/support/searched-suite.ts). */
export function registrySearched(endpointId: string, path: string, query: Query): SnapshotSearched {
  return {
    endpointId,
    path,
    query,
    clock: SEARCHED_CLOCK,
    sample: REGISTRY_SAMPLE,
    note: /not the full register/,
    coverage: REGISTRY_COVERAGE,
    ownWords,
  };
}
