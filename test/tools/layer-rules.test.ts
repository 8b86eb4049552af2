/**
 * The layer rules of docs/architecture.md, as `npm run lint` checks them (dependency-cruiser with
 * .dependency-cruiser.cjs): the repository keeps them, and an import that breaks one fails the
 * check with the rule's name. The broken imports are made in a scratch tree laid out like the
 * repository, so the check of the real tree running beside this test never sees them.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../../config/paths';

const CONFIG = path.join(PROJECT_ROOT, '.dependency-cruiser.cjs');
const DEPCRUISE = path.join(
  PROJECT_ROOT,
  'node_modules',
  'dependency-cruiser',
  'bin',
  'dependency-cruise.mjs',
);

interface Run {
  code: number;
  output: string;
}

/** Runs the lint's layer check in `cwd` over `targets`. */
function layers(cwd: string, targets: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [DEPCRUISE, '--config', CONFIG, '--output-type', 'err', ...targets],
      { cwd, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
  });
}

/** A scratch tree laid out like the repository: `files` maps a path to its source. */
function scratchTree(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'layer-rules-'));
  writeFileSync(
    path.join(root, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'commonjs', strict: true } }),
  );
  for (const [file, source] of Object.entries(files)) {
    mkdirSync(path.join(root, path.dirname(file)), { recursive: true });
    writeFileSync(path.join(root, file), source);
  }
  return root;
}

describe('layer rules (npm run lint)', function () {
  this.timeout(120_000);
  const scratch: string[] = [];
  after(() => scratch.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('holds on the repository: no import breaks a layer rule, no cycle', async () => {
    const run = await layers(PROJECT_ROOT, [
      'core',
      'domain',
      'config',
      'plugins',
      'tools',
      'bench',
      'test',
      'main.ts',
    ]);
    expect(run.output).to.match(/no dependency violations found/);
    expect(run.code).to.equal(0);
  });

  it('fails when core/http imports core/surfaces, naming the rule and the import', async () => {
    const root = scratchTree({
      'core/surfaces/pipeline.ts': "export const PHASES = ['admit', 'run'];\n",
      'core/http/front-door.ts':
        "import { PHASES } from '../surfaces/pipeline';\nexport const first = PHASES[0];\n",
    });
    scratch.push(root);
    const run = await layers(root, ['core']);
    expect(run.code).to.not.equal(0);
    expect(run.output).to.include('layer:core/http: core/http/front-door.ts → core/surfaces/pipeline.ts');
  });

  it('fails on every other kind of broken rule, and passes the imports the rules allow', async () => {
    const root = scratchTree({
      // allowed: downward in core, domain through the plugin contract, a plugin through domain
      'core/util/clock.ts': 'export const now = () => new Date();\n',
      'core/http/errors.ts': "import { now } from '../util/clock';\nexport const at = now;\n",
      'core/plugins/storage.ts': 'export interface PluginStore { kind: string }\n',
      'core/surfaces/preview.ts': "import { at } from '../http/errors';\nexport const when = at;\n",
      'domain/shared/tokens.ts':
        "import type { PluginStore } from '../../core/plugins/storage';\nexport type S = PluginStore;\n",
      'plugins/a-one/handler.ts':
        "import type { S } from '../../domain/shared/tokens';\nexport type H = S;\n",
      // broken
      'core/store/sqlite/database.ts': 'export const open = 1;\n',
      'config/env.ts': 'export const PORT = 1;\n',
      'domain/registry/stores.ts':
        "import { open } from '../../core/store/sqlite/database';\nimport { PORT } from '../../config/env';\nexport const x = open + PORT;\n",
      'plugins/b-two/handler.ts': "import type { H } from '../a-one/handler';\nexport type G = H;\n",
      'core/keys/key-routes.ts': "import { w } from '../watches/watch-routes';\nexport const k = () => w;\n",
      'core/watches/watch-routes.ts': "import { k } from '../keys/key-routes';\nexport const w = () => k;\n",
      'core/payments/offers.ts': "import { when } from '../surfaces/preview';\nexport const o = when;\n",
    });
    scratch.push(root);
    const run = await layers(root, ['core', 'domain', 'config', 'plugins']);
    expect(run.code).to.not.equal(0);
    for (const broken of [
      'domain-uses-only-the-contract: domain/registry/stores.ts → core/store/sqlite/database.ts',
      'domain-uses-only-the-contract: domain/registry/stores.ts → config/env.ts',
      'plugin-not-another-plugin: plugins/b-two/handler.ts → plugins/a-one/handler.ts',
      'layer:core/keys: core/keys/key-routes.ts → core/watches/watch-routes.ts',
      'layer:core/payments: core/payments/offers.ts → core/surfaces/preview.ts',
      'no-circular: core/keys/key-routes.ts',
    ]) {
      expect(run.output).to.include(broken);
    }
    // Nothing else is reported: the allowed imports pass.
    expect(run.output).to.match(/x 6 dependency violations/);
  });
});
