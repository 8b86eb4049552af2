/**
 * The real published files tests read (../shared/data next to the repository: the NTA Tottori
 * file, the EDINET code list), never copied into the repository. A clean clone elsewhere finds
 * them through SHARED_DATA_DIR, or at the workplace's fixed location.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../config/paths';

function sharedDataDir(): string {
  if (process.env.SHARED_DATA_DIR) return process.env.SHARED_DATA_DIR;
  const beside = path.join(PROJECT_ROOT, '..', 'shared', 'data');
  return existsSync(beside) ? beside : '/work/shared/data';
}

export const SHARED_DATA = sharedDataDir();
export const TOTTORI_FILE = path.join(SHARED_DATA, 'nta', '31_tottori_all_20260731.csv');
export const EDINET_FILE = path.join(SHARED_DATA, 'edinet', 'EdinetcodeDlInfo-2024-07-21.csv');
