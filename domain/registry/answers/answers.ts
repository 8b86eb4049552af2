/**
 * Pieces every registry answer shares: the provenance block (with what was searched), the
 * prefecture filter, and the operator's log line when a source is unavailable.
 */
import type { DataProvenance, HandlerLogger, SourceRef } from '../../../core/plugins/contract';
import { InvalidQueryError } from '../../../core/plugins/errors';
import { findPrefecture, type Prefecture } from '../../shared/prefectures';
import { normalizeName } from '../search/normalize';
import type { NameSearchResult, RegistrySource } from '../sources/registry-source';
import { SnapshotRegistry } from '../sources/snapshot-registry';
import { RegistryUnavailableError } from '../sources/upstream-http';

const ref = (s: SourceRef): SourceRef => ({ name: s.name, ...(s.url ? { url: s.url } : {}) });

/** One entry per document: the first name given for an address wins. */
function byAddress(refs: SourceRef[]): SourceRef[] {
  const out = new Map<string, SourceRef>();
  for (const s of refs) if (!out.has(s.url ?? s.name)) out.set(s.url ?? s.name, s);
  return [...out.values()];
}

/**
 * Provenance of an answer about some corporations, with what the answer searched. For the
 * snapshot: only the official documents and cross-checks of those corporations' rows, with their
 * notes (an empty answer names the table's official documents); for the store and the live API,
 * the source's own block.
 */
export async function registryProvenance(
  source: RegistrySource,
  now: Date,
  corporateNumbers: readonly string[] = [],
  found?: NameSearchResult,
): Promise<DataProvenance> {
  const base = await source.provenance(now);
  const searched = await source.searched(now, found);
  const sources = new Map<string, SourceRef>();
  const checks = new Map<string, SourceRef>();
  const notes: string[] = [];
  if (source instanceof SnapshotRegistry) {
    for (const n of corporateNumbers) {
      for (const s of source.sourcesOf(n)) sources.set(s.url ?? s.name, ref(s));
      for (const s of source.crossChecksOf(n)) checks.set(s.url ?? s.name, ref(s));
      for (const note of source.notesOf(n)) notes.push(`${n}: ${note}`);
    }
  }
  if (sources.size === 0) for (const s of base.sources) sources.set(s.url ?? s.name, ref(s));
  // A candidate found by a brand alias rests on the documents naming that alias.
  const shown = new Set(corporateNumbers);
  for (const { match } of found?.candidates ?? []) {
    if (!match.alias || !shown.has(match.id)) continue;
    for (const s of match.alias.sources) sources.set(s.url ?? s.name, ref(s));
    for (const s of match.alias.cross_checked_against) checks.set(s.url ?? s.name, ref(s));
    notes.push(
      `${match.id}: found by the brand alias ${match.alias.alias}${match.alias.note ? ` (${match.alias.note})` : ''}.`,
    );
  }
  // The sample's table notes describe the file; its answers carry the notes of their rows only.
  const allNotes = [...(source instanceof SnapshotRegistry ? [] : (base.notes ?? [])), ...notes];
  return {
    kind: base.kind,
    as_of: base.as_of,
    sources: [...sources.values()],
    ...(checks.size > 0 ? { cross_checked_against: [...checks.values()] } : {}),
    searched,
    ...(allNotes.length > 0 ? { notes: allNotes } : {}),
  };
}

/** The prefecture of a `pref` parameter the DTO accepted. */
export function prefectureOf(pref: string | undefined): Prefecture | undefined {
  return pref === undefined ? undefined : findPrefecture(pref);
}

/** Refuses a name that is only a legal form (株式会社, (株) ...): nothing is left to search for. */
export function requireSearchableName(name: string, parameter = 'name'): void {
  if (normalizeName(name).key === '') {
    throw new InvalidQueryError(
      parameter,
      'legal_form_only',
      `${parameter} holds only a legal form or punctuation; nothing is left to search for`,
      'a company name, with or without its legal form (株式会社トヨタ自動車, トヨタ自動車, Toyota)',
      'トヨタ自動車',
    );
  }
}

/**
 * Provenance of an answer combining the registry and the invoice register: live only when both
 * parts are; otherwise the dated part bounds it. `searched` describes the part that decides the
 * answer (the registry for name and number searches, the register for a T-number lookup); the
 * notes say what the other part searched.
 */
export function combinedProvenance(
  registry: DataProvenance,
  invoice: DataProvenance,
  decides: 'registry' | 'invoice',
): DataProvenance {
  const live = registry.kind === 'live' && invoice.kind === 'live';
  const dated = [registry, invoice].filter((p) => p.kind === 'snapshot').map((p) => p.as_of);
  const [decisive, other] = decides === 'registry' ? [registry, invoice] : [invoice, registry];
  const sources = byAddress([...registry.sources, ...invoice.sources]);
  const checks = byAddress([
    ...(registry.cross_checked_against ?? []),
    ...(invoice.cross_checked_against ?? []),
  ]);
  const otherSearched = other.searched
    ? [`${decides === 'registry' ? 'Invoice register' : 'Corporate registry'}: ${other.searched.note}`]
    : [];
  return {
    kind: live ? 'live' : 'snapshot',
    as_of: live ? registry.as_of : dated.reduce((a, b) => (b < a ? b : a)),
    sources,
    ...(checks.length > 0 ? { cross_checked_against: checks } : {}),
    ...(decisive.searched ? { searched: decisive.searched } : {}),
    notes: [
      `Corporate registry: ${registry.kind} (${registry.as_of}); invoice register: ${invoice.kind} (${invoice.as_of}).`,
      ...otherSearched,
      ...(registry.notes ?? []),
      ...(invoice.notes ?? []),
    ],
  };
}

/**
 * Runs a registry answer. When a source cannot answer, the buyer's 503 says to retry; what the
 * operator should check is logged here, at warn level, with the request.
 */
export async function answering<T>(log: HandlerLogger, answer: () => Promise<T>): Promise<T> {
  try {
    return await answer();
  } catch (err) {
    logUnavailable(log, err);
    throw err;
  }
}

/** Logs what the operator should check when a registry source could not answer. */
export function logUnavailable(log: HandlerLogger, err: unknown): void {
  if (err instanceof RegistryUnavailableError) {
    log.warn({ source_unavailable: err.details ?? {}, error: err.message }, err.operatorHint);
  }
}
