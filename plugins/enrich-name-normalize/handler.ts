import { injectable } from 'tsyringe';
import type {
  DataCoverage,
  EndpointHandler,
  EndpointPayload,
  SearchedData,
} from '../../core/plugins/contract';
import { LEGAL_FORMS } from '../../domain/registry/search/legal-forms';
import {
  englishKey,
  furiganaKey,
  isLatin,
  normalizeName,
  type LegalFormMatch,
} from '../../domain/registry/search/normalize';
import { romajiToKatakana } from '../../domain/shared/romaji';
import type { NameNormalizeQuery } from './query';

/** 法人種別 codes implied by a legal form (the register's kind field). */
const KIND_OF_FORM: Record<string, string> = {
  株式会社: '301',
  有限会社: '302',
  合名会社: '303',
  合資会社: '304',
  合同会社: '305',
};

/** The date the rules (legal forms, kanji pairs) were last checked against their sources. */
const RULES_AS_OF = '2026-11-22';

/** The only table this endpoint reads: no registry is searched, and the answer must say so. */
const SEARCHED: SearchedData = {
  kind: 'snapshot',
  as_of: RULES_AS_OF,
  records: LEGAL_FORMS.length,
  unit: 'legal forms',
  complete: false,
  note: `The name was read against the ${LEGAL_FORMS.length} legal forms this service recognises; no corporate registry was searched, so this answer does not say whether such a company exists.`,
};

export interface NameNormalizePayload extends EndpointPayload {
  query: { name: string };
  search_key: string;
  legal_form: (LegalFormMatch & { kind_code: string | null }) | null;
  name_without_legal_form: string;
  widths: { half_width: string; full_width: string };
  reading_key: string | null;
  english_key: string | null;
  rules: string[];
}

@injectable()
export class NameNormalizeHandler implements EndpointHandler<NameNormalizeQuery, NameNormalizePayload> {
  coverage(): DataCoverage {
    return {
      kind: 'snapshot',
      as_of: RULES_AS_OF,
      summary:
        'A computation over the name alone (width, legal form, reading and English keys): no registry is searched.',
    };
  }

  handle(query: NameNormalizeQuery): NameNormalizePayload {
    const n = normalizeName(query.name);
    const latin = isLatin(n.core);
    const kana =
      furiganaKey(n.core) ??
      (latin ? furiganaKey(romajiToKatakana(englishKey(n.half_width)) ?? '') : undefined);
    return {
      query: { name: query.name },
      search_key: n.key,
      legal_form: n.legal_form
        ? { ...n.legal_form, kind_code: KIND_OF_FORM[n.legal_form.form] ?? null }
        : null,
      name_without_legal_form: n.core_as_written,
      widths: { half_width: n.half_width, full_width: n.full_width },
      reading_key: kana ?? null,
      english_key: latin ? englishKey(n.half_width) || null : null,
      rules: [
        'NFKC width normalisation for the keys: full-width Latin and digits to half width, half-width kana to full width, ㈱ to (株); name_without_legal_form keeps the characters as written',
        `legal forms recognised before or after the name: ${LEGAL_FORMS.map((f) => f.form).join(', ')} and their abbreviations ((株), (有) ...) and katakana readings`,
        'search key: no spaces, middle dots, punctuation or long vowel marks; hiragana as katakana; Latin lower case; old kanji forms folded (國 -> 国, 髙 -> 高)',
        'reading key: katakana with small kana written large and long vowels collapsed (トウキョウ = トキョ), for matching furigana and romaji',
      ],
      _attribution:
        'Normalisation rules of this service (Unicode NFKC; legal forms per the Companies Act and other corporation laws; old/new kanji pairs of the 常用漢字表)',
      _provenance: {
        kind: 'snapshot',
        as_of: RULES_AS_OF,
        sources: [
          { name: 'Unicode Standard Annex #15 (NFKC)', url: 'https://unicode.org/reports/tr15/' },
          {
            name: '常用漢字表 (平成22年内閣告示第2号), old forms in brackets',
            url: 'https://www.bunka.go.jp/kokugo_nihongo/sisaku/joho/joho/kijun/naikaku/kanji/',
          },
        ],
        searched: SEARCHED,
        notes: ['A pure computation: no registry lookup is made.'],
      },
    };
  }
}
