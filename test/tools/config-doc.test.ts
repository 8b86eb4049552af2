import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { CONFIG_DOC, renderConfigDoc } from '../../tools/config-doc';

describe('docs/configuration.md', () => {
  it('lists every setting as config/env.ts defines it (run npm run docs:config to refresh)', () => {
    expect(readFileSync(CONFIG_DOC, 'utf8')).to.equal(renderConfigDoc());
  });
});
