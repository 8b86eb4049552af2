/**
 * The kernel (core/) names no endpoint of plugins/: no endpoint id, tail or broker id, not even in
 * an example or a comment. Its examples are chosen from the registry at boot
 * (core/plugins/example-plugin.ts), so retiring any plugin folder leaves the kernel true.
 */
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../config/paths';
import { startTestGateway } from '../support/gateway';

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourcesUnder(full);
    return e.name.endsWith('.ts') ? [full] : [];
  });
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('the kernel names no endpoint of plugins/', () => {
  it('no file under core/ holds an endpoint id, tail or broker id of a loaded plugin', async () => {
    const gw = await startTestGateway();
    const names = gw.gateway.registry.all().flatMap((p) => [p.endpointId, p.tail, p.brokerId]);
    await gw.close();
    expect(names.length).to.be.greaterThan(0);
    // A name stands alone: `local-x` does not match inside `local-x-y` or `my-local-x`.
    const named = new RegExp(`(?<![\\w-])(${names.map(escape).join('|')})(?![\\w-])`, 'g');
    const found: string[] = [];
    for (const file of sourcesUnder(path.join(PROJECT_ROOT, 'core'))) {
      const lines = readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, i) => {
        for (const m of line.matchAll(named))
          found.push(`${path.relative(PROJECT_ROOT, file)}:${i + 1}: ${m[1]}`);
      });
    }
    expect(found, found.join('\n')).to.deep.equal([]);
  });
});
