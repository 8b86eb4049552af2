/**
 * A full file (全件データ, the EDINET code list) stands for everything its scope holds: imported, it
 * becomes what the gateway answers from. One with no rows, or with far fewer than what it follows,
 * is a failed or cut download far more often than a register that shrank, so it is refused before
 * anything of it is written: the register held keeps answering. An operator who knows the register
 * really shrank overrides the second refusal (`--allow-fewer-rows`); an empty full file is never
 * imported.
 */
import path from 'node:path';

/**
 * The share of what is held a full file must reach. The registers change by well under 1% a month
 * (full files list closed corporations and cancelled registrations too), so a file 10% smaller is
 * damage, not news.
 */
export const MIN_SHARE_OF_HELD = 0.9;

export const EMPTY_FILE_HINT =
  'A full file with no rows is a failed or cut download: download it again (an empty full file is never imported).';
export const FEWER_ROWS_HINT =
  'A full file much smaller than what the register holds is most often a cut or partial download: download it again. If the register really shrank, import the file with --allow-fewer-rows.';

/** What a full file would replace: how many rows, and that said in words. */
export interface HeldRows {
  rows: number;
  /** "the register holds 5800000 corporations", "the last full import of ... had 250 rows" */
  said: string;
}

export interface FullFileProblem {
  code: 'empty_file' | 'fewer_rows';
  detail: string;
}

/**
 * The files one full file follows: its name without the date and the extension
 * (31_tottori_all_20260731.zip and 31_tottori_all_20260831.csv are one scope, 13_tokyo_all_... another).
 */
export function scopeOf(file: string): string {
  return path
    .basename(file)
    .toLowerCase()
    .replace(/\.(csv|zip)$/, '')
    .replace(/20\d{6}/, '');
}

/** What a full file follows: the last completed full import of its scope (newest first given). */
export function lastFullOfScope(
  file: string,
  completed: ReadonlyArray<{ kind: string; file: string; rows?: number }>,
): HeldRows | null {
  const scope = scopeOf(file);
  const last = completed.find((i) => i.kind === 'full' && i.rows !== undefined && scopeOf(i.file) === scope);
  return last
    ? {
        rows: last.rows!,
        said: `the last full import of this file's scope (${last.file}) had ${last.rows} rows`,
      }
    : null;
}

/** Why a full file of `rows` rows must not replace `held`, or null. */
export function fullFileProblem(
  rows: number,
  held: HeldRows | null,
  unit: string,
  allowFewerRows = false,
): FullFileProblem | null {
  const holds = held ? `, where ${held.said}` : '';
  if (rows === 0) {
    return { code: 'empty_file', detail: `a full file with no ${unit}${holds}` };
  }
  if (!held || allowFewerRows || rows >= held.rows * MIN_SHARE_OF_HELD) return null;
  return {
    code: 'fewer_rows',
    detail: `a full file of ${rows} ${unit}${holds}: fewer than ${MIN_SHARE_OF_HELD * 100}% of them (import it with --allow-fewer-rows if the register really shrank)`,
  };
}
