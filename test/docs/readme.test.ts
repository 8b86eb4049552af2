/**
 * The README works in a fresh clone (issue 17, section 3): every relative link resolves to a
 * file of the repository (the contract is summarised in docs/, the shared folder is not in a
 * clone), the browser tests' requirement (Chromium) is named, and what .ci/run adds is said.
 */
import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../config/paths';

const README = readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');

describe('README.md in a fresh clone', () => {
  it('links only to files the repository holds, never to ../shared', () => {
    const links = [...README.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)].map((m) => m[1]);
    expect(links.length).to.be.greaterThan(10);
    const broken = links
      .filter((l) => !/^https?:\/\//.test(l))
      .filter((l) => !existsSync(path.join(PROJECT_ROOT, l)));
    expect(broken).to.deep.equal([]);
    expect(README).to.not.match(/\.\.\/shared/);
    expect(links).to.include('docs/contract.md');
  });

  it('names Chromium as what the browser tests need, and what .ci/run adds', () => {
    expect(README)
      .to.match(/Chromium/)
      .and.match(/\/usr\/bin\/chromium/);
    const ci = README.slice(README.indexOf('`.ci/run`'));
    expect(ci)
      .to.match(/REQUIRE_BROWSER=1/)
      .and.match(/MONGODB_URI/)
      .and.match(/TEST_STORE=mongodb/);
  });

  it('docs/contract.md summarises the spec: surfaces, errors, versioning', () => {
    const contract = readFileSync(path.join(PROJECT_ROOT, 'docs', 'contract.md'), 'utf8');
    for (const part of ['/preview/v1/', '/marketplace/', 'POST /broker/call', '402', '422', '`v1`'])
      expect(contract).to.include(part);
  });
});
