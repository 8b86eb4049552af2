/**
 * The EDINET filers of the real code list as corporations of the registry (issue 36): one per
 * filer with a corporate number the registry does not hold, with its name and its ヨミ as
 * furigana (what the national file would hold for it; the Tottori file holds few of them), the
 * rest copied from a corporation of the file. Lets a search on the Tottori file meet the
 * namesakes and shared readings of a national register (青木商店 of Nagoya, 青木衣裳店 of Tottori).
 */
import type { Corporation } from '../../domain/registry/corporation';
import { EdinetCodeList, type EdinetFiler } from '../../domain/registry/files/edinet-code-list';
import type { CorporateRegistryRepository } from '../../domain/registry/stores/registry-repository';

export async function edinetFilers(file: string): Promise<EdinetFiler[]> {
  const list = await EdinetCodeList.open(file);
  const filers: EdinetFiler[] = [];
  for await (const { filer } of list.filers()) filers.push(filer);
  return filers;
}

/** Writes the filers the registry does not hold as corporations (template: an active one); returns them. */
export async function addEdinetCorporations(
  registry: CorporateRegistryRepository,
  filers: readonly EdinetFiler[],
  template: Corporation,
  held: ReadonlySet<string>,
): Promise<Corporation[]> {
  const seen = new Set<string>(held);
  const fresh: Corporation[] = [];
  for (const f of filers) {
    if (!f.corporate_number || seen.has(f.corporate_number)) continue;
    seen.add(f.corporate_number);
    fresh.push({
      ...template,
      corporate_number: f.corporate_number,
      name: f.name,
      furigana: f.furigana,
      en_name: '',
      former_names: [],
    });
  }
  for (let i = 0; i < fresh.length; i += 2000) await registry.upsert(fresh.slice(i, i + 2000));
  return fresh;
}
