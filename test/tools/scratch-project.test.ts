import { expect } from 'chai';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bootScratch, compile, makeScratchProject } from '../support/scratch-project';

/** A minimal paid_open plugin, written as a product team would: three TypeScript files. */
function writeEchoPlugin(root: string): void {
  const dir = path.join(root, 'plugins', 'local-scratch-echo');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'query.ts'),
    `import { IsString, MinLength } from 'class-validator';
import { Doc } from '../../core/plugins/query-rules';
export class EchoQuery {
  @Doc({ description: 'Text to echo', example: 'hello' })
  @IsString()
  @MinLength(1)
  text!: string;
}
`,
  );
  writeFileSync(
    path.join(dir, 'handler.ts'),
    `import { injectable } from 'tsyringe';
import type { DataCoverage, EndpointHandler, EndpointPayload } from '../../core/plugins/contract';
import type { EchoQuery } from './query';
export interface EchoPayload extends EndpointPayload { echo: string }
@injectable()
export class EchoHandler implements EndpointHandler<EchoQuery, EchoPayload> {
  handle(q: EchoQuery): EchoPayload {
    return { echo: q.text, _attribution: 'test', _provenance: { kind: 'snapshot', as_of: '2026-01-01', sources: [{ name: 'test' }] } };
  }
  coverage(): DataCoverage {
    return { kind: 'snapshot', as_of: '2026-01-01', summary: 'test' };
  }
}
`,
  );
  writeFileSync(
    path.join(dir, 'manifest.ts'),
    `import { definePlugin } from '../../core/plugins/contract';
import { EchoHandler } from './handler';
import { EchoQuery } from './query';
export default definePlugin({
  endpointId: 'local-scratch-echo', product: 'jp-local-pack', tail: 'local/scratch/echo', priceMicroUsdc: 2000,
  lifecycle: 'paid_open', summary: 'Echo', source: { name: 'test', freshness: 'static' },
  query: EchoQuery, handler: EchoHandler, payloadSchema: { type: 'object' }, examples: [{ query: { text: 'hi' } }],
});
`,
  );
}

describe('plugin folders in a scratch copy of the project (real compiler, real entry point)', function () {
  this.timeout(120_000);
  let root: string;
  before(() => {
    root = makeScratchProject();
    compile(root);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('serves a plugin folder once added, and forgets it once removed, with no other file touched', async () => {
    writeEchoPlugin(root);
    compile(root);
    let gw = await bootScratch(root);
    try {
      const res = await fetch(`${gw.url}/preview/v1/local/scratch/echo?text=hello`);
      expect(res.status).to.equal(200);
      const body = (await res.json()) as { echo: string; _gateway: { broker_id: string } };
      expect(body.echo).to.equal('hello');
      expect(body._gateway.broker_id).to.equal('jp-local-pack-v1-scratch-echo');
      const doc = (await (await fetch(`${gw.url}/openapi.json`)).json()) as {
        paths: Record<string, unknown>;
      };
      expect(doc.paths).to.have.property('/preview/v1/local/scratch/echo');
    } finally {
      await gw.stop();
    }

    rmSync(path.join(root, 'plugins', 'local-scratch-echo'), { recursive: true });
    compile(root);
    gw = await bootScratch(root);
    try {
      const res = await fetch(`${gw.url}/preview/v1/local/scratch/echo?text=hello`);
      expect(res.status).to.equal(404);
      const doc = (await (await fetch(`${gw.url}/openapi.json`)).json()) as {
        paths: Record<string, unknown>;
      };
      expect(doc.paths).to.not.have.property('/preview/v1/local/scratch/echo');
    } finally {
      await gw.stop();
    }
  });

  it('plugin:new scaffolds a draft plugin that boots (unsold) and whose own test passes unchanged', async () => {
    const out = execFileSync(
      process.execPath,
      [
        path.join(root, 'dist', 'tools', 'plugin-new.js'),
        'local-demo-echo',
        '--product',
        'jp-local-pack',
        '--tail',
        'local/demo/echo',
        '--price',
        '1500',
        '--root',
        root,
      ],
      { cwd: root, encoding: 'utf8' },
    );
    expect(out)
      .to.include('plugins/local-demo-echo/manifest.ts')
      .and.include('plugins/local-demo-echo/endpoint.test.ts');
    compile(root);
    const gw = await bootScratch(root);
    try {
      expect((await fetch(`${gw.url}/health`)).status).to.equal(200);
      // Draft: mounted nowhere public.
      expect((await fetch(`${gw.url}/preview/v1/local/demo/echo?name=x`)).status).to.equal(404);
      const doc = (await (await fetch(`${gw.url}/openapi.json`)).json()) as {
        paths: Record<string, unknown>;
      };
      expect(doc.paths).to.not.have.property('/preview/v1/local/demo/echo');
    } finally {
      await gw.stop();
    }
    const run = spawnSync(
      process.execPath,
      [
        path.join(root, 'node_modules', 'mocha', 'bin', 'mocha.js'),
        '--no-config',
        '--require',
        'dist/test/support/setup.js',
        'dist/plugins/local-demo-echo/endpoint.test.js',
      ],
      { cwd: root, encoding: 'utf8' },
    );
    expect(run.status, `${run.stdout}\n${run.stderr}`).to.equal(0);
    expect(run.stdout).to.include('2 passing');
    // The generated files pass the project's lint as they are.
    const generated = ['plugins/local-demo-echo'];
    const bin = (p: string) => path.join(root, 'node_modules', ...p.split('/'));
    const pretty = spawnSync(process.execPath, [bin('prettier/bin/prettier.cjs'), '--check', ...generated], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(pretty.status, pretty.stdout + pretty.stderr).to.equal(0);
    const lint = spawnSync(process.execPath, [bin('eslint/bin/eslint.js'), ...generated], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(lint.status, lint.stdout + lint.stderr).to.equal(0);
  });

  it('plugin:new refuses a request the kernel would refuse at boot', () => {
    const run = spawnSync(
      process.execPath,
      [
        path.join(root, 'dist', 'tools', 'plugin-new.js'),
        'local-bad',
        '--product',
        'jp-grants',
        '--tail',
        'local/bad',
        '--price',
        '5',
        '--root',
        root,
      ],
      { cwd: root, encoding: 'utf8' },
    );
    expect(run.status).to.equal(2);
    expect(run.stderr)
      .to.include('endpoint-id must start with "grants-"')
      .and.include('--tail must start with "grants/"')
      .and.include('--price must be');
  });
});
