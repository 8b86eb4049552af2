import { readdirSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../config/paths';

/** Plugin folders whose name matches, read from plugins/ so a new endpoint is tested too. */
export function pluginFolders(name: RegExp): string[] {
  return readdirSync(path.join(PROJECT_ROOT, 'plugins')).filter((n) => name.test(n));
}

/** The corporate-registry families: houjin and invoice lookups of the local pack, and enrichment. */
export const REGISTRY_FOLDERS = /^(local-houjin-|local-invoice-|enrich-)/;
