/**
 * The service spec fixes these payload names for this endpoint (spec 2.4): its schema declares them
 * where the spec shows them, and the vocabulary (domain/shared/vocabulary.ts) says the spec fixes
 * them, so the glossary marks them and no other answer may name the same thing otherwise.
 */
import { expect } from 'chai';
import { SPEC_NAMES } from '../../domain/shared/vocabulary';
import { declarations } from '../../tools/glossary-doc';
import manifest from './manifest';

const SPEC_PATHS = [
  '$.candidates',
  '$.candidates[].corporate_number_hint',
  '$.candidates[].legal_name',
  '$.candidates[].match_reliability',
  '$.candidates[].match_reliability_label',
  '$.candidates[]._source',
];

describe('enrich-company-by-name: the names the spec fixes', () => {
  it('are declared where the spec shows them, and the vocabulary says the spec fixes them', () => {
    const declared = declarations(manifest.payloadSchema, 'enrich-company-by-name').map((d) => d.at);
    expect(declared).to.include.members(SPEC_PATHS);
    const names = SPEC_PATHS.map((at) =>
      at
        .split(/[.[\]]+/)
        .filter(Boolean)
        .pop()!,
    );
    expect(names.filter((n) => !SPEC_NAMES[n])).to.deep.equal([]);
  });
});
