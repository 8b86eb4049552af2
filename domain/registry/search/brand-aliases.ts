/**
 * The brand alias map (data/registry/brand-aliases.json): names people use for a corporation that
 * are not its registered name (NEC for 日本電気株式会社), each with the documents saying so:
 * official ones (EDINET English and former names) in `sources`, other public pages in
 * `cross_checked_against` (no register of brand names exists).
 */
import { Lifecycle, scoped } from 'tsyringe';
import type { SourceRef } from '../../../core/plugins/contract';
import { loadDataFile, type TableProvenance } from '../../shared/data-file';
import { englishKey, isLatin, nameKey } from './normalize';

export interface BrandAlias {
  alias: string;
  corporate_number: string;
  note?: string;
  sources: SourceRef[];
  cross_checked_against: SourceRef[];
}

interface AliasFile {
  aliases: BrandAlias[];
}

export const BRAND_ALIAS_TABLE = 'registry/brand-aliases.json';

/** The keys an alias (or a query) is looked up by: its name key, and its English key when Latin. */
export function aliasKeys(text: string): string[] {
  const keys = new Set<string>([nameKey(text)]);
  if (isLatin(text)) keys.add(englishKey(text));
  keys.delete('');
  return [...keys];
}

@scoped(Lifecycle.ContainerScoped)
export class BrandAliasMap {
  readonly provenance: TableProvenance;
  readonly aliases: readonly BrandAlias[];
  private readonly byKey = new Map<string, BrandAlias[]>();

  constructor() {
    const file = loadDataFile<AliasFile>(BRAND_ALIAS_TABLE);
    this.provenance = file.provenance;
    this.aliases = file.aliases;
    for (const alias of file.aliases) {
      if (alias.sources.length + alias.cross_checked_against.length === 0) {
        throw new Error(`data/${BRAND_ALIAS_TABLE}: alias ${alias.alias} names no document`);
      }
      for (const key of aliasKeys(alias.alias)) {
        const list = this.byKey.get(key) ?? [];
        if (!list.some((a) => a.corporate_number === alias.corporate_number)) list.push(alias);
        this.byKey.set(key, list);
      }
    }
  }

  /** Aliases whose key equals one of the query's keys. */
  lookup(query: string): BrandAlias[] {
    const found = new Map<string, BrandAlias>();
    for (const key of aliasKeys(query)) {
      for (const alias of this.byKey.get(key) ?? []) found.set(alias.corporate_number, alias);
    }
    return [...found.values()];
  }
}
