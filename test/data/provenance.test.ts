import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { DATA_DIR } from '../../domain/shared/data-file';

function jsonFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return jsonFiles(full);
    return name.endsWith('.json') ? [full] : [];
  });
}

describe('data/ tables', () => {
  const files = jsonFiles(DATA_DIR);
  it('exist', () => expect(files.length).to.be.greaterThan(0));
  for (const file of files) {
    it(`${path.relative(DATA_DIR, file)} states its sources and as-of date`, () => {
      const doc = JSON.parse(readFileSync(file, 'utf8'));
      expect(doc.title).to.be.a('string').and.not.equal('');
      expect(doc.provenance.as_of).to.match(/^\d{4}-\d{2}-\d{2}$/);
      expect(doc.provenance.sources).to.be.an('array').with.length.greaterThan(0);
      for (const s of doc.provenance.sources) expect(s.name).to.be.a('string').and.not.equal('');
    });
  }
});
