/**
 * A plugin folder is self-contained (issue 26): its files, its tests included, import nothing from
 * another plugin folder, so deleting one folder breaks no other, and from the tests only the shared
 * test support (test/support/), so a folder copied elsewhere compiles with the kernel; and the
 * gateway loads each folder's manifest only, never the tests compiled beside it in dist/plugins/.
 */
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../config/paths';

const PLUGINS = path.join(PROJECT_ROOT, 'plugins');
const TESTS = path.join(PROJECT_ROOT, 'test');

/** The relative module specifiers of a TypeScript source (import, export from, require, import()). */
function specifiers(source: string): string[] {
  const found = source.matchAll(
    /(?:\bfrom\s*|\brequire\(\s*|\bimport\(\s*|^import\s+)(['"])(\.{1,2}\/[^'"]*)\1/gm,
  );
  return [...found].map((m) => m[2]);
}

/** What a file of `folder` imports from another plugin folder, or from the tests but test/support. */
function foreignImports(file: string, source: string, folder: string): string[] {
  return specifiers(source).flatMap((spec) => {
    const resolved = path.resolve(path.dirname(file), spec);
    const target = path.relative(PLUGINS, resolved);
    const [top] = target.split(path.sep);
    if (!target.startsWith('..') && top !== folder) return [`${spec} (plugins/${top})`];
    const inTests = path.relative(TESTS, resolved);
    if (!inTests.startsWith('..') && inTests.split(path.sep)[0] !== 'support')
      return [`${spec} (test/${inTests})`];
    return [];
  });
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return sources(p);
    return d.name.endsWith('.ts') ? [p] : [];
  });
}

describe('plugin folders are self-contained', () => {
  it('recognises an import from another plugin folder or from the tests beyond test/support (the check can fail)', () => {
    const file = path.join(PLUGINS, 'local-a', 'endpoint.test.ts');
    const text = [
      "import { x } from '../local-b/handler';",
      "import { y } from '../../domain/shared/tokyo-time';",
      "import { z } from './query';",
      "const w = require('../local-c/schema');",
      "import { v } from '../../test/support/gateway';",
      "import { u } from '../../test/domain/grants/facts';",
    ].join('\n');
    expect(foreignImports(file, text, 'local-a')).to.deep.equal([
      '../local-b/handler (plugins/local-b)',
      '../local-c/schema (plugins/local-c)',
      `../../test/domain/grants/facts (test/${path.join('domain', 'grants', 'facts')})`,
    ]);
  });

  it('no file of a plugin folder, its tests included, imports from another plugin folder or from test/ but test/support', () => {
    const problems: string[] = [];
    for (const folder of readdirSync(PLUGINS)) {
      for (const file of sources(path.join(PLUGINS, folder))) {
        for (const hit of foreignImports(file, readFileSync(file, 'utf8'), folder))
          problems.push(`${path.relative(PROJECT_ROOT, file)}: ${hit}`);
      }
    }
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });

  it('the gateway loads every manifest and none of the tests compiled beside them', () => {
    // A fresh process: mocha has required every test file into this one.
    const support = path.join(__dirname, '..', 'support');
    const script = `
      require(${JSON.stringify(path.join(support, 'setup.js'))});
      const { startTestGateway } = require(${JSON.stringify(path.join(support, 'gateway.js'))});
      startTestGateway({}).then(async (gw) => {
        const loaded = Object.keys(require.cache).filter((f) => f.includes(${JSON.stringify(`${path.sep}plugins${path.sep}`)}));
        await gw.close();
        process.stdout.write(JSON.stringify({ loaded, sold: gw.gateway.registry.sold().length }));
      });`;
    const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as {
      loaded: string[];
      sold: number;
    };
    const manifests = out.loaded.filter((f) => f.endsWith(`${path.sep}manifest.js`));
    expect(manifests.length, 'manifests loaded').to.be.at.least(out.sold);
    expect(out.loaded.filter((f) => /\.test\.js$/.test(f))).to.deep.equal([]);
  });
});
