/**
 * Reading tables from data/. Every table is a JSON document with its provenance beside the rows,
 * so a payload can always say where its figures came from and how old they are.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../core/plugins/project-root';
import type { DataProvenance } from '../../core/plugins/contract';

/** A document a table cites; `periods` when it is about some of the table's periods only (their labels). */
export interface TableSourceRef {
  name: string;
  url?: string;
  periods?: string[];
}

export interface TableProvenance {
  /** The official publishers' documents the rows come from. */
  sources: TableSourceRef[];
  /** Independent transcriptions the rows were checked against; never the source. */
  cross_checked_against?: TableSourceRef[];
  /** The span of dates the table applies to, and which date that is (payment, premium month...). */
  applies?: { from: string; to: string | null; basis: string };
  /** The date the table was last checked against its sources (YYYY-MM-DD). */
  as_of: string;
  licence?: string;
  notes?: string[];
}

export type DataFile<Body extends object> = { title: string; provenance: TableProvenance } & Body;

export const DATA_DIR = path.join(PROJECT_ROOT, 'data');

const cache = new Map<string, unknown>();

/** Loads (once per process: tables are immutable) a JSON table from data/ and checks its provenance. */
export function loadDataFile<Body extends object>(relativePath: string): DataFile<Body> {
  const hit = cache.get(relativePath);
  if (hit) return hit as DataFile<Body>;
  const file = JSON.parse(readFileSync(path.join(DATA_DIR, relativePath), 'utf8')) as DataFile<Body>;
  const p = file.provenance;
  if (
    !p ||
    !/^\d{4}-\d{2}-\d{2}$/.test(p.as_of ?? '') ||
    !Array.isArray(p.sources) ||
    p.sources.length === 0
  ) {
    throw new Error(`data/${relativePath}: provenance needs sources and an as_of date`);
  }
  cache.set(relativePath, file);
  return file;
}

/**
 * The provenance of a table as an answer used it, for the periods labelled `used`: documents about
 * other periods only are left out (an answer for May 2026 cites the FY2026 rates, not FY2024's).
 */
export function provenanceForPeriods(p: TableProvenance, used: ReadonlySet<string>): TableProvenance {
  const cited = (s: TableSourceRef) => s.periods === undefined || s.periods.some((label) => used.has(label));
  return {
    ...p,
    sources: p.sources.filter(cited),
    ...(p.cross_checked_against ? { cross_checked_against: p.cross_checked_against.filter(cited) } : {}),
  };
}

/** The payload's provenance block for answers served from a dated table. */
export function snapshotProvenance(p: TableProvenance, extraNotes: string[] = []): DataProvenance {
  const notes = [...(p.notes ?? []), ...extraNotes];
  const refs = (list: Array<{ name: string; url?: string }>) =>
    list.map((s) => ({ name: s.name, ...(s.url ? { url: s.url } : {}) }));
  const checked = p.cross_checked_against ?? [];
  return {
    kind: 'snapshot',
    as_of: p.as_of,
    sources: refs(p.sources),
    ...(checked.length > 0 ? { cross_checked_against: refs(checked) } : {}),
    ...(notes.length > 0 ? { notes } : {}),
  };
}
